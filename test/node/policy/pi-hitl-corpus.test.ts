// pi.hitl-style configs load unchanged and judge as their authors meant: one test per corpus file
// (loads on its own, as any layer), then the cases each author wrote the file for.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compilePolicy, type PolicySource } from "../../../src/policy/index.ts";
import { CWD, call } from "./helpers.ts";

const DIR = fileURLToPath(new URL("./pi-hitl-corpus/", import.meta.url));
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

type Layer = "agent" | "user" | "project" | "trusted-project" | "account";
interface Case {
  tool: string;
  input: Record<string, unknown>;
  action: "allow" | "ask" | "deny" | "hidden";
  rule?: string | null;
  hasUI?: boolean;
}

const bash = (command: string) => ({ tool: "bash", input: { command } });
const read = (path: string) => ({ tool: "read", input: { path } });

/** Which files make up each policy (lowest layer first), and what the author meant it to decide. */
const POLICIES: Record<string, { layers: [Layer, string][]; cases: Case[] }> = {
  "strict shell (issue 30)": {
    layers: [["user", "strict-shell.yaml"]],
    cases: [
      { ...bash("bash"), action: "deny", rule: "Bash > bare shells" },
      { ...bash("zsh -i -l"), action: "deny", rule: "Bash > bare shells" },
      { ...bash("sh -"), action: "deny", rule: "Bash > bare shells" },
      { ...bash("bash deploy.sh"), action: "ask" },
      { ...bash("rm -rf /"), action: "deny", rule: "Bash > destructive" },
      { ...bash("dd if=/dev/zero of=/dev/sda"), action: "deny", rule: "Bash > destructive" },
      { ...bash("ls -la src"), action: "allow", rule: "Bash > read-only tools" },
      { ...bash("git log --oneline"), action: "allow", rule: "Bash > read-only git" },
      { ...bash("git push"), action: "ask", rule: "Bash > Default" },
      { ...read(`${CWD}/README.md`), action: "allow", rule: "Project files" },
    ],
  },
  "seed layers: agent baseline, user extension": {
    layers: [
      ["agent", "seed-layers-agent.yaml"],
      ["user", "seed-layers-user.yaml"],
    ],
    cases: [
      { ...bash("git status"), action: "allow", rule: "Bash > git reads" },
      // The user's children join the agent's group ahead of its catch-all block.
      { ...bash("npm run test:unit"), action: "allow", rule: "Bash > builds" },
      { ...bash("make"), action: "ask", rule: "Bash > make" },
      { ...bash("curl https://example.com"), action: "deny", rule: "Bash > Default" },
      { ...read(`${CWD}/a.ts`), action: "ask", rule: null },
    ],
  },
  "seed review session": {
    layers: [["user", "seed-review-session.yaml"]],
    cases: [
      { tool: "write", input: { path: `${CWD}/a.ts`, content: "x" }, action: "hidden" },
      { tool: "edit", input: { path: `${CWD}/a.ts`, oldText: "a", newText: "b" }, action: "hidden" },
      { ...bash("git push origin main"), action: "deny", rule: "no pushes" },
      { ...read(`${CWD}/src/a.ts`), action: "allow", rule: null },
      { ...read("/etc/hosts"), action: "deny", rule: "stay in the project" },
      // Non-interactive: default_action allow runs without a dialog, block rules still hold.
      { ...bash("git commit -m x"), action: "deny", rule: "no pushes", hasUI: false },
    ],
  },
  "seed sandbox": {
    layers: [["user", "seed-sandbox.yaml"]],
    cases: [
      { ...read(`${CWD}/src/index.ts`), action: "allow", rule: "Sandbox" },
      { ...read(`${CWD}/.env.local`), action: "deny", rule: "secrets" },
      { ...read(`${CWD}/certs/server.pem`), action: "deny", rule: "secrets" },
      { ...read("/home/dev/other/x.ts"), action: "deny", rule: null },
      { ...bash("make"), action: "ask", rule: "Bash" },
    ],
  },
  "docs reference": {
    layers: [["user", "docs-reference.yaml"]],
    cases: [
      { ...bash("rm -rf build"), action: "deny", rule: "Bash > no rm" },
      { ...bash("git diff"), action: "allow", rule: "Bash > read-only git" },
      { ...bash("make"), action: "ask", rule: "Bash > Default" },
      { tool: "write", input: { path: `${CWD}/a.ts`, content: "x" }, action: "hidden" },
      { ...read(`${CWD}/a.ts`), action: "allow", rule: "Files in the project" },
    ],
  },
  "docs read-only allowlist": {
    layers: [["user", "docs-read-only-allowlist.yaml"]],
    cases: [
      { ...bash("cat src/a.ts"), action: "allow", rule: "read-only commands" },
      { ...bash("git blame src/a.ts"), action: "allow", rule: "read-only git" },
      { ...bash("sort -o out.txt in.txt"), action: "ask" },
      { ...bash("cat .env"), action: "ask" },
    ],
  },
  "docs layers (a)": {
    layers: [
      ["user", "docs-layers-user.yaml"],
      ["project", "docs-layers-project.yaml"],
    ],
    cases: [
      { ...bash("curl x"), action: "deny", rule: "Bash > no curl" },
      { ...bash("docker ps"), action: "deny", rule: "Bash > no docker" },
      { ...bash("make"), action: "ask", rule: "Bash > Default" },
    ],
  },
  "nested groups": {
    layers: [["user", "nested-groups.yaml"]],
    cases: [
      { ...bash("git push --force origin main"), action: "deny", rule: "Bash > Git > Remote > force" },
      {
        ...bash("git push -u --force-with-lease origin x"),
        action: "deny",
        rule: "Bash > Git > Remote > force",
      },
      { ...bash("git push origin main"), action: "ask", rule: "Bash > Git > Remote > Default" },
      { ...bash("git commit -m wip"), action: "ask", rule: "Bash > Git > Local writes" },
      { ...bash("git status"), action: "allow", rule: "Bash > Git > reads" },
      { ...bash("git gc"), action: "deny", rule: "Bash > Git > Default" },
      { ...bash("npm test"), action: "allow", rule: "Bash > Node > scripts" },
      { ...bash("npm install left-pad"), action: "ask", rule: "Bash > Node > installs" },
      { ...bash("make"), action: "deny", rule: null },
    ],
  },
  "long alternation": {
    layers: [["user", "long-alternation.yaml"]],
    cases: [
      { ...bash("uname -a"), action: "allow", rule: "read-only programs" },
      { ...bash("git ls-files src"), action: "allow", rule: "read-only programs" },
      // The rule matches, but kubectl has no grammar: a unit Airlock does not understand is never allowed (issue 20).
      { ...bash("kubectl get pods"), action: "ask", rule: "read-only programs" },
      { ...bash("kubectl delete pod x"), action: "ask", rule: "everything else in bash" },
      { ...bash("lsblk"), action: "ask", rule: "everything else in bash" },
    ],
  },
  "args patterns": {
    layers: [["user", "args-patterns.yaml"]],
    cases: [
      {
        tool: "webfetch",
        input: { url: "https://docs.python.org/3/" },
        action: "allow",
        rule: "web > docs hosts",
      },
      {
        tool: "webfetch",
        input: { url: "https://api.github.com/repos" },
        action: "allow",
        rule: "web > docs hosts",
      },
      {
        tool: "webfetch",
        input: { url: "https://github.com.evil.io/" },
        action: "ask",
        rule: "web > Default",
      },
      { tool: "webfetch", input: { url: "http://example.com/" }, action: "deny", rule: "web > plain http" },
      { tool: "mcp__github__create_issue", input: {}, action: "ask", rule: "MCP issue tools" },
      { tool: "mcp__linear__list_issues", input: {}, action: "allow", rule: "MCP reads" },
      { ...bash("curl -s -d @report.json https://x.io/up"), action: "deny", rule: "curl uploads" },
      { ...bash("ls && curl -sS -F f=@a.txt https://x.io"), action: "deny", rule: "curl uploads" },
      { ...bash("curl -s https://x.io"), action: "ask", rule: null },
    ],
  },
};

