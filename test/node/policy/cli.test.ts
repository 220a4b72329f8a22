// The policy commands end to end through the CLI entry, on temporary homes and repositories.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CommandIo } from "../../../src/companion/cli/command.ts";
import { main } from "../../../src/companion/cli.ts";
import { discoverPolicyFiles, loadPolicySources } from "../../../src/companion/local-policy/files.ts";

function sandbox() {
  const root = mkdtempSync(join(tmpdir(), "airlock-policy-"));
  const home = join(root, "home");
  const repo = join(root, "repo");
  mkdirSync(join(home, ".airlock"), { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, ".airlock"), { recursive: true });
  mkdirSync(join(repo, "src", "deep"), { recursive: true });
  const env = { HOME: home, AIRLOCK_HOME: join(home, ".airlock") };
  const run = async (args: string[], cwd = repo) => {
    let out = "";
    let err = "";
    const io: CommandIo = {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
      readStdin: async () => "",
      env,
      cwd,
    };
    const code = await main(args, io);
    return { code, out, err };
  };
  return { root, home, repo, env, run };
}

const USER = `
default_action: ask
rules:
  - name: Bash
    condition: tool == "bash"
    rules:
      - name: git
        condition: command.startsWith("git ")
        action: allow
      - default: confirm
`;
const PROJECT = `
rules:
  - name: Bash
    condition: tool == "bash"
    rules:
      - name: npm test
        condition: command == "npm test"
        action: allow
      - name: no curl
        condition: command.startsWith("curl ")
        action: block
`;

describe("layer discovery", () => {
  it("finds agent, pi.hitl and airlock files lowest first, the repo from a subdirectory", () => {
    const s = sandbox();
    mkdirSync(join(s.home, ".agents"), { recursive: true });
    mkdirSync(join(s.home, ".pi", "agent"), { recursive: true });
    mkdirSync(join(s.repo, ".pi"), { recursive: true });
    writeFileSync(join(s.home, ".agents", "permissions.yaml"), "version: 1\n");
    writeFileSync(join(s.home, ".pi", "agent", "permissions.yml"), "version: 1\n");
    writeFileSync(join(s.home, ".airlock", "permissions.json"), "{}\n");
    writeFileSync(join(s.repo, ".pi", "permissions.yaml"), "version: 1\n");
    writeFileSync(join(s.repo, ".airlock", "permissions.yaml"), "version: 1\n");
    const files = discoverPolicyFiles(join(s.repo, "src", "deep"), s.env);
    expect(files.map((f) => [f.layer, f.path.slice(s.root.length)])).toEqual([
      ["agent", "/home/.agents/permissions.yaml"],
      ["user", "/home/.pi/agent/permissions.yml"],
      ["user", "/home/.airlock/permissions.json"],
      ["project", "/repo/.pi/permissions.yaml"],
      ["project", "/repo/.airlock/permissions.yaml"],
    ]);
    expect(loadPolicySources(s.repo, s.env).find((x) => x.layer === "project")?.trusted).toBe(false);
  });
});

