// Commands that run other commands: wrappers (sudo, env, xargs, flock, chroot, …) and programs
// or builtins that take a script as a string (bash -c, eval, su -c, script -c, watch, ssh). The
// table says how each finds the command it runs; unwrap() applies it. Both the wrapper and what
// it runs are judged.
import { basename } from "../paths.ts";
import { lookup } from "./lookup.ts";
import { parsesOnly } from "./parse-only.ts";
import type { WordValue } from "./words.ts";

/** A command word: its value after expansion (null when dynamic) and the text as written. */
export interface Arg extends WordValue {
  raw: string;
  /**
   * A declaration builtin's assignment whose value is only known at run time (`export X=$(cmd)`): the
   * name bash parsed it to assign. Only a declaration read as one sets it; behind `command` or `builtin`
   * the word is split like any other, and may name other variables or options.
   */
  declares?: string;
  /** The word stands for every path a `find` upstream prints, as xargs hands them on (found-paths.ts). */
  found?: FoundPaths;
  /** An unquoted loop variable's glob or `~` value: bash splits each match at blanks and globs it again. */
  split?: true;
  /**
   * A git pathspec whose wildcards bash passes as written (`'*.ts'`): git matches it against its index and
   * history itself, so what it reaches is the git guard's to judge (git-contents.ts), not a glob on the disk.
   */
  pathspec?: true;
}

/** What a `find` upstream of xargs prints (found-paths.ts reads it): kept here beside Arg, which carries it. */
export interface FoundPaths {
  /** find's starting points (`.` when none). */
  roots: readonly Arg[];
  /** `-print0` (and xargs `-0`): names pass whole. */
  nul: boolean;
  /** The `-name` pattern every printed path matches (a plain conjunction), if any. */
  name: string | null;
  /** The producer as written, for the card. */
  shown: string;
  /** `git ls-files`: the files git's index names below the directory, not every file find could print. */
  tracked?: true;
  /**
   * `git diff --name-only`: some of those names, but relative to the work tree's top wherever it runs, so they
   * are the index's names only where it runs at the top (guards/tracked-reads.ts).
   */
  top?: true;
  /** `$(find …)`: bash splits the names at blanks and expands the globs in each. */
  split?: true;
}

export interface WrapperSpec {
  /** Options that take a separate value (`-u root`); `--opt=value` is recognised by itself. */
  values?: readonly string[];
  /** Options whose value is a command string the wrapper runs (`flock -c`, `script -c`). */
  script?: readonly string[];
  /** Operands before the wrapped command (timeout's DURATION, chroot's NEWROOT, flock's FILE). */
  operands?: number;
  /** Leading NAME=value words are environment for the command (env, sudo). */
  assignments?: boolean;
  /** A lone `-` right after the options is one more option, not the command (GNU env: "a mere - implies -i"). */
  dashOption?: boolean;
  /** The remaining words are joined into one command string (watch, eval). */
  joined?: boolean;
  /** With no command (or with one of these options) it starts an interactive shell. */
  shell?: "always-when-empty" | readonly string[];
  /** With no command it runs this one (xargs runs echo). */
  fallback?: string;
  /** Options that change the directory the command runs in. */
  chdir?: readonly string[];
  /** Options whose value replaces a placeholder in the command's words with input (`xargs -I {}`). */
  replace?: readonly string[];
  /** The command gets extra arguments from input (xargs). */
  appends?: boolean;
  /** Options after which no command follows (`taskset -p`, `command -v`). */
  noCommand?: readonly string[];
  /** Options whose value is a variable removed from the command's environment (`env -u`). */
  unset?: readonly string[];
  /** A flag that makes the first operand a command string (`entr -s`). */
  scriptFlag?: string;
  /** Options that replace the operands before the command (`runuser -u USER cmd`). */
  operandOptions?: readonly string[];
  /** Options whose value is a file the wrapper reads (`xargs -a FILE`). */
  reads?: readonly string[];
  /** Its operands before the command are files it opens for writing, creating them (`flock FILE`). */
  operandsWritten?: boolean;
  /** Options whose value is a NAME=value given to the command's environment (`systemd-run -E`). */
  setenv?: readonly string[];
  /** It builds the command string it runs from its input at run time (GNU parallel). */
  builtAtRunTime?: boolean;
  /**
   * It runs the command in another filesystem root: always (`operand`: chroot's NEWROOT) or with one of
   * these options (`sudo -R`, `unshare --root`, `nsenter -m`). The command's program and paths are then
   * that tree's (a project's `bin/ls` as `/bin/ls`), not the ones judged (red team, round 5).
   */
  root?: "operand" | readonly string[];
}

