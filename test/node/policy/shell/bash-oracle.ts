// bash as the oracle of what a command runs: with `extdebug` and a DEBUG trap that records each
// simple command bash is about to run and returns 1, bash walks a script and runs nothing.
// `coverage` then checks that the engine's units include every command bash listed.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ShellUnit } from "../../../../src/policy/index.ts";

const MAX_PER_SCRIPT = 400;

// `functrace` carries the trap into functions, subshells and substitutions. Each script runs in
// a function, so a script that loops (`while ls; do …` spins: the skipped `ls` succeeds) is cut
// short by returning 2, which ends the function; a subshell of it (a pipeline part, `cmd &`)
// that loops exits instead, and each script's background jobs are awaited before the next.
const HARNESS = `
shopt -s extdebug
set -o functrace
__n=0
__t() {
  if [[ $__in == 1 && $BASH_COMMAND != "__in=0" ]]; then
    __n=$((__n + 1))
    # One line per record, so each is one write even when a background job records too.
    printf '%s\\0' "\${BASH_COMMAND//$'\\n'/ }" >&3
    if (( __n > ${MAX_PER_SCRIPT} )); then
      if [[ $BASHPID != "$__pid" ]]; then exit 0; fi
      return 2
    fi
    return 1
  fi
  return 0
}
__run() { __pid=$BASHPID; eval "__in=1
$1
"; }
__in=0
trap '__t' DEBUG
while IFS= read -r -d '' __s; do
  printf '\\1\\0' >&3
  # A subshell per script: some syntax errors end a non-interactive shell, and state stays put.
  ( __run "$__s" 2>/dev/null; __in=0; wait )
done
`;

/** For each script, the simple commands bash would run, as `$BASH_COMMAND` shows them. */
export function bashRuns(scripts: readonly string[]): string[][] {
  const dir = mkdtempSync(join(tmpdir(), "airlock-oracle-"));
  try {
    const harness = join(dir, "harness.sh");
    writeFileSync(harness, HARNESS);
    const input = join(dir, "scripts");
    writeFileSync(input, scripts.map((s) => `${s.replace(/\0/g, "")}\0`).join(""));
    const stdin = openSync(input, "r");
    const result = spawnSync("/bin/bash", [harness], {
      cwd: dir,
      // Nothing should run; if something did, it would find no programs and no home to touch.
      env: { PATH: join(dir, "no-programs"), HOME: dir, LANG: "C.UTF-8" },
      stdio: [stdin, "ignore", "ignore", "pipe"],
      timeout: 60_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    closeSync(stdin);
    const out = result.output[3];
    const text = out === null || out === undefined ? "" : out.toString("utf8");
    const runs: string[][] = [];
    for (const item of text.split("\0")) {
      if (item === "\u0001") runs.push([]);
      else if (item !== "" && runs.length > 0) runs[runs.length - 1]?.push(item);
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const RESERVED = new Set(["for", "case", "select", "if", "while", "until", "function", "coproc", "time"]);

/** The words of a recorded command, as far as this needs them: quotes, `$(…)`, `${…}` and backquotes kept whole. */
function words(command: string): string[] {
  const out: string[] = [];
  let word = "";
  // What closes each open construct: a quote, `)` of `$(` or `(`, `}` of `${`.
  const open: string[] = [];
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    const top = open[open.length - 1];
    if (top === "'") {
      word += c;
      if (c === "'") open.pop();
      continue;
    }
    if (c === "\\") {
      word += c + (command[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === top && (c === '"' || c === "`" || c === ")" || c === "}")) open.pop();
    else if (c === "$" && command[i + 1] === "(") open.push(")");
    else if (c === "$" && command[i + 1] === "{") open.push("}");
    else if (c === "(" && open.length > 0 && top !== '"') open.push(")");
    else if ((c === "'" && top !== '"') || c === '"' || c === "`") open.push(c);
    else if (/\s/.test(c) && open.length === 0) {
      if (word !== "") out.push(word);
      word = "";
      continue;
    }
    word += c;
  }
  if (word !== "") out.push(word);
  return out;
}

/**
 * The program a recorded command starts, as bash will find it: the first word after any
 * assignments, with simple quoting removed; "" for assignments alone; null when it is only
 * known at run time.
 */
export function programOf(command: string): string | null {
  const trimmed = command.trimStart();
  if (trimmed.startsWith("((")) return "((";
  const ws = words(trimmed);
  const word = ws.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(w));
  if (word === undefined) return "";
  if (/^[<>]|^\d+[<>]/.test(word)) return "";
  if (/[$`*?[{]/.test(word.replace(/^\[\[?$/, ""))) return null;
  return word.replace(/\\(.)/g, "$1").replace(/'([^']*)'|"([^"]*)"/g, "$1$2");
}

export interface Coverage {
  /** Commands bash runs that the engine has no unit for. */
  missed: string[];
  /** The engine cannot read the command (unparsable) or a name is dynamic: it never allows it. */
  engineAsks: boolean;
}

/** Does the engine's analysis cover what bash records? */
export function coverage(units: readonly ShellUnit[], recorded: readonly string[]): Coverage {
  const engineAsks = units.some((u) => u.kind === "unparsable" || (u.kind === "exec" && u.dynamic !== null));
  const heads = new Set<string>();
  for (const u of units) {
    if (u.kind !== "exec") continue;
    const head = u.argv[0] ?? "";
    heads.add(head);
    heads.add(head.split("/").pop() ?? head);
    if (u.dynamic !== null && /not static/.test(u.dynamic)) heads.add("<dynamic>");
  }
  const missed: string[] = [];
  for (const command of recorded) {
    // After a bare `time` (`time # note` ends the line), bash runs the trap on the trap
    // function's own `return N`; that is the harness, not the script.
    if (/^return [012]$/.test(command) && !heads.has("return")) continue;
    const program = programOf(command);
    if (program === "" || (program !== null && RESERVED.has(program))) continue;
    if (program === null) {
      if (!heads.has("<dynamic>") && !engineAsks) missed.push(command);
      continue;
    }
    if (!heads.has(program) && !heads.has(program.split("/").pop() ?? program)) missed.push(command);
  }
  return { missed, engineAsks };
}