describe("airlock policy explain and trust", () => {
  it("an untrusted project cannot extend the user's allowlist until trusted; trust is pinned to content", async () => {
    const s = sandbox();
    writeFileSync(join(s.home, ".airlock", "permissions.yaml"), USER);
    writeFileSync(join(s.repo, ".airlock", "permissions.yaml"), PROJECT);
    const explain = (command: string) =>
      s.run(["policy", "explain", "--tool", "bash", "--input", JSON.stringify({ command }), "--json"]);

    let r = await explain("npm test");
    expect(JSON.parse(r.out).action).toBe("ask");
    expect((await explain("curl https://x.test")).code).toBe(1);

    const t = await s.run(["trust"]);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/trusted .*permissions\.yaml {2}sha256 [0-9a-f]{64}/);
    expect(statSync(join(s.home, ".airlock", "trusted.json")).mode & 0o777).toBe(0o600);

    r = await explain("npm test");
    expect(JSON.parse(r.out)).toMatchObject({ action: "allow", layer: "project", rule: "Bash > npm test" });
    expect(r.code).toBe(0);

    writeFileSync(join(s.repo, ".airlock", "permissions.yaml"), `${PROJECT}\n# edited\n`);
    expect(JSON.parse((await explain("npm test")).out).action).toBe("ask");
  });

  it("--config uses only the given files, with layer prefixes; --no-ui turns ask into deny", async () => {
    const s = sandbox();
    const u = join(s.root, "u.yaml");
    const p = join(s.root, "p.yaml");
    writeFileSync(u, USER);
    writeFileSync(p, PROJECT);
    const args = [
      "policy",
      "explain",
      "--tool",
      "bash",
      "--input",
      '{"command":"npm test"}',
      "--config",
      u,
      "--config",
      `trusted-project:${p}`,
    ];
    const r = await s.run(args);
    expect(r.out).toMatch(/^action: {5}allow$/m);
    expect(r.out).toMatch(/^rule: {7}Bash > npm test$/m);
    const headless = await s.run([
      "policy",
      "explain",
      "--tool",
      "bash",
      "--input",
      '{"command":"make"}',
      "--config",
      u,
      "--no-ui",
    ]);
    expect(headless.out).toMatch(/^action: {5}deny$/m);
    expect(headless.code).toBe(1);
  });

  it("a bad config is a load error naming file, rule and line, exit 3", async () => {
    const s = sandbox();
    writeFileSync(
      join(s.repo, ".airlock", "permissions.yaml"),
      "rules:\n  - name: oops\n    condition: 'tool =='\n    action: deny\n",
    );
    const r = await s.run(["policy", "explain", "--tool", "read", "--input", '{"path":"a"}']);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/permissions\.yaml:3:\d+: rule "oops": bad condition/);
    const lint = await s.run(["policy", "lint"]);
    expect(lint.code).toBe(1);
    expect(lint.out).toMatch(/rule "oops"/);
  });

  it("lint reports schema, CEL and pattern problems of a file in one pass, each with its line and column", async () => {
    const s = sandbox();
    const file = join(s.root, "strict.yaml");
    writeFileSync(
      file,
      [
        "default_action: maybe",
        "rules:",
        "  - name: shells",
        '    condition: command.matches("^(bash|sh)( -[a-z]+)*$") && command.matches("(?!x)y")',
        "    action: deny",
        "  - name: refs",
        "    condition: 'path.matches(\"(a)\\\\1\") || tool =='",
        "    action: ask",
        "  - name: back",
        '    condition: command.matches("(?<=a)b")',
        "    action: deny",
      ].join("\n"),
    );
    const lint = await s.run(["policy", "lint", file]);
    expect(lint.code).toBe(1);
    const lines = lint.out.trim().split("\n");
    expect(lines.at(-1)).toBe("4 problems");
    expect(lines[0]).toMatch(/strict\.yaml:1:\d+: .*default_action/);
    // The first pattern of "shells" is fine; the second is refused at its own column.
    expect(lines[1]).toMatch(/strict\.yaml:4:78: rule "shells": .*lookahead/);
    expect(lines[2]).toMatch(/strict\.yaml:7:\d+: rule "refs": bad condition/);
    expect(lines[3]).toMatch(/strict\.yaml:10:\d+: rule "back": .*lookbehind/);
  });

  it("bad arguments exit 2", async () => {
    const s = sandbox();
    expect((await s.run(["policy", "explain", "--input", "{}"])).code).toBe(2);
    expect((await s.run(["policy", "explain", "--tool", "read", "--input", "not json"])).code).toBe(2);
  });
});

