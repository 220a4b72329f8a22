// Class: the secret denylist and the protected-write list, as tables: each entry matches where
// it should and not where it should not, and a policy that allows writes in the project still
// asks before a write of a file that decides what runs.
import { describe, expect, it } from "vitest";
import {
  DENYLIST_PATTERNS,
  isDenylistedPath,
  isProtectedWritePath,
  PROTECTED_WRITE_PATTERNS,
} from "../../../../src/policy/index.ts";
import { compile, user } from "../helpers.ts";
import { judge } from "./policies.ts";

describe("the secret denylist", () => {
  it.each([
    ".env",
    "config/.env.production",
    ".git-credentials",
    ".pgpass",
    "/home/dev/.ssh/id_rsa",
    "keys/id_ed25519.pub",
    "terraform.tfstate.backup",
    "prod.tfvars",
    ".vault-token",
    "/home/dev/.config/gcloud/credentials.db",
    "/home/dev/.azure/accessTokens.json",
    "/home/dev/.kube/config",
    "/home/dev/.airlock/credentials.json",
    ".git/config",
    "sub/.git/config",
    "/proc/self/environ",
    "/proc/1/environ",
    "/home/dev/.bash_history",
    ".python_history",
    ".psql_history",
  ])("%s is a secret", (path) => {
    expect(isDenylistedPath(path)).toBe(true);
  });
  it.each([
    ".env.example",
    "src/auth/credentials.ts",
    "README.md",
    ".git/HEAD",
    ".gitconfig.md",
    "docs/history.md",
    "src/environment.ts",
  ])("%s is not", (path) => {
    expect(isDenylistedPath(path)).toBe(false);
  });
  it("every pattern is a name, a glob, a directory or a path suffix", () => {
    // A space only inside a name some program uses (Chromium's `Login Data`, `Bitwarden CLI/`, round 16).
    for (const p of DENYLIST_PATTERNS) expect(p).toMatch(/^[A-Za-z0-9._*/-]+( [A-Za-z0-9._*/-]+)*$/);
  });
});

describe("files that decide what runs", () => {
  it.each([
    ".git/hooks/pre-commit",
    ".git/config",
    "/home/dev/.bashrc",
    "/home/dev/.zshrc",
    ".envrc",
    ".vscode/tasks.json",
    ".claude/settings.json",
    ".mcp.json",
    ".cursor/mcp.json",
    ".gemini/settings.json",
    ".devcontainer/devcontainer.json",
    ".husky/pre-commit",
    ".githooks/pre-push",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
    ".cargo/config.toml",
    // Red team, round 5: OpenCode's configuration starts MCP servers and loads plugins; pre-commit runs
    // a repository's local hooks on the next commit.
    "opencode.json",
    "opencode.jsonc",
    ".opencode/opencode.json",
    ".opencode/plugin/x.ts",
    ".pre-commit-config.yaml",
    // Red team, round 7: a `.git` file (`gitdir: DIR`) makes DIR this directory's repository.
    ".git",
    "sub/.git",
    "fixtures/HEAD",
    "fixtures/commondir",
    // Red team, round 10: other tools' configuration that runs code.
    ".hg/hgrc",
    "sub/.hg/hgrc",
    ".idea/workspace.xml",
    ".mise.toml",
    "mise.toml",
    ".mise/tasks/build",
    ".tool-versions",
    ".lfsconfig",
  ])("%s is protected", (path) => {
    expect(isProtectedWritePath(path)).toBe(true);
  });
  it.each(["src/a.ts", "package.json", "README.md", "CLAUDE.md", ".github/workflows/ci.yml", "Cargo.toml"])(
    "%s is an ordinary file",
    (path) => {
      expect(isProtectedWritePath(path)).toBe(false);
    },
  );
  // `*` stands for a name part, as in the denylist (`mise.*.toml`: mise's per-environment files).
  it("every pattern is a name, a directory or a path suffix (a `*` in a name: `.lintstagedrc*`)", () => {
    for (const p of PROTECTED_WRITE_PATTERNS) expect(p).toMatch(/^[A-Za-z0-9._*/*-]+$/);
  });

  const WRITES = compile(
    user(`
default_action: ask
rules:
  - name: writes in the project
    condition: 'tool == "write" && path.startsWith(cwd + "/")'
    action: allow
  - name: printing and copying
    condition: 'tool == "bash" && program in ["echo", "printf", "tee", "sed", "cp"]'
    action: allow
  - name: reads in the project
    condition: 'tool == "read" && path.startsWith(cwd + "/")'
    action: allow
`),
  );
  it.each([
    "echo 'touch PWNED' > .husky/pre-commit",
    "printf x >> .mcp.json",
    "tee .cursor/mcp.json < /dev/null",
    "cp README.md .devcontainer/devcontainer.json",
    "sed -i s/a/b/ .cargo/config.toml",
    "echo x > .git/hooks/post-checkout",
    "echo x > .yarnrc.yml",
    "echo '{}' > opencode.json",
    "cp README.md .pre-commit-config.yaml",
  ])("%s asks even where project writes are allowed", (command) => {
    const r = judge(WRITES, command);
    expect(r.action, r.reasons.join("\n")).toBe("ask");
    expect(r.risk).toBe("high");
  });
  // A login shell (Codex runs every call as `bash -lc CMD`) sources these before the call and
  // ~/.bash_logout after an `exit`: no call may write them unasked, whatever a rule allows.
  const LOGIN_FILES = [
    "/etc/profile",
    "/etc/profile.d/x.sh",
    "/etc/bash.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.profile",
    "~/.bashrc",
    "~/.bash_logout",
    "~/.bash_aliases",
  ];
  it.each(LOGIN_FILES)("a login shell's start-up file %s is protected", (path) => {
    expect(isProtectedWritePath(path.replace("~", "/home/dev"))).toBe(true);
  });
  it.each(
    LOGIN_FILES.flatMap((f) => [
      `echo 'touch PWNED' >> ${f}`,
      `printf x > ${f}`,
      `tee -a ${f} < README.md`,
      `cp README.md ${f}`,
      `sed -i s/a/b/ ${f}`,
    ]),
  )("%s never allows, even where every write is allowed", (command) => {
    const ALL_WRITES = compile(
      user(`
default_action: ask
rules:
  - name: any write
    condition: 'tool == "write" || (tool == "bash" && program in ["echo", "printf", "tee", "sed", "cp"])'
    action: allow
`),
    );
    expect(judge(ALL_WRITES, command).action, command).not.toBe("allow");
    expect(judge(ALL_WRITES, command, false).action, command).toBe("deny");
  });

  it("an ordinary write in the project stays allowed, at medium risk", () => {
    const r = judge(WRITES, "echo x > notes.txt");
    expect(r.action).toBe("allow");
    expect(r.risk).toBe("medium");
  });
});
