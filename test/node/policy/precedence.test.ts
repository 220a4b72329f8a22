import { describe, expect, it } from "vitest";
import { decide } from "../../../src/policy/index.ts";
import { ALLOWLIST, account, agent, bash, CWD, call, compile, project, user } from "./helpers.ts";

const USER_BASH_GROUP = `
default_action: ask
rules:
  - name: Bash
    condition: tool == "bash"
    rules:
      - name: git status
        condition: command == "git status"
        action: allow
      - name: no curl
        condition: command.startsWith("curl ")
        action: deny
      - default: confirm
`;

describe("merging groups across layers", () => {
  it("(b) a trusted project extends a global bash allowlist before the group's catch-all", () => {
    const projectText = `
rules:
  - name: Bash
    condition: tool == "bash"
    rules:
      - name: npm test
        condition: command == "npm test"
        action: allow
`;
    const policy = compile(user(USER_BASH_GROUP), project(projectText, true));
    expect(policy.local.rules.map((r) => r.name)).toEqual([
      "Bash > git status",
      "Bash > no curl",
      "Bash > npm test",
      "Bash > Default",
    ]);
    expect(bash(policy, "npm test")).toMatchObject({
      action: "allow",
      layer: "project",
      rule: "Bash > npm test",
    });
    expect(bash(policy, "git status").action).toBe("allow");
    expect(bash(policy, "make").action).toBe("ask");
  });

  it("groups merge only when both name and condition are equal", () => {
    const projectText = `
rules:
  - name: Bash
    condition: tool == "bash" && cwd != ""
    rules:
      - name: npm test
        condition: command == "npm test"
        action: allow
`;
    const policy = compile(user(USER_BASH_GROUP), project(projectText, true));
    // Appended after the user's group, whose catch-all answers first.
    expect(policy.local.rules.at(-1)?.name).toBe("Bash > npm test");
    expect(bash(policy, "npm test").action).toBe("ask");
  });

  it("agent defaults come first, as pi.hitl loads them", () => {
    const policy = compile(
      agent(`rules:\n  - name: no bash\n    condition: tool == "bash"\n    action: block\n`),
      user(`rules:\n  - name: allow ls\n    condition: command == "ls"\n    action: allow\n`),
    );
    expect(bash(policy, "ls")).toMatchObject({ action: "deny", layer: "agent", rule: "no bash" });
  });

  it("hidden_tools are concatenated across layers", () => {
    const policy = compile(user("hidden_tools: [write]\n"), project("hidden_tools: [edit, write]\n"));
    expect(call(policy, "write", { path: "a" }).action).toBe("hidden");
    expect(call(policy, "edit", { path: "a" })).toMatchObject({ action: "hidden", layer: "project" });
  });
});

