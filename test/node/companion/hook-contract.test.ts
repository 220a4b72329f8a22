// Contract tests: the real `airlock` binary fed the documented Claude Code and Codex hook JSON, no daemon running.

import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock, type Sandbox, sandbox } from "./support/sandbox.ts";

const POLICY = `
default_action: ask
rules:
  - name: reads
    condition: tool == "read"
    action: allow
  - name: no rm
    condition: tool == "bash" && command.startsWith("rm ")
    action: deny
    message: rm is not allowed here
  - name: no env writes
    condition: tool == "write" && path.endsWith(".env")
    action: deny
  - name: project writes
    condition: tool == "write" || tool == "edit"
    action: allow
  - name: tests
    condition: tool == "bash" && command == "npm test"
    action: allow
hidden_tools: [mcp__prod__deploy]
`;

let box: Sandbox;

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "3000" });
  box.writePolicy(POLICY);
}, 180_000);
afterAll(() => box.cleanup());

function claude(event: string, extra: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: "sess-1",
    transcript_path: "/tmp/t.jsonl",
    cwd: box.project,
    permission_mode: "default",
    hook_event_name: event,
    ...extra,
  });
}

function preToolUse(
  tool_name: string,
  tool_input: Record<string, unknown>,
  id = `toolu_${Math.random()}`,
): string {
  return claude("PreToolUse", { tool_name, tool_input, tool_use_id: id });
}

interface PreToolUseOut {
  hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
}

async function hook(stdin: string, env: NodeJS.ProcessEnv = box.env, agent = "claude-code") {
  return runAirlock(["hook", agent], env, stdin);
}

function decision(stdout: string): PreToolUseOut["hookSpecificOutput"] {
  return (JSON.parse(stdout) as PreToolUseOut).hookSpecificOutput;
}

