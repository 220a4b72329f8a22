// The provider client against the scripted model server: retries with exponential back-off and full
// jitter (never less than Retry-After), the fallback chain, time limits, refused keys, streamed answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backoffMs, ModelProvider, retryAfterMs } from "../../../src/edge/runtime/provider.ts";
import type { ProviderConfig } from "../../../src/edge/runtime/provider-config.ts";
import { type PlannerServer, type PlannerStep, startPlannerServer } from "../../support/planner-server.ts";

let server: PlannerServer;
beforeAll(async () => {
  server = await startPlannerServer();
});
afterAll(() => server.close());

function provider(overrides: Partial<ProviderConfig> = {}, sleeps: number[] = []) {
  const config: ProviderConfig = {
    baseUrl: `${server.url}/v1`,
    apiKey: "sk-test-provider-key-0123456789",
    models: ["primary", "fallback"],
    timeoutMs: 2_000,
    maxRetries: 3,
    retryBaseMs: 100,
    retryMaxMs: 8_000,
    prices: {},
    ...overrides,
  };
  return new ModelProvider(config, {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  });
}

let n = 0;
function scripted(steps: PlannerStep[]) {
  const id = `p${++n}`;
  server.script(id, steps);
  return { id, messages: [{ role: "user" as const, content: `hi [script:${id}]` }] };
}

describe("retries", () => {
  it("backs off exponentially with full jitter, capped, and never below Retry-After", () => {
    const cfg = { retryBaseMs: 100, retryMaxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffMs(a, cfg, () => 0.999, null))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffMs(0, cfg, () => 0, null)).toBe(0);
    expect(backoffMs(0, cfg, () => 0, 700)).toBe(700);
    expect(retryAfterMs("3", 0)).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs("soon", 0)).toBeNull();
  });

  it("a 429 storm on the primary is retried with growing waits until it answers", async () => {
    const sleeps: number[] = [];
    const s = scripted([{ status: 429 }, { status: 429 }, { status: 503 }, { text: "ok" }]);
    const done = await provider({}, sleeps).complete({ messages: s.messages, tools: [] });
    expect(done).toMatchObject({ ok: true, model: "primary", message: { content: "ok" } });
    expect(sleeps).toEqual([50, 100, 200]);
    expect(server.calls(s.id).map((c) => c.outcome)).toEqual([
      "HTTP 429",
      "HTTP 429",
      "HTTP 503",
      "answered",
    ]);
  });

  it("after the retries, the chain moves to the fallback model", async () => {
    const s = scripted([
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { text: "fallback" },
    ]);
    const done = await provider().complete({ messages: s.messages, tools: [] });
    expect(done).toMatchObject({ ok: true, model: "fallback", modelIndex: 1 });
    expect(server.calls(s.id).map((c) => c.model)).toEqual([
      "primary",
      "primary",
      "primary",
      "primary",
      "fallback",
    ]);
  });

  it("a model the provider lacks (404) goes straight to the next", async () => {
    const s = scripted([
      { onlyModel: "fallback", answer: { text: "here" } },
      { onlyModel: "fallback", answer: { text: "here" } },
    ]);
    const done = await provider().complete({ messages: s.messages, tools: [] });
    expect(done).toMatchObject({ ok: true, model: "fallback" });
    expect(server.calls(s.id)).toHaveLength(2);
  });

  it("a refused key stops at once (MODEL_REJECTED), without retrying or falling back", async () => {
    const s = scripted([{ status: 401 }, { text: "never" }]);
    const done = await provider().complete({ messages: s.messages, tools: [] });
    expect(done).toMatchObject({ ok: false, code: "MODEL_REJECTED" });
    expect(server.calls(s.id)).toHaveLength(1);
  });

  it("a call that hangs is cut at the time limit and retried", async () => {
    const s = scripted([{ hang: true }, { text: "second try" }]);
    const started = Date.now();
    const done = await provider({ timeoutMs: 300 }).complete({ messages: s.messages, tools: [] });
    expect(done).toMatchObject({ ok: true, message: { content: "second try" } });
    expect(done.ok && done.attempts[0]?.outcome).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a Retry-After longer than a call may wait is handed back (for a durable sleep)", async () => {
    const sleeps: number[] = [];
    const s = scripted([{ status: 429, retryAfter: "600" }]);
    const done = await provider({}, sleeps).complete({ messages: s.messages, tools: [] });
    expect(done).toMatchObject({ ok: false, code: "MODEL_UNAVAILABLE", retryAfterMs: 600_000 });
    expect(sleeps).toEqual([]);
    expect(server.calls(s.id).map((c) => c.model)).toEqual(["primary", "fallback"]);
  });

  it("sends the key only as the bearer header", async () => {
    const s = scripted([{ text: "ok" }]);
    await provider().complete({ messages: s.messages, tools: [] });
    const [call] = server.calls(s.id);
    expect(call?.authorization).toBe("Bearer sk-test-provider-key-0123456789");
    expect(JSON.stringify(call?.messages)).not.toContain("sk-test-provider-key");
  });
});

describe("streaming", () => {
  it("assembles text and tool calls from deltas, reporting the text as it arrives", async () => {
    const s = scripted([
      {
        text: "Looking it up now.",
        calls: [{ name: "web_fetch", arguments: { url: "https://example.com/a" } }],
      },
    ]);
    const deltas: string[] = [];
    const done = await provider().complete({
      messages: s.messages,
      tools: [],
      onDelta: (t) => deltas.push(t),
    });
    expect(done).toMatchObject({
      ok: true,
      tokensIn: 100,
      tokensOut: 20,
      message: {
        content: "Looking it up now.",
        tool_calls: [
          { id: "call_0_0", function: { name: "web_fetch", arguments: '{"url":"https://example.com/a"}' } },
        ],
      },
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Looking it up now.");
    expect(server.calls(s.id)[0]?.stream).toBe(true);
  });
});
