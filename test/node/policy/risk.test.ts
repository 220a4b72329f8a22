import { describe, expect, it } from "vitest";
import {
  classify,
  isSecretPath,
  redactText,
  SECRET_PATH_PATTERNS,
  scopeHash,
} from "../../../src/policy/index.ts";
import { CWD } from "./helpers.ts";

const COMMAND_LS_SHA256 = "b47665aa6bce345e78107363f261fdf0ed327508647c881024fba80ce8c06dc4";

const cls = (tool: string, input: Record<string, unknown>, declaredHosts?: string[]) =>
  classify({ tool, input, cwd: CWD }, declaredHosts ? { declaredHosts } : {});

describe("capability and risk (read-only low, workspace writes medium, the rest high)", () => {
  it.each([
    ["bash", { command: "ls" }, "exec", "low"],
    ["bash", { command: "git status" }, "exec", "low"],
    ["bash", { command: "mkdir -p build" }, "exec", "medium"],
    ["bash", { command: "rm -rf build" }, "exec", "high"],
    ["write", { path: "a.ts" }, "write", "medium"],
    ["edit", { path: "a.ts" }, "write", "medium"],
    ["write", { path: "/etc/hosts" }, "write", "high"],
    ["read", { path: "a.ts" }, "read", "low"],
    ["read", { path: "/etc/hosts" }, "read", "medium"],
    ["grep", { pattern: "x" }, "read", "low"],
    ["find", { pattern: "*.ts" }, "read", "low"],
    ["ls", {}, "read", "low"],
    ["webfetch", { url: "https://api.github.com/x" }, "http", "medium"],
    ["mcp__github__create_issue", { title: "x" }, "tool", "medium"],
    ["deploy.prod", {}, "tool", "medium"],
    ["session.get_messages", {}, "session", "low"],
    ["ui.confirm", {}, "ui", "low"],
  ] as const)("%s → %s/%s", (tool, input, capability, risk) => {
    const c = cls(tool, input, ["api.github.com"]);
    expect(c.capability).toBe(capability);
    expect(c.risk).toBe(risk);
    expect(c.justification.length).toBeGreaterThan(5);
  });
});

describe("escalators only raise risk", () => {
  it.each([
    ".env",
    ".env.local",
    "config/.npmrc",
    "id.pem",
    "server.key",
    "my-secret.txt",
    "api_token.json",
    "aws/credentials",
    "~/.ssh/id_rsa",
    "/home/u/.aws/config",
    ".docker/config.json",
    ".config/gh/hosts.yml",
    "secrets/db.yaml",
    "auth.json",
  ])("reading %s is high", (path) => {
    expect(cls("read", { path }).risk).toBe("high");
  });
  it("Claude Code's file_path is an alias of path", () => {
    expect(cls("read", { file_path: ".env" }).risk).toBe("high");
  });
  it.each(["src/index.ts", "README.md", ".env.example", "docs/tokenizer-notes.md"])(
    "reading %s is not escalated unless it matches",
    (path) => {
      const expected = /token/i.test(path) ? "high" : "low";
      expect(cls("read", { path }).risk).toBe(expected);
    },
  );
  it("a host outside the declared scope makes http high; a subdomain wildcard covers subdomains", () => {
    expect(cls("webfetch", { url: "https://evil.test/x" }, ["api.github.com"]).risk).toBe("high");
    expect(cls("webfetch", { url: "https://uploads.github.com/x" }, ["*.github.com"]).risk).toBe("medium");
    expect(cls("webfetch", { url: "https://github.com/x" }, []).risk).toBe("high");
  });
  it("a dynamic scope takes the higher level", () => {
    expect(cls("read", { path: 42 }).risk).toBe("high");
    expect(cls("read", { path: 42 }).scopes[0]).toEqual({
      kind: "path",
      summary: "<dynamic>",
      group: "<dynamic>",
    });
    expect(cls("webfetch", { url: "not a url" }).risk).toBe("high");
    expect(cls("session.", {}).risk).toBe("medium");
  });
  it("writes are medium in the workspace, high outside it or on files that decide what runs", () => {
    expect(cls("write", { path: "src/a.ts" }).risk).toBe("medium");
    expect(cls("write", { path: "../elsewhere/a.ts" }).risk).toBe("high");
    expect(cls("write", { path: ".git/hooks/pre-commit" }).risk).toBe("high");
    expect(cls("edit", { path: "~/.bashrc" }).risk).toBe("high");
  });
});

