// Runs a command in real bash, in a throwaway directory with a throwaway HOME, so a test can
// show what bash actually does with it (a harmless payload such as `touch PWNED` appears or not).
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface BashRun {
  /** The working directory bash ran in. */
  dir: string;
  home: string;
  status: number | null;
  stdout: string;
  stderr: string;
  /** A path relative to `dir` (or `~/…` in the throwaway HOME) exists after the run. */
  exists(path: string): boolean;
  /** Programs stubbed with `stubs` that bash started, each as `name arg…`. */
  calls: string[];
}

export interface BashSetup {
  /** Files to create first: relative to the working directory, or `~/…` in HOME. Values ending in `#!x` are executable. */
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** Program names to replace with stubs that record their arguments (for tools not installed here). */
  stubs?: string[];
  stdin?: string;
}

function place(root: string, dir: string, home: string, path: string): string {
  return path.startsWith("~/")
    ? join(home, path.slice(2))
    : path.startsWith("/")
      ? join(root, path)
      : join(dir, path);
}

export function runInBash(command: string, setup: BashSetup = {}): BashRun {
  const root = mkdtempSync(join(tmpdir(), "airlock-bash-"));
  const dir = join(root, "work");
  const home = join(root, "home");
  const bin = join(root, "bin");
  for (const d of [dir, home, bin]) mkdirSync(d, { recursive: true });
  for (const [path, content] of Object.entries(setup.files ?? {})) {
    const file = place(root, dir, home, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    if (content.startsWith("#!")) chmodSync(file, 0o755);
  }
  const log = join(root, "calls.log");
  for (const name of setup.stubs ?? []) {
    const stub = join(bin, name);
    writeFileSync(
      stub,
      `#!/bin/sh\nprintf '%s' "${name}" >> '${log}'\nfor a in "$@"; do printf ' %s' "$a" >> '${log}'; done\necho >> '${log}'\n`,
    );
    chmodSync(stub, 0o755);
  }
  // Standard input is a file, not a pipe: bash started on a socket acts as if run by sshd and
  // reads ~/.bashrc instead of BASH_ENV, which no agent's shell does.
  const stdinFile = join(root, "stdin");
  writeFileSync(stdinFile, setup.stdin ?? "");
  const stdin = openSync(stdinFile, "r");
  const result = spawnSync("bash", ["-c", command], {
    cwd: dir,
    stdio: [stdin, "pipe", "pipe"],
    env: {
      PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      LANG: "C.UTF-8",
      ...setup.env,
    },
    encoding: "utf8",
    timeout: 10_000,
  });
  closeSync(stdin);
  const calls = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  const run: BashRun = {
    dir,
    home,
    status: result.status,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    exists: (path) => existsSync(place(root, dir, home, path)),
    calls,
  };
  rmSyncLater(root);
  return run;
}

const roots: string[] = [];
function rmSyncLater(root: string): void {
  roots.push(root);
}

/** Removes every throwaway directory made so far (call from afterAll). */
export function cleanBashRuns(): void {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
}