const SHELL_NAMES = [
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "posh",
  "fish",
  "csh",
  "tcsh",
];
export const SHELLS: ReadonlySet<string> = new Set(SHELL_NAMES);

const SU = { values: ["-g", "-G", "-s", "--shell", "-w", "--whitelist-environment", "--group"] };

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  sudo: {
    values: [
      ...["-C", "-D", "-g", "-h", "-p", "-R", "-r", "-T", "-t", "-U", "-u", "--close-from", "--chdir"],
      ...["--group", "--host", "--prompt", "--chroot", "--role", "--command-timeout", "--type"],
      ...["--other-user", "--user"],
    ],
    assignments: true,
    shell: ["-s", "-i", "--shell", "--login"],
    chdir: ["-D", "--chdir"],
    root: ["-R", "--chroot"],
    noCommand: ["-l", "--list", "-v", "--validate", "-k", "-K", "-V", "--version", "-e", "--edit"],
  },
  doas: { values: ["-C", "-u"], shell: ["-s"] },
  pkexec: { values: ["--user"] },
  run0: { values: ["-u", "--user", "-D", "--chdir", "--setenv", "--property", "--description"] },
  env: {
    values: ["-u", "--unset", "-C", "--chdir", "-P", "-a", "--argv0"],
    script: ["-S", "--split-string"],
    assignments: true,
    dashOption: true,
    chdir: ["-C", "--chdir"],
    unset: ["-u", "--unset"],
  },
  nohup: {},
  setsid: {},
  chronic: {},
  ifne: {},
  unbuffer: {},
  rlwrap: { values: ["-a", "-b", "-f", "-g", "-H", "-l", "-m", "-P", "-p", "-q", "-S", "-w", "-z"] },
  caffeinate: { values: ["-t", "-w"] },
  torsocks: { values: ["-u", "-p", "-a", "-P"] },
  proxychains: { values: ["-f"] },
  proxychains4: { values: ["-f"] },
  tsocks: {},
  fakeroot: { values: ["-l", "-s", "-i", "--lib", "--faked"] },
  catchsegv: {},
  "xvfb-run": { values: ["-n", "-s", "-e", "-f", "-p", "--server-num", "--server-args"] },
  "dbus-run-session": { values: ["--config-file", "--dbus-daemon"] },
  "ssh-agent": { values: ["-a", "-E", "-P", "-t"] },
  "systemd-inhibit": { values: ["--what", "--who", "--why", "--mode"] },
  nice: { values: ["-n", "--adjustment"] },
  ionice: { values: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"], noCommand: ["-p", "-P", "-u"] },
  chrt: { operands: 1, noCommand: ["-p", "--pid"] },
  taskset: { operands: 1, values: ["-c", "--cpu-list"], noCommand: ["-p", "--pid"] },
  numactl: {
    values: ["-C", "-N", "-m", "-i", "-p", "--physcpubind", "--cpunodebind", "--membind", "--interleave"],
  },
  prlimit: { values: ["-p", "--pid"] },
  setarch: { operands: 1 },
  linux32: {},
  linux64: {},
  stdbuf: { values: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  timeout: { values: ["-s", "-k", "--signal", "--kill-after"], operands: 1 },
  time: { values: ["-f", "-o", "--format", "--output"] },
  exec: { values: ["-a"] },
  command: { noCommand: ["-v", "-V"] },
  builtin: {},
  busybox: {},
  toybox: {},
  strace: { values: ["-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"] },
  ltrace: { values: ["-e", "-o", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-F", "-l", "-x"] },
  valgrind: {},
  faketime: { operands: 1, values: ["-m", "-f", "-p"] },
  gosu: { operands: 1 },
  "su-exec": { operands: 1 },
  setpriv: { values: ["--reuid", "--regid", "--groups", "--inh-caps", "--bounding-set", "--securebits"] },
  unshare: {
    values: ["-S", "-G", "--setuid", "--setgid", "-R", "--root", "-w", "--wd", "--propagation"],
    shell: "always-when-empty",
    chdir: ["-w", "--wd"],
    root: ["-R", "--root"],
  },
  nsenter: {
    values: ["-t", "--target", "-S", "-G", "--setuid", "--setgid", "-r", "-w", "--wd"],
    shell: "always-when-empty",
    chdir: ["-w", "--wd"],
    root: ["-r", "--root", "-m", "--mount", "-a", "--all"],
  },
  chroot: {
    values: ["--userspec", "--groups"],
    operands: 1,
    shell: "always-when-empty",
    chdir: [],
    root: "operand",
  },
  flock: {
    values: ["-w", "-E", "--timeout", "--wait", "--conflict-exit-code"],
    script: ["-c", "--command"],
    operands: 1,
    // The lock file is opened with O_CREAT: `flock .git/index.lock true` creates it (red team, round 4).
    operandsWritten: true,
  },
  script: {
    values: ["-E", "--echo", "-o", "--output-limit", "-B", "--log-io", "-I", "--log-in", "-O", "--log-out"],
    script: ["-c", "--command"],
    // The operand is the typescript file it writes; without -c it starts a shell.
    operands: 1,
    shell: "always-when-empty",
  },
  sg: { operands: 1, script: ["-c"], shell: "always-when-empty" },
  newgrp: { operands: 1, shell: "always-when-empty" },
  su: { ...SU, script: ["-c", "--command"], operands: 1, shell: "always-when-empty" },
  runuser: {
    ...SU,
    values: [...SU.values, "-u", "--user"],
    script: ["-c", "--command"],
    operands: 1,
    operandOptions: ["-u", "--user"],
    shell: "always-when-empty",
  },
  xargs: {
    values: [
      ...["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--max-lines"],
      ...["--max-args", "--max-procs", "--max-chars", "--process-slot-var", "--eof", "--replace"],
    ],
    fallback: "echo",
    replace: ["-I", "-i", "--replace"],
    appends: true,
    reads: ["-a", "--arg-file"],
  },
  watch: {
    values: ["-n", "--interval", "-q", "--equexit"],
    joined: true,
  },
  entr: { scriptFlag: "-s" },
  eval: { joined: true },
  npx: { values: ["-p", "--package", "-c", "--call"], script: ["-c", "--call"] },
  bunx: { values: ["-p", "--package"] },
  pnpx: {},
  uvx: { values: ["--from", "--with", "-p", "--python"] },
  "direnv exec": { operands: 1, chdir: [] },
  "npm exec": { values: ["-p", "--package", "-c", "--call"], script: ["-c", "--call"] },
  "npm x": { values: ["-p", "--package", "-c", "--call"], script: ["-c", "--call"] },
  "pnpm exec": {},
  "pnpm dlx": { values: ["-p", "--package"] },
  "yarn exec": {},
  "yarn dlx": { values: ["-p", "--package"] },
  "bun x": { values: ["-p", "--package"] },
  "uv run": { values: ["--with", "--python", "-p", "--project", "--directory", "--package"] },
  "poetry run": {},
  "pipenv run": {},
  "pdm run": {},
  "hatch run": {},
  "conda run": { values: ["-n", "--name", "-p", "--prefix"] },
  "bundle exec": {},
  "mise exec": {},
  "asdf exec": {},
  "nix-shell": { script: ["--run", "--command"], values: ["-p", "--packages", "-A", "-I"] },
  "nix develop": { script: ["-c", "--command"] },
  "systemd-run": {
    values: [
      ...["-u", "--unit", "-p", "--property", "-E", "--setenv", "--description", "--slice", "-M"],
      ...["--machine", "-H", "--host", "--uid", "--gid", "--nice", "--working-directory", "--on-active"],
      ...["--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar"],
      ...["--timer-property", "--path-property", "--socket-property", "--service-type"],
    ],
    shell: ["-S", "--shell"],
    chdir: ["--working-directory"],
    setenv: ["-E", "--setenv"],
  },
  cpulimit: {
    values: ["-l", "--limit", "-p", "--pid", "-e", "--exe", "-P", "--path", "-c", "--cpu"],
    noCommand: ["-p", "--pid", "-e", "--exe", "-P", "--path"],
  },
  trickle: { values: ["-d", "-u", "-w", "-t", "-l", "-n"] },
  eatmydata: {},
  nocache: {},
  firejail: { shell: "always-when-empty" },
  // `parallel CMD ::: ARGS` joins CMD and each argument into a string a shell runs; with no CMD
  // each input line is a command.
  parallel: { builtAtRunTime: true },
  sem: { builtAtRunTime: true },
};

export type Unwrapped =
  | { kind: "none" }
  | {
      kind: "inner";
      argv: Arg[];
      /** Environment assignments the wrapper gives the command. */
      assigns: Arg[];
      /** Variables the wrapper removes from the command's environment. */
      unsets?: Arg[];
      /** Files the wrapper itself reads (`xargs -a FILE`). */
      reads?: Arg[];
      /** Files the wrapper itself creates or opens for writing (`flock FILE`). */
      writes?: Arg[];
      /** The command runs in another directory (null: unknown). */
      chdir?: Arg | null;
      /** The command gets extra, unknown arguments (xargs). */
      appends?: boolean;
    }
  /** A script given as a string; null when that string is not static. */
  | {
      kind: "script";
      script: string | null;
      /** Files the wrapper itself creates or opens for writing first (`flock FILE -c CMD`). */
      writes?: Arg[];
    }
  /** A shell reading its program from standard input. */
  | { kind: "stdin-shell" }
  /** An interactive shell: whatever is typed into it later is never judged. */
  | { kind: "shell" }
  /** A shell asked only for its version or usage (`bash --version`): it runs no program. */
  | { kind: "info" };

/** Which wrapper table entry applies: `npm exec` is looked up before `npm`. */
export function wrapperOf(argv: readonly Arg[]): { spec: WrapperSpec; name: string; skip: number } | null {
  const head = argv[0]?.value;
  if (head === undefined || head === null) return null;
  const name = basename(head);
  const sub = argv[1]?.value;
  if (sub) {
    const two = lookup(WRAPPERS, `${name} ${sub}`);
    if (two) return { spec: two, name: `${name} ${sub}`, skip: 2 };
  }
  const one = lookup(WRAPPERS, name);
  return one ? { spec: one, name, skip: 1 } : null;
}

/** Joins static words the way `eval` and `watch` do; null when any word is dynamic. */
export function joined(argv: readonly Arg[]): string | null {
  const parts: string[] = [];
  for (const a of argv) {
    if (a.value === null) return null;
    parts.push(a.value);
  }
  return parts.join(" ");
}

function optionName(v: string): string {
  return v.startsWith("--") && v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
}

/** Every long option a wrapper's table names (those that take values or change what runs, or where). */
function knownLongs(spec: WrapperSpec): string[] {
  const lists = [spec.values, spec.script, spec.chdir, spec.replace, spec.noCommand, spec.unset];
  const more = [spec.operandOptions, spec.reads, spec.setenv, Array.isArray(spec.shell) ? spec.shell : []];
  return [...new Set([...lists, ...more].flatMap((l) => (l ?? []).filter((n) => n.startsWith("--"))))];
}

/**
 * getopt_long takes any unique prefix of a long option (`env --ch=DIR` is `--chdir=DIR`): a prefix of
 * exactly one option the table names is that option. An ambiguous one makes the program refuse to run.
 */
function longName(name: string, spec: WrapperSpec): string {
  if (!name.startsWith("--") || name.length < 3) return name;
  const known = knownLongs(spec);
  if (known.includes(name)) return name;
  const matches = known.filter((k) => k.startsWith(name));
  return matches.length === 1 ? (matches[0] as string) : name;
}

/** A shell invoked with arguments: its `-c` script, a script file, or standard input. */
/**
 * Shells whose `--version` and `--help` alone read no program: bash prints and exits while it reads its
 * options; dash (Debian's sh) refuses the option and exits 2. Proven in both (system-reads.test.ts): a
 * program on standard input does not run. Any other word beside it is judged as the shell's usual words.
 */
const INFO_SHELLS = new Set(["bash", "sh", "dash"]);

export function shellScript(argv: readonly Arg[]): Unwrapped {
  const only = argv.length === 2 ? argv[1]?.value : null;
  const info = only === "--version" || only === "--help" || parsesOnly(argv);
  if (info && INFO_SHELLS.has(basename(argv[0]?.value ?? ""))) return { kind: "info" };
  for (let i = 1; i < argv.length; i++) {
    const v = (argv[i] as Arg).value;
    if (v === null) return { kind: "script", script: null };
    if (v === "--" || v === "-") return i + 1 < argv.length ? { kind: "none" } : { kind: "stdin-shell" };
    if (v === "-o" || v === "+o" || v === "-O" || v === "+O" || v === "--rcfile" || v === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v.startsWith("-") && v.includes("c")) {
        const script = argv[i + 1];
        return { kind: "script", script: script ? script.value : null };
      }
      if (v.startsWith("-") && v.includes("i")) return { kind: "shell" };
      continue;
    }
    if (v.startsWith("--")) continue;
    // `bash <(curl …)`: the program is another command's output.
    if ((argv[i] as Arg).pipe) return { kind: "script", script: null };
    // A script file: its content is not known here, so the rules judge the call itself.
    return { kind: "none" };
  }
  return { kind: "stdin-shell" };
}

/** Options of a wrapper, in order; returns where the wrapped command starts, or why it has none. */
function scan(
  argv: readonly Arg[],
  from: number,
  spec: WrapperSpec,
): {
  at: number;
  script?: Arg | null;
  chdir?: Arg | null;
  shell?: boolean;
  none?: boolean;
  replace?: string[];
  unsets?: Arg[];
  reads?: Arg[];
  setenv?: Arg[];
  operandOption?: boolean;
} {
  const values = spec.values ?? [];
  const scripts = spec.script ?? [];
  const out: ReturnType<typeof scan> = { at: from };
  let i = from;
  while (i < argv.length) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) break;
    if (v === "--") {
      i++;
      break;
    }
    if (!v.startsWith("-") || v === "-") break;
    if (spec.replace && /^-i./.test(v)) {
      // xargs -iSTR: the replace string is glued to the option.
      out.replace ??= [];
      out.replace.push(v.slice(2));
      i++;
      continue;
    }
    if (spec.scriptFlag === v) {
      out.script = argv.slice(i + 1).find((x) => !x.value?.startsWith("-")) ?? null;
      i = argv.length;
      break;
    }
    const name = longName(optionName(v), spec);
    const inline = v.startsWith("--") && v.includes("=") ? v.slice(v.indexOf("=") + 1) : null;
    let key = name;
    let valueArg: Arg | null = null;
    let consumed = 1;
    const takes = (k: string) => values.includes(k) || scripts.includes(k);
    if (inline !== null) valueArg = { ...a, value: inline };
    else if (!v.startsWith("--") && v.length > 2 && !takes(v)) {
      // A cluster of short options (`-qc CMD`, `-uroot`): the first that takes a value ends it.
      for (let k = 1; k < v.length; k++) {
        const short = `-${v[k]}`;
        key = short;
        if (takes(short)) {
          const glued = v.slice(k + 1);
          if (glued !== "") valueArg = { ...a, value: glued };
          else {
            valueArg = argv[i + 1] ?? null;
            consumed = 2;
          }
          break;
        }
        if (Array.isArray(spec.shell) && spec.shell.includes(short)) out.shell = true;
        if (spec.noCommand?.includes(short)) out.none = true;
      }
    } else if (takes(name)) {
      valueArg = argv[i + 1] ?? null;
      consumed = 2;
    }
    if (scripts.includes(key)) out.script = valueArg;
    if (spec.chdir?.includes(key)) out.chdir = valueArg;
    if (spec.replace?.includes(key) || (key === "-i" && spec.replace)) {
      out.replace ??= [];
      out.replace.push(key === "-i" && valueArg === null ? "{}" : (valueArg?.value ?? "{}"));
    }
    if (Array.isArray(spec.shell) && spec.shell.includes(key)) out.shell = true;
    if (spec.noCommand?.includes(key)) out.none = true;
    if (spec.reads?.includes(key) && valueArg !== null) {
      out.reads ??= [];
      out.reads.push(valueArg);
    }
    if (spec.operandOptions?.includes(key)) out.operandOption = true;
    if (spec.setenv?.includes(key) && valueArg !== null) {
      out.setenv ??= [];
      out.setenv.push(valueArg);
    }
    if (spec.unset?.includes(key) && valueArg !== null) {
      out.unsets ??= [];
      out.unsets.push(valueArg);
    }
    i += consumed;
  }
  out.at = i;
  if (out.script === undefined && scripts.length > 0) {
    // GNU tools permute their arguments: `flock FILE -c CMD`, `su root -c CMD`.
    for (let k = i; k < argv.length; k++) {
      const v = argv[k]?.value;
      if (v === "--") break;
      if (v !== null && v !== undefined && scripts.includes(optionName(v))) {
        out.script = v.includes("=")
          ? { ...(argv[k] as Arg), value: v.slice(v.indexOf("=") + 1) }
          : (argv[k + 1] ?? null);
        break;
      }
    }
  }
  return out;
}

