// A real workspace (a git repository) beside a fake home with secrets, holding the filesystem tricks
// issue 20 names: a bare repository whose config runs a program, a symlink and a hard link to secrets,
// a file holding a private key, dotenv files, and a link into .git/hooks.
import { execFileSync, spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { type DiskCheck, factLine } from "../../../../src/policy/call-facts.ts";
import type { CompiledPolicy } from "../../../../src/policy/compiled.ts";
import { compilePolicy } from "../../../../src/policy/index.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";

export const KEY =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";

export interface DiskFixture {
  base: string;
  ws: string;
  home: string;
  cleanup(): void;
}

/** Writes a file, making its directories. */
export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Runs git in `cwd` with a committer set (no global config needed); its trimmed output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();
}

/** The environment of git with neither the user's nor the system's configuration: a history test's own git. */
export const NO_CONFIG_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Runs git in `cwd` with a committer set under `NO_CONFIG_ENV`, its hints unshown; its trimmed output. */
export function plainGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], {
    cwd,
    encoding: "utf8",
    env: NO_CONFIG_ENV,
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A repository made at `dir` on main with README.md committed ("first"): where a history test starts. */
export function firstCommitRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  plainGit(dir, "init", "-q", "-b", "main", ".");
  writeFileSync(join(dir, "README.md"), "# r\n");
  plainGit(dir, "add", "-A");
  plainGit(dir, "commit", "-qm", "first");
  return dir;
}

/** Real git in `cwd` under `env` (a fake home's ~/.gitconfig as the user's) with this PATH; stdout, or throws stderr. */
export function gitWith(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], {
    cwd,
    env: { ...env, PATH: process.env.PATH },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

/** git-lfs's filter as `git lfs install` writes it into the user's configuration. */
export const LFS_FILTER =
  '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n';

export function diskFixture(): DiskFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-disk-")));
  const ws = join(base, "ws");
  const home = join(base, "home");
  write(join(home, ".ssh", "id_rsa"), KEY);
  write(join(home, ".aws", "credentials"), "aws_secret_access_key = AKIA-HOME\n");
  mkdirSync(ws);
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore" });
  git(ws, "init", "-q", ".");
  write(join(ws, "package.json"), "{}\n");
  write(join(ws, "src", "a.ts"), "export const foo = 1;\n");
  write(join(ws, "src", "env.ts"), "export const env = {};\n");
  write(join(ws, ".env"), "API_KEY=do-not-read\n");
  write(join(ws, "docker", "app.env"), "DB_PASSWORD=x\n");
  write(join(ws, "deploy.txt"), `notes\n${KEY}`);
  write(join(ws, ".gitignore"), "ignored/\n");
  write(join(ws, "ignored", "prod.env"), "X=1\n");
  mkdirSync(join(ws, "sub"));
  symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "docs-key.txt"));
  linkSync(join(home, ".aws", "credentials"), join(ws, "notes.txt"));
  symlinkSync(join(ws, ".git", "hooks", "pre-commit"), join(ws, "hook-link"));
  // A bare repository shipped in the workspace, whose configuration would run a program.
  git(ws, "init", "-q", "--bare", join("fixtures", "repo"));
  git(join(ws, "fixtures", "repo"), "config", "core.fsmonitor", "touch PWNED");
  return { base, ws, home, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface GitWorkspace {
  base: string;
  ws: string;
  home: string;
}

/**
 * A fresh temp directory holding `home` (with `homeFiles`) and `ws`, a git repository whose `files` are
 * committed: the everyday project the over-ask tests judge calls in.
 */
export function gitWorkspace(
  prefix: string,
  files: Record<string, string>,
  homeFiles: Record<string, string> = {},
): GitWorkspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const ws = join(base, "ws");
  const home = join(base, "home");
  for (const [rel, text] of Object.entries(homeFiles)) write(join(home, rel), text);
  mkdirSync(ws);
  git(ws, "init", "-q", ".");
  for (const [rel, text] of Object.entries(files)) write(join(ws, rel), text);
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "init");
  return { base, ws, home };
}

export interface HomeWorkspace {
  base: string;
  home: string;
  /** One call judged under `policy` (balanced unless named) from `cwd` (home unless named), home the workspace. */
  judge(
    tool: string,
    input: Record<string, unknown>,
    policy?: CompiledPolicy,
    cwd?: string,
  ): ReturnType<typeof judgeOnDisk>;
}