function sourceOf(layer: Layer, file: string): PolicySource {
  const text = readFileSync(`${DIR}${file}`, "utf8");
  if (layer === "trusted-project") return { layer: "project", path: file, text, trusted: true };
  if (layer === "project") return { layer: "project", path: file, text, trusted: false };
  return { layer, path: file, text };
}

describe("pi.hitl corpus: every file loads unchanged", () => {
  it.each(FILES)("%s loads as a user layer and as the account layer", (file) => {
    for (const layer of ["user", "account"] as const) {
      const result = compilePolicy([sourceOf(layer, file)]);
      expect(result.ok ? [] : result.errors).toEqual([]);
    }
  });

  it("every corpus file is judged by some policy below", () => {
    const used = new Set(Object.values(POLICIES).flatMap((p) => p.layers.map(([, f]) => f)));
    expect(FILES.filter((f) => !used.has(f))).toEqual([]);
  });
});

describe.each(Object.entries(POLICIES))("pi.hitl corpus: %s judges as its author meant", (_name, entry) => {
  const result = compilePolicy(entry.layers.map(([layer, file]) => sourceOf(layer, file)));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const policy = result.policy;
  it.each(entry.cases)("$tool $input → $action", (c) => {
    const record = call(policy, c.tool, c.input, c.hasUI ?? true);
    expect(record.action, record.reasons.join("; ")).toBe(c.action);
    if (c.rule !== undefined) expect(record.rule).toBe(c.rule);
  });
});
