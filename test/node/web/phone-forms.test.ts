// The schedule form's helpers: cron read back in words (cronstrue) or refused with a reason before anything is sent,
// and a 400's field problems placed beside their controls (the rest beside the submit button).
import { describe, expect, it } from "vitest";
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
