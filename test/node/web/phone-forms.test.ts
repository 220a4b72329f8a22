// The phone's words: cron read back in words (cronstrue) or refused with a reason before anything is sent, a 400's
// field problems placed beside their controls (the rest beside the submit button), Activity rows as sentences.
import { describe, expect, it } from "vitest";
import { activitySentence } from "../../../web/src/activity-words.ts";
import { ApiError } from "../../../web/src/api.ts";
import { cronInWords } from "../../../web/src/cron-words.ts";
import { fieldErrorsOf } from "../../../web/src/field-problems.ts";

describe("cronInWords", () => {
  it.each([
    ["0 9 * * 1-5", "At 09:00, Monday through Friday"],
    ["*/15 * * * *", "Every 15 minutes"],
    ["30 18 1 * *", "At 18:30, on day 1 of the month"],
  ])("reads %s as words", (cron, words) => {
    expect(cronInWords(cron)).toEqual({ ok: true, text: words });
  });

  it.each([
    ["", /Enter a cron expression/],
    ["0 9 * *", /has 4/],
    ["61 9 * * *", /minutes part must be >= 0 and <= 59/],
    ["0 9 * * 8", /DOW part/],
    ["*/0 * * * *", /step value/],
  ])("refuses %j with a reason", (cron, reason) => {
    const words = cronInWords(cron);
    expect(words.ok).toBe(false);
    if (!words.ok) expect(words.error).toMatch(reason);
  });
});

describe("fieldErrorsOf", () => {
  it("puts each problem beside its field and the rest in the general line", () => {
    const error = new ApiError(400, "validation_failed", "Invalid body: check cron, task.budgets.", [
      { path: "cron", message: "Invalid value for minute: 61" },
      { path: "task.budgets", message: "too big" },
    ]);
    expect(fieldErrorsOf(error, ["cron", "name"])).toEqual({
      fields: { cron: "Invalid value for minute: 61" },
      general: "Invalid body: check cron, task.budgets. task.budgets: too big",
    });
  });

  it("says nothing general when every problem has its field", () => {
    const error = new ApiError(400, "validation_failed", "Invalid body.", [
      { path: "at", message: "is in the past" },
    ]);
    expect(fieldErrorsOf(error, ["at"])).toEqual({ fields: { at: "is in the past" }, general: "" });
  });

  it("a failure without field problems is said in the general line", () => {
    expect(fieldErrorsOf(new ApiError(0, "network", "Airlock is unreachable."), ["at"])).toEqual({
      fields: {},
      general: "Airlock is unreachable.",
    });
  });
});

describe("activitySentence", () => {
  const base = {
    id: "a",
    at: "2026-11-26T10:00:00Z",
    target: "prm_1",
    agent_id: "claude-code",
  };
  const names = (id: string | null) =>
    id === "dev_phone" ? "Pixel 8" : id === "dev_laptop" ? "laptop" : "—";

  it("says who answered which call, never the event name", () => {
    const sentence = activitySentence(
      {
        ...base,
        device_id: "dev_phone",
        actor: "device:dev_phone",
        event: "policy.decision",
        decision: "deny_once",
        details: { capability: "exec", risk: "high", tool: "bash" },
      },
      names,
    );
    expect(sentence).toBe("claude-code asked to run commands: bash — denied by Pixel 8 (high risk)");
    expect(sentence).not.toContain("policy.decision");
  });

  it("names a companion's local policy and makes untrusted text visible", () => {
    expect(
      activitySentence(
        {
          ...base,
          agent_id: "evil\u202Eagent",
          device_id: "dev_laptop",
          actor: "companion:dev_laptop",
          event: "policy.decision",
          decision: "allow",
          details: { capability: "read", tool: "Read" },
        },
        names,
      ),
    ).toBe("evil⟦U+202E⟧agent asked to read files: Read — allowed by the local policy on laptop");
  });

  it("says when nobody answered", () => {
    expect(
      activitySentence(
        {
          ...base,
          device_id: null,
          actor: "timeout",
          event: "policy.decision",
          decision: "deny_timeout",
          details: { capability: "write" },
        },
        names,
      ),
    ).toBe("claude-code asked to write files — denied: nobody answered in time");
  });
});