export function unwrap(argv: readonly Arg[]): Unwrapped {
  const head = argv[0]?.value;
  if (head === undefined || head === null) return { kind: "none" };
  const name = basename(head);
  if (SHELLS.has(name)) return shellScript(argv);
  const found = wrapperOf(argv);
  if (found === null) return { kind: "none" };
  const { spec, skip } = found;
  if (spec.builtAtRunTime) return { kind: "script", script: null };
  if (spec.joined) {
    const start = scan(argv, skip, spec).at;
    return {
      kind: "script",
      script: start < argv.length ? joined(argv.slice(start)) : name === "eval" ? "" : null,
    };
  }
  const scanned = scan(argv, skip, spec);
  if (scanned.script !== undefined) {
    const script = scanned.script?.value ?? null;
    // `env -S 'a b' c`: the split string is followed by more words.
    const rest = joined(argv.slice(scanned.at));
    if (name === "env")
      return { kind: "script", script: script === null || rest === null ? null : `${script} ${rest}` };
    // `flock FILE -c CMD` opens FILE with O_CREAT before it runs CMD (red team, round 12).
    const file = argv[scanned.at];
    if (spec.operandsWritten && file !== undefined && file !== scanned.script) {
      const v = file.value;
      const option = v?.startsWith("-") && v !== "-";
      if (!option) return { kind: "script", script, writes: [file] };
    }
    return { kind: "script", script };
  }
  if (scanned.none) return { kind: "none" };
  let i = scanned.at;
  if (spec.dashOption && argv[i]?.value === "-") i++;
  const assigns: Arg[] = [...(scanned.setenv ?? [])];
  if (spec.assignments) {
    // env and sudo take any NAME=value word (BASH_FUNC_ls%%=… included) as environment.
    while (i < argv.length && /^[^=]+=/.test(argv[i]?.value ?? "")) assigns.push(argv[i++] as Arg);
  }
  // `nice -5 cmd`: an old-style adjustment.
  if (name === "nice" && /^-\d+$/.test(argv[i]?.value ?? "")) i++;
  // `flock 9` (a file descriptor) runs nothing.
  if (name === "flock" && /^\d+$/.test(argv[i]?.value ?? "") && i + 1 >= argv.length) return { kind: "none" };
  const operandsAt = i;
  if (!scanned.operandOption) i += spec.operands ?? 0;
  // What the wrapper itself reads, writes and removes, whatever it then runs (its fallback included:
  // `xargs -a FILE` with no command echoes FILE's words).
  const own = (out: Extract<Unwrapped, { kind: "inner" }>): Unwrapped => {
    if (scanned.unsets) out.unsets = scanned.unsets;
    if (scanned.reads) out.reads = scanned.reads;
    if (spec.operandsWritten && !scanned.operandOption) out.writes = argv.slice(operandsAt, i);
    return out;
  };
  if (i >= argv.length) {
    if (scanned.shell || spec.shell === "always-when-empty") return { kind: "shell" };
    if (spec.fallback)
      return own({
        kind: "inner",
        argv: [{ value: spec.fallback, raw: spec.fallback, glob: false, tilde: false }],
        assigns,
        appends: true,
      });
    if (spec.operandsWritten && operandsAt < argv.length)
      return own({
        kind: "inner",
        argv: [{ value: "true", raw: "true", glob: false, tilde: false }],
        assigns,
      });
    return { kind: "none" };
  }
  let inner = argv.slice(i);
  if (scanned.replace) {
    // Input is spliced into every word holding the placeholder: such a word is not static.
    const marks = scanned.replace;
    inner = inner.map((a) =>
      a.value !== null && marks.some((m) => m !== "" && a.value?.includes(m)) ? { ...a, value: null } : a,
    );
  }
  const out = own({ kind: "inner", argv: inner, assigns }) as Extract<Unwrapped, { kind: "inner" }>;
  if (scanned.chdir !== undefined) out.chdir = scanned.chdir;
  else if (spec.chdir !== undefined && spec.chdir.length === 0) out.chdir = null;
  if (spec.appends && !scanned.replace) out.appends = true;
  return out;
}