describe("secret-path denylist", () => {
  it("exposes the shared patterns", () => {
    expect(SECRET_PATH_PATTERNS).toContain(".ssh/");
    expect(SECRET_PATH_PATTERNS).toContain("*.pem");
  });
  it.each([
    [".env", true],
    ["a/b/.env.production", true],
    [".netrc", true],
    [".pypirc", true],
    ["cert.p12", true],
    ["x.pfx", true],
    ["models.json", true],
    ["credentials.json", true],
    ["/home/u/.kube/config", true],
    ["src/app.ts", false],
    ["environment.ts", false],
    [".env.example", false],
    ["keys.ts", false],
  ] as const)("%s → %s", (p, expected) => {
    expect(isSecretPath(p)).toBe(expected);
  });
});

describe("scopes", () => {
  it("read/write scopes are relative to cwd and grouped by top-level directory", () => {
    expect(cls("read", { path: `${CWD}/src/a/b.ts` }).scopes[0]).toEqual({
      kind: "path",
      summary: "src/a/b.ts",
      group: "src/**",
    });
    expect(cls("write", { path: "README.md" }).scopes[0]).toEqual({
      kind: "path",
      summary: "README.md",
      group: ".",
    });
    expect(cls("read", { path: "../other/x" }).scopes[0]).toEqual({
      kind: "path",
      summary: "/home/dev/other/x",
      group: "/home/**",
    });
  });
  it("http scopes show host and path, never the query", () => {
    const s = cls("webfetch", { url: "https://user:pw@api.x.test/v1/items?token=abc" }).scopes[0];
    expect(s).toEqual({
      kind: "host",
      summary: "GET https://api.x.test/v1/items?<redacted>",
      group: "api.x.test",
    });
  });
  it("exec scopes redact tokens and group by the first argv word", () => {
    const c = cls("bash", {
      command: "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 gh api /user --password hunter2",
    });
    expect(c.scopes[0]?.group).toBe("gh");
    expect(c.scopes[0]?.summary).not.toMatch(/ghp_|hunter2/);
  });
  it("an unparsable command's group is <dynamic>", () => {
    expect(cls("bash", { command: "echo 'x" }).scopes[0]?.group).toBe("<dynamic>");
  });
  it("scopeHash is the sha256 of kind:summary", () => {
    // sha256("command:ls"), computed independently with `printf 'command:ls' | sha256sum`.
    expect(scopeHash({ kind: "command", summary: "ls", group: "ls" })).toBe(COMMAND_LS_SHA256);
    // The group is presentation only; it is not part of the identity.
    expect(scopeHash({ kind: "command", summary: "ls", group: "other" })).toBe(COMMAND_LS_SHA256);
    expect(scopeHash({ kind: "command", summary: "ls", group: "ls" })).not.toBe(
      scopeHash({ kind: "path", summary: "ls", group: "ls" }),
    );
  });
});

describe("redaction", () => {
  it.each([
    ["curl -H 'Authorization: Bearer sk-abcdefghijklmnop1234'", "sk-abcdefghijklmnop1234"],
    ["mysql --password=hunter2 db", "hunter2"],
    ["AWS_SECRET_ACCESS_KEY=abc123xyz aws s3 ls", "abc123xyz"],
    ["git clone https://bob:s3cret@github.com/x/y", "s3cret"],
    ["echo AKIAABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOP"],
    ["use alk_tok123.secretpart", "secretpart"],
  ])("%s hides %s", (text, secret) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain("<redacted>");
  });
});