describe("airlock hook claude-code (PreToolUse)", { timeout: 30_000 }, () => {
  it("an allow by policy says nothing (exit 0), so Claude Code's own permission check still runs", async () => {
    const r = await hook(preToolUse("Read", { file_path: join(box.project, "src/a.ts") }));
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    const bash = await hook(preToolUse("Bash", { command: "npm test", description: "tests" }));
    expect(bash).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("under mode: sole an allow pre-approves, naming the rule", async () => {
    const sole = sandbox();
    try {
      sole.writePolicy(`mode: sole\n${POLICY}`);
      const r = await hook(
        JSON.stringify({
          session_id: "sess-1",
          cwd: sole.project,
          hook_event_name: "PreToolUse",
          tool_name: "Read",
          tool_input: { file_path: join(sole.project, "src/a.ts") },
          tool_use_id: "toolu_sole",
        }),
        sole.env,
      );
      expect(decision(r.stdout)).toEqual({
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: expect.stringContaining('rule "reads"'),
      });
      // Shown loudly by doctor, as a warning naming the file; the default mode is an ok line.
      const sayDoctor = async (env: NodeJS.ProcessEnv) =>
        (JSON.parse((await runAirlock(["doctor", "--json"], env, "")).stdout) as { check: string }[]).find(
          (c) => c.check === "mode",
        );
      expect(await sayDoctor(sole.env)).toEqual({
        check: "mode",
        status: "warn",
        detail: expect.stringMatching(/^SOLE JUDGE \(mode: sole in .*permissions\.yaml\)/),
      });
      expect(await sayDoctor(box.env)).toMatchObject({ check: "mode", status: "ok" });
    } finally {
      sole.cleanup();
    }
  });

  it("denies what local policy denies, with the rule's message", async () => {
    const r = await hook(preToolUse("Bash", { command: "rm -rf build", description: "clean" }));
    expect(r.code).toBe(0);
    const out = decision(r.stdout);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toContain("rm is not allowed here");
  });

  it("denies a hidden tool as not available", async () => {
    const r = await hook(preToolUse("mcp__prod__deploy", { env: "prod" }));
    expect(decision(r.stdout)).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(/not available/),
    });
  });

  it("an ask with no pairing is a deny that says a person was needed", async () => {
    const r = await hook(preToolUse("WebFetch", { url: "https://example.com/", prompt: "x" }));
    const out = decision(r.stdout);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(/needs a person's approval.*not paired/);
  });

  it("AIRLOCK_CLAUDE_ASK=local hands an ask to Claude Code's own prompt", async () => {
    const r = await hook(preToolUse("WebFetch", { url: "https://example.com/", prompt: "x" }), {
      ...box.env,
      AIRLOCK_CLAUDE_ASK: "local",
    });
    expect(decision(r.stdout).permissionDecision).toBe("ask");
  });

  it("an ask with the edge unreachable is a deny naming the edge", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const a = s.address();
        s.close(() => resolve(typeof a === "object" && a ? a.port : 1));
      });
    });
    const paired = { ...box.env, AIRLOCK_HOME: join(box.dir, "paired-home") };
    const { mkdirSync } = await import("node:fs");
    mkdirSync(paired.AIRLOCK_HOME as string, { recursive: true });
    writeFileSync(join(paired.AIRLOCK_HOME as string, "permissions.yaml"), POLICY);
    writeFileSync(
      join(paired.AIRLOCK_HOME as string, "credentials.json"),
      JSON.stringify({
        server: `http://127.0.0.1:${port}`,
        token: "alk_x.y",
        device_id: "d1",
        user_id: "u1",
      }),
      { mode: 0o600 },
    );
    const r = await hook(preToolUse("WebFetch", { url: "https://example.com/", prompt: "x" }), paired);
    const out = decision(r.stdout);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toBe(
      `Airlock denied this call: it needs a person's approval, but the Airlock edge at http://127.0.0.1:${port} could not be reached`,
    );
    // Local decisions never need the edge (an allow says nothing: Claude Code's own check runs; a deny is a deny).
    const local = await hook(preToolUse("Bash", { command: "npm test" }), paired);
    expect(local).toEqual({ code: 0, stdout: "", stderr: "" });
    const rm = await hook(preToolUse("Bash", { command: "rm -rf build" }), paired);
    expect(decision(rm.stdout).permissionDecisionReason).toContain("rm is not allowed here");
  });

  it("a daemon that is down (stale socket file) is not needed: the hook decides directly", async () => {
    const stale = { ...box.env, AIRLOCK_SOCKET: join(box.dir, "stale.sock") };
    writeFileSync(stale.AIRLOCK_SOCKET as string, "");
    const r = await hook(preToolUse("Bash", { command: "rm -rf build" }), stale);
    expect(decision(r.stdout).permissionDecisionReason).toContain("rm is not allowed here");
  });

  it("a policy that does not load denies, saying why", async () => {
    const broken = { ...box.env, AIRLOCK_HOME: join(box.dir, "broken-home") };
    const { mkdirSync } = await import("node:fs");
    mkdirSync(broken.AIRLOCK_HOME as string, { recursive: true });
    writeFileSync(
      join(broken.AIRLOCK_HOME as string, "permissions.yaml"),
      "rules:\n  - name: x\n    action: nope\n",
    );
    const r = await hook(preToolUse("Read", { file_path: join(box.project, "a") }), broken);
    const out = decision(r.stdout);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(/policy does not load/);
  });
});

describe("airlock hook claude-code (malformed input)", { timeout: 30_000 }, () => {
  it("non-JSON stdin is a blocking error (exit 2, reason on stderr)", async () => {
    const r = await hook("this is not json");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/Airlock denied this call: the hook input is not a JSON object/);
  });

  it("empty stdin is a blocking error", async () => {
    const r = await hook("");
    expect(r.code).toBe(2);
  });

  it("a recognisable PreToolUse with missing fields is a deny JSON", async () => {
    const r = await hook(
      JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } }),
    );
    expect(r.code).toBe(0);
    const out = decision(r.stdout);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(/malformed hook input \(session_id/);
  });

  it("tool_input that is not an object is a deny JSON", async () => {
    const r = await hook(claude("PreToolUse", { tool_name: "Bash", tool_input: "ls", tool_use_id: "x" }));
    expect(decision(r.stdout).permissionDecision).toBe("deny");
  });

  it("unexpected arguments fail closed with exit 2", async () => {
    const r = await runAirlock(
      ["hook", "claude-code", "--bogus"],
      box.env,
      preToolUse("Read", { file_path: "/x" }),
    );
    expect(r.code).toBe(2);
  });
});