/**
 * The word that puts the wrapped command in another filesystem root (`chroot DIR`, `sudo -R DIR`,
 * `unshare --root=DIR`, `nsenter -m`), from the wrapper's own words (the command excluded), or null.
 * Short options are found inside clusters and long ones by any prefix (getopt_long), so `-at 1` and
 * `--roo=.` count.
 */
export function otherRoot(own: readonly Arg[]): Arg | null {
  const w = wrapperOf(own);
  const root = w?.spec.root;
  if (w === null || root === undefined) return null;
  const words = own.slice(w.skip);
  if (root === "operand") {
    const values = new Set(w.spec.values ?? []);
    for (let i = 0; i < words.length; i++) {
      const v = words[i]?.value ?? null;
      if (v === null || !v.startsWith("-") || v === "-") return words[i] ?? null;
      if (v === "--") return words[i + 1] ?? null;
      if (values.has(v)) i++;
    }
    return null;
  }
  const shorts = root.filter((o) => !o.startsWith("--")).map((o) => o.slice(1));
  const longs = root.filter((o) => o.startsWith("--"));
  for (const a of words) {
    const v = a.value;
    if (v === null) return a;
    if (v === "--") break;
    if (v.startsWith("--")) {
      const name = v.split("=")[0] as string;
      if (name.length > 2 && longs.some((l) => l.startsWith(name))) return a;
    } else if (/^-[A-Za-z]/.test(v) && [...v.slice(1)].some((c) => shorts.includes(c))) return a;
  }
  return null;
}
