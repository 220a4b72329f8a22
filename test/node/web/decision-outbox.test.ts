// The dashboard's decision outbox: every decision goes at once (a saving one asks the hub for an undo window and is
// held there), anything decided offline is queued and sent on the next welcome (also after a reload), a refusal is
// final.
import { describe, expect, it } from "vitest";
import {
  DecisionOutbox,
  type OutboxEntry,
  type OutboxStore,
  type SendResult,
  UNDO_MS,
} from "../../../web/src/decision-outbox.ts";
import { grantChoicesOf } from "../../../web/src/grant-choices.ts";
import { loadedValidators, loadValidators } from "../../../web/src/load-validators.ts";

function memoryStore(): OutboxStore & { text: string | null } {
  const store = {
    text: null as string | null,
    load: () => store.text,
    save: (text: string) => {
      store.text = text;
    },
  };
  return store;
}

describe("DecisionOutbox", () => {
  it("queues a once-decision to send at once", () => {
    const box = new DecisionOutbox(() => {}, null);
    expect(box.add({ promptId: "p", decision: "deny_once" }, 0)).toBe(true);
    expect(box.get("p")?.phase).toBe("queued");
  });

  it("sends a saving decision at once with an undo window; the hub's hold makes it undoable there", async () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_always" }, 0);
    expect(box.get("p")).toMatchObject({ phase: "queued", undoMs: UNDO_MS });
    const sent: OutboxEntry[] = [];
    await box.flush(async (entry) => {
      sent.push(entry);
      return { ok: true, heldUntil: Date.now() + UNDO_MS };
    });
    expect(sent[0]?.undoMs).toBe(UNDO_MS);
    expect(box.get("p")?.phase).toBe("held");
    expect(box.undo("p", Date.now())).toBe("ask_hub");
    box.undone("p");
    expect(box.get("p")).toBeUndefined();
  });

  it("a once-decision asks for no window", () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_once" }, 0);
    expect(box.get("p")?.undoMs).toBeUndefined();
  });

  it("a held decision is committed when its window ends: nothing left to undo", async () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "deny_always" }, 0);
    await box.flush(async () => ({ ok: true, heldUntil: 5_000 }));
    expect(box.release(4_999)).toBe(5_000);
    box.release(5_000);
    expect(box.get("p")?.phase).toBe("sent");
    expect(box.undo("p", 5_000)).toBe("none");
  });

  it("undo of a decision still queued offline cancels it here; a refused undo leaves the answer standing", async () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "q", decision: "allow_session" }, 0);
    expect(box.undo("q", 0)).toBe("cancelled");
    expect(box.get("q")).toBeUndefined();
    box.add({ promptId: "r", decision: "allow_session" }, 0);
    await box.flush(async () => ({ ok: true, heldUntil: Date.now() + UNDO_MS }));
    box.undoRefused("r", "Too late to undo.");
    expect(box.get("r")).toMatchObject({ phase: "sent", error: "Too late to undo." });
  });

  it("a held decision stays undoable across a reload until its window ends", async () => {
    const store = memoryStore();
    const before = new DecisionOutbox(() => {}, store);
    before.add({ promptId: "p", decision: "allow_always" }, 0);
    before.add({ promptId: "old", decision: "allow_always" }, 0);
    await before.flush(async (entry) => ({
      ok: true,
      heldUntil: entry.promptId === "p" ? Date.now() + UNDO_MS : Date.now() - 1,
    }));
    const after = new DecisionOutbox(() => {}, store);
    expect(after.get("p")?.phase).toBe("held");
    expect(after.get("old")).toBeUndefined();
  });

  it("takes one decision per prompt: a second tap is ignored", () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_always" }, 0);
    expect(box.add({ promptId: "p", decision: "allow_always" }, 350)).toBe(false);
  });

  it("sends queued decisions, keeps them on a dropped link and marks a refusal failed", async () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "ok", decision: "deny_once" }, 0);
    box.add({ promptId: "drop", decision: "deny_once" }, 0);
    box.add({ promptId: "late", decision: "deny_once" }, 0);
    const answers: Record<string, SendResult> = {
      ok: { ok: true },
      drop: { ok: false, final: false, error: "dropped" },
      late: { ok: false, final: true, error: "Prompt expired." },
    };
    const sent: OutboxEntry[] = [];
    await box.flush(async (entry) => {
      sent.push(entry);
      return answers[entry.promptId] ?? { ok: true };
    });
    expect(sent.map((e) => e.promptId).sort()).toEqual(["drop", "late", "ok"]);
    expect(box.get("ok")?.phase).toBe("sent");
    expect(box.get("drop")?.phase).toBe("queued");
    expect(box.get("late")).toMatchObject({ phase: "failed", error: "Prompt expired." });
  });

  it("survives a reload without the confirmation token", () => {
    const store = memoryStore();
    const before = new DecisionOutbox(() => {}, store);
    before.add({ promptId: "p", decision: "deny_once", message: "use pnpm" }, 0);
    before.add({ promptId: "q", decision: "allow_once", confirmationToken: "cfm_secret" }, 0);
    expect(store.text).not.toContain("cfm_secret");
    const after = new DecisionOutbox(() => {}, store);
    expect(after.get("p")).toMatchObject({ phase: "queued", message: "use pnpm" });
    expect(after.get("q")?.confirmationToken).toBeUndefined();
  });

  it("ignores a corrupt stored outbox", () => {
    const store = memoryStore();
    store.text = "{not json";
    expect(new DecisionOutbox(() => {}, store).get("p")).toBeUndefined();
  });
});

describe("grant choices on a card", () => {
  const prompt = {
    grant: {
      exact: [{ capability: "exec", pattern: "git status" }],
      moreExact: 0,
      wider: ["git status *"],
    },
  };

  it("offers no wider choice before the validators are loaded (no card is parsed before them)", () => {
    expect(loadedValidators()).toBeNull();
    expect(grantChoicesOf(prompt)).toBeNull();
  });

  it("reads the hub's offer and keeps a picked wider pattern verbatim with the decision", async () => {
    await loadValidators();
    expect(grantChoicesOf(prompt)?.wider).toEqual(["git status *"]);
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_always", pattern: "git status *" }, 0);
    expect(box.get("p")?.pattern).toBe("git status *");
  });

  it("offers nothing when a hub sends no choices", () => {
    expect(grantChoicesOf({})).toBeNull();
    expect(grantChoicesOf({ grant: { wider: "not a list" } })).toBeNull();
  });
});
