// The dashboard's decision outbox: saving decisions wait out the undo window, once-decisions go at once, anything
// decided offline is queued and sent on the next welcome (also after a reload), a refusal is final.
import { describe, expect, it } from "vitest";
import {
  DecisionOutbox,
  type OutboxEntry,
  type OutboxStore,
  type SendResult,
  UNDO_MS,
} from "../../../web/src/decision-outbox.ts";
import { grantChoicesOf } from "../../../web/src/grant-choices.ts";

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

const FAR = 60_000;

describe("DecisionOutbox", () => {
  it("queues a once-decision to send at once", () => {
    const box = new DecisionOutbox(() => {}, null);
    expect(box.add({ promptId: "p", decision: "deny_once" }, 0, FAR)).toBe(true);
    expect(box.get("p")?.phase).toBe("queued");
  });

  it("holds a saving decision for the undo window, and undo cancels it", () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_always" }, 0, FAR);
    expect(box.get("p")).toMatchObject({ phase: "held", sendAt: UNDO_MS });
    expect(box.release(UNDO_MS - 1)).toBe(UNDO_MS);
    expect(box.get("p")?.phase).toBe("held");
    expect(box.undo("p")).toBe(true);
    expect(box.get("p")).toBeUndefined();
  });

  it("releases a held decision when the window ends", () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "deny_always" }, 0, FAR);
    box.release(UNDO_MS);
    expect(box.get("p")?.phase).toBe("queued");
  });

  it("does not hold a saving decision when the prompt would expire first", () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_always" }, 0, UNDO_MS + 1000);
    expect(box.get("p")?.phase).toBe("queued");
  });

  it("takes one decision per prompt: a second tap is ignored", () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_always" }, 0, FAR);
    expect(box.add({ promptId: "p", decision: "allow_always" }, 350, FAR)).toBe(false);
  });

  it("sends queued decisions, keeps them on a dropped link and marks a refusal failed", async () => {
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "ok", decision: "deny_once" }, 0, FAR);
    box.add({ promptId: "drop", decision: "deny_once" }, 0, FAR);
    box.add({ promptId: "late", decision: "deny_once" }, 0, FAR);
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
    before.add({ promptId: "p", decision: "deny_once", message: "use pnpm" }, 0, FAR);
    before.add({ promptId: "q", decision: "allow_once", confirmationToken: "cfm_secret" }, 0, FAR);
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
  it("reads the hub's offer and keeps a picked wider pattern verbatim with the decision", () => {
    const prompt = {
      grant: {
        exact: [{ capability: "exec", pattern: "git status" }],
        moreExact: 0,
        wider: ["git status *"],
      },
    };
    expect(grantChoicesOf(prompt)?.wider).toEqual(["git status *"]);
    const box = new DecisionOutbox(() => {}, null);
    box.add({ promptId: "p", decision: "allow_always", pattern: "git status *" }, 0, FAR);
    expect(box.get("p")?.pattern).toBe("git status *");
  });

  it("offers nothing when a hub sends no choices", () => {
    expect(grantChoicesOf({})).toBeNull();
    expect(grantChoicesOf({ grant: { wider: "not a list" } })).toBeNull();
  });
});
