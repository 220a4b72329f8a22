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
    for (const p of DENYLIST_PATTERNS) expect(p).toMatch(/^[A-Za-z0-9._*/-]+$/);
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
  ])("%s is protected", (path) => {
    expect(isProtectedWritePath(path)).toBe(true);
  });
  it.each(["src/a.ts", "package.json", "README.md", "CLAUDE.md", ".github/workflows/ci.yml", "Cargo.toml"])(
    "%s is an ordinary file",
    (path) => {
      expect(isProtectedWritePath(path)).toBe(false);
    },
  );
  it("every pattern is a name, a directory or a path suffix", () => {
    for (const p of PROTECTED_WRITE_PATTERNS) expect(p).toMatch(/^[A-Za-z0-9._/-]+$/);
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
  it("an ordinary write in the project stays allowed, at medium risk", () => {
    const r = judge(WRITES, "echo x > notes.txt");
    expect(r.action).toBe("allow");
    expect(r.risk).toBe("medium");
  });
});