describe("airlock policy test", () => {
  it("prints each mismatch and exits 1; all passing exits 0", async () => {
    const s = sandbox();
    writeFileSync(join(s.root, "user.yaml"), USER);
    const scenario = (cases: string) => `configs:\n  - path: user.yaml\n    layer: user\ncases:\n${cases}`;
    writeFileSync(
      join(s.root, "ok.yaml"),
      scenario(`  - {tool: bash, input: {command: "git status"}, expected: allow, expected_rule: "Bash > git"}
  - {tool: bash, input: {command: "make"}, has_ui: false, expected: deny}
  - {tool: read, input: {path: x}, expected: ask, expected_rule: null}
`),
    );
    writeFileSync(
      join(s.root, "bad.yaml"),
      scenario(`  - {name: wrong, tool: bash, input: {command: "make"}, expected: allow}\n`),
    );
    const ok = await s.run(["policy", "test", join(s.root, "ok.yaml")]);
    expect(ok.out).toMatch(/3\/3 cases passed/);
    expect(ok.code).toBe(0);
    const bad = await s.run(["policy", "test", join(s.root, "ok.yaml"), join(s.root, "bad.yaml")]);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/MISMATCH .*bad\.yaml: case 1 \(wrong\): expected allow, got ask/);
    expect(bad.out).toMatch(/3\/4 cases passed/);
  });
});

describe("airlock policy import claude-code", () => {
  it("translates allow/ask/deny keeping deny > ask > allow, and the result behaves like Claude Code", async () => {
    const s = sandbox();
    mkdirSync(join(s.repo, ".claude"), { recursive: true });
    const settings = join(s.repo, ".claude", "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({
        permissions: {
          allow: [
            "Bash(npm run test:*)",
            "Read(src/**)",
            "Edit(src/**)",
            "WebFetch(domain:example.com)",
            "Bash(git push:*)",
          ],
          ask: ["Bash(git push:*)"],
          deny: ["Read(./.env)", "Bash(curl:*)"],
        },
      }),
    );
    const out = join(s.root, "imported.yaml");
    const r = await s.run(["policy", "import", "claude-code", settings, "--out", out]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text.indexOf("Claude Code deny")).toBeLessThan(text.indexOf("Claude Code ask"));
    expect(text.indexOf("Claude Code ask")).toBeLessThan(text.indexOf("Claude Code allow"));
    const explain = async (tool: string, input: object) =>
      JSON.parse(
        (
          await s.run([
            "policy",
            "explain",
            "--tool",
            tool,
            "--input",
            JSON.stringify(input),
            "--config",
            out,
            "--json",
          ])
        ).out,
      ).action;
    // Claude Code's `:*` is " *": a word boundary, so `test:unit` is another script.
    expect(await explain("bash", { command: "npm run test -- --watch" })).toBe("allow");
    expect(await explain("bash", { command: "npm run test" })).toBe("allow");
    expect(await explain("bash", { command: "npm run test:unit" })).toBe("ask");
    expect(await explain("bash", { command: "git push origin" })).toBe("ask"); // ask beats the allow
    expect(await explain("bash", { command: "npm run test && curl https://x.test" })).toBe("deny");
    expect(await explain("read", { path: ".env" })).toBe("deny");
    expect(await explain("read", { path: "src/a.ts" })).toBe("allow");
    expect(await explain("write", { path: "src/a.ts" })).toBe("allow");
    expect(await explain("write", { path: "package.json" })).toBe("ask");
    expect(await explain("webfetch", { url: "https://example.com/x" })).toBe("allow");
    expect(await explain("webfetch", { url: "https://example.com.evil.test/x" })).toBe("ask");
  });

  it("widens a deny it cannot express to the whole tool, with a warning, and translates the rest", async () => {
    const s = sandbox();
    const settings = join(s.root, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({
        permissions: { deny: ["WebFetch(example.com)", "Bash(rm *)"], allow: ["Skill(update-config)"] },
      }),
    );
    const r = await s.run(["policy", "import", "claude-code", settings]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning: deny WebFetch\(example\.com\): .*widened to every WebFetch/);
    expect(r.err).toMatch(/warning: allow Skill\(update-config\): .*dropped/);
    expect(r.out).toContain("# warning: deny WebFetch(example.com)");
    expect(r.out).toContain("name: Bash(rm *)");
  });
});