describe("airlock hook claude-code (PermissionRequest, UserPromptSubmit)", { timeout: 30_000 }, () => {
  it("never answers Claude Code's own ask from Airlock's policy: it needs a person, marked as Claude Code's ask", async () => {
    const r = await hook(
      claude("PermissionRequest", {
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        permission_suggestions: [
          { type: "addRules", rules: [{ toolName: "Bash", ruleContent: "npm test" }], behavior: "allow" },
        ],
      }),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "deny",
          message: expect.stringMatching(
            /needs a person's approval \(Claude Code asks about this: .*Bash\(npm test\)\), but .*not paired/,
          ),
        },
      },
    });
  });

  it("AIRLOCK_CLAUDE_ASK=local leaves Claude Code's own ask to its own dialog", async () => {
    const r = await hook(
      claude("PermissionRequest", { tool_name: "Bash", tool_input: { command: "npm test" } }),
      { ...box.env, AIRLOCK_CLAUDE_ASK: "local" },
    );
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("answers decision.behavior deny with a message", async () => {
    const r = await hook(
      claude("PermissionRequest", { tool_name: "Bash", tool_input: { command: "rm -r x" } }),
    );
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: expect.stringContaining("rm is not allowed") },
      },
    });
  });

  it("UserPromptSubmit prints nothing and exits 0", async () => {
    const r = await hook(claude("UserPromptSubmit", { prompt: "read the README" }));
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("airlock hook codex", { timeout: 30_000 }, () => {
  function codex(tool_name: string, tool_input: Record<string, unknown>, event = "PreToolUse"): string {
    return JSON.stringify({
      session_id: "codex-s1",
      turn_id: "t-1",
      transcript_path: null,
      cwd: box.project,
      hook_event_name: event,
      model: "gpt-5-codex",
      permission_mode: "default",
      tool_name,
      tool_input,
      tool_use_id: `call_${Math.random()}`,
    });
  }

  it("allows by printing nothing (exit 0)", async () => {
    const r = await hook(codex("Bash", { command: "npm test" }), box.env, "codex");
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("denies with permissionDecision deny and a non-empty reason", async () => {
    const r = await hook(codex("Bash", { command: "rm -rf /" }), box.env, "codex");
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("rm"),
    });
  });

  it("has no ask: a call that needs a person is denied when no one can be asked", async () => {
    const r = await hook(codex("mcp__github__create_issue", { title: "x" }), box.env, "codex");
    expect(decision(r.stdout).permissionDecision).toBe("deny");
    expect(r.stdout).not.toContain('"ask"');
  });

  it("judges apply_patch per file: one denied file denies the patch", async () => {
    const patch =
      "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** Add File: .env\n+SECRET=1\n*** End Patch\n";
    const r = await hook(codex("apply_patch", { command: patch }), box.env, "codex");
    const out = decision(r.stdout);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toContain(".env");
    const ok = await hook(
      codex("apply_patch", {
        command: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch\n",
      }),
      box.env,
      "codex",
    );
    expect(ok).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("PermissionRequest (Codex's own approval ask) is never answered by Airlock's allow: a person decides", async () => {
    const r = await hook(codex("Bash", { command: "npm test" }, "PermissionRequest"), box.env, "codex");
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: expect.stringMatching(/\(Codex asks about this: .*\), but/) },
      },
    });
  });

  it("malformed input is a blocking exit 2 with the reason on stderr", async () => {
    const r = await hook("{", box.env, "codex");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a JSON object/);
  });
});

describe("every command has --help", { timeout: 30_000 }, () => {
  it.each([["pair"], ["up"], ["status"], ["doctor"], ["hook", "claude-code"], ["hook", "codex"]])(
    "airlock %s --help",
    async (...name) => {
      const r = await runAirlock([...name, "--help"], box.env);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: airlock/);
      expect(r.stdout).toMatch(/Exit codes/);
    },
  );
});

describe("airlock pair (without an edge)", { timeout: 30_000 }, () => {
  it("refuses a code that is not 8 digits (exit 2)", async () => {
    const r = await runAirlock(["pair", "1234"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"1234" is not a pairing code; a code is 8 digits/);
  });

  it("says the edge is unreachable (exit 4) and writes no credentials", async () => {
    const r = await runAirlock(["pair", "12345678", "--server", "http://127.0.0.1:9", "--json"], box.env);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({
      paired: false,
      error:
        "the Airlock edge at http://127.0.0.1:9 could not be reached. Is the edge running there? To use another one, pass --server URL or set AIRLOCK_SERVER=URL (npm run dev prints its URL)",
    });
    const { existsSync } = await import("node:fs");
    expect(existsSync(join(box.airlockHome, "credentials.json"))).toBe(false);
  });
});