/**
 * The agent started in ~: a fresh `home` that is a git repository and the workspace, holding `files` (written a
 * byte per character, so a binary store's header keeps its bytes), judged with the disk as the companion reads
 * it with HOME there: the red team's credential-store rounds.
 */
export function homeWorkspace(prefix: string, files: Record<string, string>): HomeWorkspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  git(home, "init", "-q");
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), text, "latin1");
  }
  const disk = diskCheck({ env: { HOME: home } });
  return {
    base,
    home,
    judge: (tool, input, policy = BALANCED, cwd = home) =>
      judgeOnDisk(policy, { tool, input, cwd, workspace: home, home }, { disk }),
  };
}

/** The disk as the companion reads it, with no agent environment (no CDPATH). */
export const DISK = diskCheck({ env: {} });

/**
 * One call judged as the companion judges it: with `DISK` unless another disk (or `false`, none: the policy and the
 * words alone) is named, and with a person to ask unless `hasUI` is false. Its action, its facts as lines, its reasons,
 * and the risk the card shows.
 */
export function judgeOnDisk(
  policy: CompiledPolicy,
  call: ToolCall,
  opts: { disk?: DiskCheck | false; hasUI?: boolean } = {},
) {
  const j = judgeCall(
    policy,
    call,
    { hasUI: opts.hasUI ?? true },
    opts.disk === false ? undefined : (opts.disk ?? DISK),
  );
  return {
    action: j.record.action,
    why: j.facts.map(factLine).join("\n"),
    reasons: j.record.reasons,
    risk: j.record.risk,
  };
}

/** The red team's strict policy: reads in the workspace, and running scripts with `programs` (interpreters). */
export function runnersPolicy(programs: readonly string[]) {
  const c = compilePolicy([
    {
      layer: "user",
      path: "runners",
      text: `version: 1
default_action: ask
rules:
  - name: reads in the workspace
    condition: 'tool == "read" && path.startsWith(cwd + "/")'
    action: allow
  - name: runners
    condition: 'tool == "bash" && program in [${programs.map((p) => JSON.stringify(p)).join(", ")}]'
    action: allow
`,
    },
  ]);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  return c.policy;
}

/** A policy that allows what only reads: reads in the workspace and the read-only programs. */
export function readOnlyPolicy() {
  const c = compilePolicy([
    {
      layer: "user",
      path: "test policy",
      text: `version: 1
default_action: ask
rules:
  - name: recursive reads in the workspace
    condition: 'tool == "read" && recursive && path.startsWith(cwd + "/")'
    action: allow
  - name: reads in the workspace
    condition: 'tool in ["read", "grep", "find", "ls"] && (path == cwd || path.startsWith(cwd + "/"))'
    action: allow
  - name: read-only programs
    condition: 'tool == "bash" && program in ["cat", "grep", "rg", "ls", "git", "cd", "head", "diff", "echo"]'
    action: allow
  - name: writes in the workspace
    condition: 'tool in ["write", "edit"] && path.startsWith(cwd + "/")'
    action: allow
`,
    },
  ]);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  return c.policy;
}

/** The starters that allow without a person, by name. */
export const STARTERS = [
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;

/** A bash command's action in `ws` under each starter, named (a deny shown as `ask`: neither runs unasked). */
export function starterActions(command: string, ws: string, home: string): string[] {
  return STARTERS.map(([name, policy]) => {
    const r = judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: ws, workspace: ws, home });
    return `${name}: ${r.action === "deny" ? "ask" : r.action}`;
  });
}

/**
 * Points the companion's (and git's) user and system configuration at files of the test's own under `dir`:
 * `global` holds `globalText`, `system` is empty. Returns what puts the process's environment back.
 */
export function testGitConfig(dir: string, globalText: string): () => void {
  const saved = {
    GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL,
    GIT_CONFIG_SYSTEM: process.env.GIT_CONFIG_SYSTEM,
  };
  writeFileSync(join(dir, "global"), globalText);
  writeFileSync(join(dir, "system"), "");
  process.env.GIT_CONFIG_GLOBAL = join(dir, "global");
  process.env.GIT_CONFIG_SYSTEM = join(dir, "system");
  return () => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  };
}
