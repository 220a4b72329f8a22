// raceLocalAndPhone: the first real answer wins; "nobody could be asked" never beats the local dialog;
// a phone win dismisses the dialog; a local win is relayed.
import { describe, expect, it } from "vitest";
import { raceLocalAndPhone } from "../../../../src/companion/adapters/pi/ask-race.ts";
import type { AgentToolCall, CompanionDecision } from "../../../../src/companion/control/client.ts";

const CALL: AgentToolCall = {
  callId: "pi-s-1",
  sessionId: "s",
  agent: { id: "pi", name: "Pi coding agent" },
  tool: "bash",
  input: { command: "touch x" },
  cwd: "/w",
  hasUI: true,
};
const ASK: CompanionDecision = { decision: "ask", reason: "Ask before touch", source: "policy", rule: "Ask" };

/** A dialog the test answers by hand, which records whether it was dismissed. */
function dialog() {
  let answer: (yes: boolean) => void = () => undefined;
  const state = { shown: "", dismissed: false };
  const ui = {
    confirm: (_title: string, message: string, opts?: { signal?: AbortSignal }) =>
      new Promise<boolean>((resolve) => {
        state.shown = message;
        answer = resolve;
        opts?.signal?.addEventListener("abort", () => {
          state.dismissed = true;
          resolve(false);
        });
      }),
  };
  return { ui, state, answer: (yes: boolean) => answer(yes) };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("raceLocalAndPhone", () => {
  it("the phone's answer wins and dismisses the local dialog", async () => {
    const d = dialog();
    const phone = deferred<CompanionDecision>();
    const relayed: boolean[] = [];
    const race = raceLocalAndPhone(CALL, ASK, {
      ui: d.ui,
      askPhone: () => phone.promise,
      timeoutMs: 60_000,
      relayLocal: async (_c, allow) => relayed.push(allow),
    });
    phone.resolve({ decision: "allow", reason: "Approved on the phone", source: "user" });
    const result = await race;
    expect(result).toMatchObject({ decision: "allow", answeredBy: "phone", reason: "Approved on the phone" });
    expect(d.state.shown).toMatch(/^bash: touch x\n\nAsk before touch$/);
    expect(d.state.dismissed).toBe(true);
    expect(relayed).toEqual([]);
  });

  it("the local answer wins over a phone that has not answered, and is relayed", async () => {
    const d = dialog();
    const relayed: boolean[] = [];
    const race = raceLocalAndPhone(CALL, ASK, {
      ui: d.ui,
      askPhone: () => new Promise(() => undefined),
      timeoutMs: 60_000,
      relayLocal: async (_c, allow) => relayed.push(allow),
    });
    d.answer(false);
    expect(await race).toMatchObject({ decision: "deny", answeredBy: "local", source: "user", rule: "Ask" });
    expect(relayed).toEqual([false]);
  });

  it("an unreachable phone does not beat the local dialog", async () => {
    for (const source of ["unavailable", "error"] as const) {
      const d = dialog();
      const phoneAnswered = deferred<void>();
      const race = raceLocalAndPhone(CALL, ASK, {
        ui: d.ui,
        askPhone: async () => {
          phoneAnswered.resolve();
          return { decision: "deny", reason: "not paired", source };
        },
        timeoutMs: 60_000,
      });
      await phoneAnswered.promise;
      d.answer(true);
      expect(await race).toMatchObject({ decision: "allow", answeredBy: "local" });
      expect(d.state.dismissed).toBe(false);
    }
  });

  it("a phone timeout is an answer: it denies and closes the dialog", async () => {
    const d = dialog();
    const race = raceLocalAndPhone(CALL, ASK, {
      ui: d.ui,
      askPhone: async () => ({ decision: "deny", reason: "nobody answered in time", source: "timeout" }),
      timeoutMs: 60_000,
    });
    expect(await race).toMatchObject({ decision: "deny", answeredBy: "phone", source: "timeout" });
    expect(d.state.dismissed).toBe(true);
  });
});
