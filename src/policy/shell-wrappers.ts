// Commands that run other commands: wrappers (sudo, env, xargs, find -exec, ...) and shells or
// builtins that take a script as a string (bash -c, eval, su -c). Each is seen through.
import { basename } from "./paths.ts";

export interface Arg {
  /** Literal value, or null when the word is not static. */
  value: string | null;
  /** The word as written, used in reasons and for dynamic words. */
  raw: string;
  expands: boolean;
}

export type Unwrapped =
  | { kind: "none" }
  | { kind: "inner"; argv: Arg[] }
  /** A script given as a string; null when that string is not static. */
  | { kind: "script"; script: string | null }
  /** A shell reading its program from standard input. */
  | { kind: "stdin-shell" };

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish"]);

/** Options that take a separate value, per wrapper; anything else starting with `-` is a flag. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  env: new Set(["-u", "--unset", "-C", "--chdir", "-P", "-a", "--argv0"]),
  sudo: new Set([
    "-C",
    "-D",
    "-g",
    "-h",
    "-p",
    "-R",
    "-r",
    "-T",
    "-t",
    "-U",
    "-u",
    "--close-from",
    "--chdir",
    "--group",
    "--host",
    "--prompt",
    "--chroot",
    "--role",
    "--command-timeout",
    "--type",
    "--other-user",
    "--user",
  ]),
  doas: new Set(["-C", "-u"]),
  xargs: new Set([
    "-a",
    "-d",
    "-E",
    "-I",
    "-L",
    "-n",
    "-P",
    "-s",
    "--arg-file",
    "--delimiter",
    "--max-lines",
    "--max-args",
    "--max-procs",
    "--max-chars",
    "--process-slot-var",
  ]),
  nice: new Set(["-n", "--adjustment"]),
  timeout: new Set(["-s", "-k", "--signal", "--kill-after"]),
  time: new Set(["-f", "-o", "--format", "--output"]),
  exec: new Set(["-a"]),
  stdbuf: new Set(["-i", "-o", "-e", "--input", "--output", "--error"]),
  ionice: new Set(["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"]),
  setsid: new Set([]),
  nohup: new Set([]),
  command: new Set([]),
  builtin: new Set([]),
  chronic: new Set([]),
  busybox: new Set([]),
  watch: new Set(["-n", "--interval", "-d", "--differences", "-q", "--equexit", "--errexit"]),
};

const WRAPPERS = new Set(Object.keys(VALUE_OPTIONS));

/** Skips the wrapper's own options; returns the index of the wrapped command, if any. */
function skipOptions(
  argv: Arg[],
  from: number,
  valueOptions: ReadonlySet<string>,
  stopAtAssign: boolean,
): number {
  let i = from;
  while (i < argv.length) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) return i;
    if (v === "--") return i + 1;
    if (stopAtAssign && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      i++;
      continue;
    }
    if (!v.startsWith("-") || v === "-") return v === "-" ? i + 1 : i;
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    if (valueOptions.has(name) && !v.includes("=")) i += 2;
    else i += 1;
  }
  return i;
}

function shellScript(argv: Arg[]): Unwrapped {
  for (let i = 1; i < argv.length; i++) {
    const v = (argv[i] as Arg).value;
    if (v === null) return { kind: "script", script: null };
    if (v === "--" || v === "-") return i + 1 < argv.length ? { kind: "none" } : { kind: "stdin-shell" };
    if (v === "-o" || v === "+o" || v === "--rcfile" || v === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v.startsWith("-") && v.includes("c")) {
        const script = argv[i + 1];
        return { kind: "script", script: script ? script.value : null };
      }
      continue;
    }
    if (v.startsWith("--")) continue;
    // A script file: the file's content is not known here, so the rules judge the call itself.
    return { kind: "none" };
  }
  return { kind: "stdin-shell" };
}

/** Joins static words the way `eval` and `watch` do; null when any word is dynamic. */
function joined(argv: Arg[]): string | null {
  const parts: string[] = [];
  for (const a of argv) {
    if (a.value === null) return null;
    parts.push(a.value);
  }
  return parts.join(" ");
}

export function unwrap(argv: Arg[]): Unwrapped {
  const head = argv[0]?.value;
  if (head === undefined || head === null) return { kind: "none" };
  const name = basename(head);
  if (SHELLS.has(name)) return shellScript(argv);
  if (name === "eval") return { kind: "script", script: joined(argv.slice(1)) };
  if (name === "su" || name === "runuser") {
    const i = argv.findIndex(
      (a, idx) =>
        idx > 0 && (a.value === "-c" || a.value === "--command" || a.value?.startsWith("--command=")),
    );
    if (i === -1) return { kind: "none" };
    const a = argv[i] as Arg;
    if (a.value?.startsWith("--command="))
      return { kind: "script", script: a.value.slice("--command=".length) };
    return { kind: "script", script: argv[i + 1]?.value ?? null };
  }
  if (name === "find") {
    const i = argv.findIndex((a) => a.value !== null && /^-(exec|execdir|ok|okdir)$/.test(a.value));
    if (i === -1) return { kind: "none" };
    let end = i + 1;
    while (end < argv.length && argv[end]?.value !== ";" && argv[end]?.value !== "+") end++;
    return { kind: "inner", argv: argv.slice(i + 1, end) };
  }
  if (!WRAPPERS.has(name)) return { kind: "none" };
  const options = VALUE_OPTIONS[name] ?? new Set<string>();
  if (name === "env") {
    const split = argv.findIndex(
      (a) => a.value === "-S" || a.value === "--split-string" || a.value?.startsWith("--split-string="),
    );
    if (split !== -1) {
      const a = argv[split] as Arg;
      const first = a.value?.startsWith("--split-string=") ? a.value.slice(15) : argv[split + 1]?.value;
      const rest = joined(argv.slice(a.value?.startsWith("--split-string=") ? split + 1 : split + 2));
      return {
        kind: "script",
        script: first === undefined || first === null || rest === null ? null : `${first} ${rest}`,
      };
    }
  }
  if (name === "watch") {
    const start = skipOptions(argv, 1, options, false);
    return { kind: "script", script: start < argv.length ? joined(argv.slice(start)) : null };
  }
  let start = skipOptions(argv, 1, options, name === "env" || name === "sudo" || name === "doas");
  if (name === "timeout" && start < argv.length) start++; // the DURATION operand
  if (name === "nice" && argv[start]?.value !== null && /^-\d+$/.test(argv[start]?.value ?? "")) start++;
  if (start >= argv.length && (name === "sudo" || name === "doas")) {
    // `sudo -s` / `sudo -i` with no command opens a root shell that reads standard input.
    const shell = argv.some((a) => a.value !== null && /^-[A-Za-z]*[si][A-Za-z]*$/.test(a.value));
    return shell ? { kind: "stdin-shell" } : { kind: "none" };
  }
  if (start >= argv.length)
    return name === "xargs"
      ? { kind: "inner", argv: [{ value: "echo", raw: "echo", expands: false }] }
      : { kind: "none" };
  return { kind: "inner", argv: argv.slice(start) };
}

/** Assignments that change how every later command is found or run. */
export const DANGEROUS_ENV =
  /^(PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_[A-Z_]+|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GIT_SSH_COMMAND|GIT_EXEC_PATH|NODE_OPTIONS)=/;