describe("(a) an untrusted project config cannot loosen", () => {
  const loosen = `
default_action: allow
headless_ask: allow
rules:
  - name: Bash
    condition: tool == "bash"
    rules:
      - name: curl ok
        condition: command.startsWith("curl ")
        action: allow
      - name: make ok
        condition: command == "make"
        action: allow
  - name: everything
    condition: "true"
    action: allow
`;
  const cases: {
    what: string;
    run: (p: ReturnType<typeof compile>) => string;
    untrusted: string;
    trusted: string;
  }[] = [
    {
      what: "a user deny",
      run: (p) => bash(p, "curl https://x.test").action,
      untrusted: "deny",
      trusted: "deny",
    },
    { what: "a user catch-all ask", run: (p) => bash(p, "make").action, untrusted: "ask", trusted: "allow" },
    {
      what: "the user's default_action",
      run: (p) => call(p, "mcp__x", {}).action,
      untrusted: "ask",
      trusted: "allow",
    },
    {
      what: "headless ask → deny",
      run: (p) => bash(p, "make", false).action,
      untrusted: "deny",
      trusted: "allow",
    },
  ];
  for (const c of cases) {
    it(`cannot loosen ${c.what} unless trusted`, () => {
      expect(c.run(compile(user(USER_BASH_GROUP), project(loosen, false)))).toBe(c.untrusted);
      expect(c.run(compile(user(USER_BASH_GROUP), project(loosen, true)))).toBe(c.trusted);
    });
  }

  it("records the allow rules it ignored", () => {
    const policy = compile(user(USER_BASH_GROUP), project(loosen, false));
    expect(policy.sources.find((s) => s.layer === "project")?.ignoredAllowRules).toEqual([
      "Bash > curl ok",
      "Bash > make ok",
      "everything",
    ]);
  });

  it("may still add deny, ask and hidden rules", () => {
    const policy = compile(
      user(`default_action: allow\n`),
      project(
        `
hidden_tools: [webfetch]
rules:
  - name: no push
    condition: command.startsWith("git push")
    action: deny
  - name: ask make
    condition: command == "make"
    action: ask
  - name: hide docker
    condition: command.startsWith("docker ")
    action: hidden
`,
        false,
      ),
    );
    expect(bash(policy, "git push origin main")).toMatchObject({ action: "deny", layer: "project" });
    expect(bash(policy, "make").action).toBe("ask");
    expect(bash(policy, "docker ps").action).toBe("hidden");
    expect(call(policy, "webfetch", { url: "https://x.test" }).action).toBe("hidden");
    expect(bash(policy, "ls").action).toBe("allow");
  });

  it("an untrusted project's own allowlist structure is respected when it restricts", () => {
    const policy = compile(
      user(`default_action: allow\n`),
      project(
        `
rules:
  - name: Bash
    condition: tool == "bash"
    rules:
      - name: npm test
        condition: command == "npm test"
        action: allow
      - default: deny
`,
        false,
      ),
    );
    expect(bash(policy, "npm test").action).toBe("allow");
    expect(bash(policy, "rm -rf build")).toMatchObject({
      action: "deny",
      layer: "project",
      rule: "Bash > Default",
    });
  });

  it("an untrusted project's default_action only counts when stricter", () => {
    expect(
      call(compile(user("default_action: ask\n"), project("default_action: deny\n")), "mcp__x", {}).action,
    ).toBe("deny");
    expect(
      call(compile(user("default_action: ask\n"), project("default_action: allow\n")), "mcp__x", {}).action,
    ).toBe("ask");
  });
});

describe("(d) a global allow never short-circuits a project's block", () => {
  it("denies when the user allows but the project blocks the same call", () => {
    const policy = compile(
      user(`rules:\n  - name: all bash\n    condition: tool == "bash"\n    action: allow\n`),
      project(
        `rules:\n  - name: no deploy\n    condition: command.startsWith("./deploy")\n    action: block\n`,
        true,
      ),
    );
    expect(bash(policy, "./deploy prod")).toMatchObject({
      action: "deny",
      layer: "project",
      rule: "no deploy",
    });
    expect(bash(policy, "ls")).toMatchObject({ action: "allow", layer: "user" });
  });
});

describe("(c) account policy and emergency controls win over everything", () => {
  it("an account rule decides even against user and trusted project rules", () => {
    const policy = compile(
      user(ALLOWLIST),
      project(`rules:\n  - name: ok\n    condition: tool == "bash"\n    action: allow\n`, true),
      account(`rules:\n  - name: org no git\n    condition: command.startsWith("git ")\n    action: deny\n`),
    );
    expect(bash(policy, "git status")).toMatchObject({
      action: "deny",
      layer: "account",
      rule: "org no git",
    });
    expect(bash(policy, "ls")).toMatchObject({ action: "allow" });
  });

  it("emergency controls override an allow from every layer", () => {
    const policy = compile(
      user(`default_action: allow\n`),
      account(`rules:\n  - name: allow all\n    condition: "true"\n    action: allow\n`),
    );
    const emergency = { readOnly: true, disableHighImpact: false, blockedTools: [] };
    const r = decide(policy, { tool: "write", input: { path: "a" }, cwd: CWD }, { hasUI: true, emergency });
    expect(r).toMatchObject({ action: "deny", layer: "emergency", rule: "emergency: read-only mode" });
  });
});

describe("headless", () => {
  it("ask becomes deny without a UI, unless headless_ask: allow", () => {
    const strict = compile(user(ALLOWLIST));
    expect(bash(strict, "make", true).action).toBe("ask");
    expect(bash(strict, "make", false).action).toBe("deny");
    expect(bash(strict, "make", false).reasons.at(-1)).toMatch(/headless/);
    const lenient = compile(user(`${ALLOWLIST}\nheadless_ask: allow\n`));
    expect(bash(lenient, "make", false).action).toBe("allow");
    // Denies stay denies.
    expect(bash(lenient, "rm -rf x", false).action).toBe("deny");
  });
});

describe("defaults", () => {
  it("with no layers at all, everything is denied (fail closed)", () => {
    const policy = compile();
    expect(call(policy, "read", { path: "a" })).toMatchObject({
      action: "deny",
      layer: "default",
      rule: null,
    });
  });
});
