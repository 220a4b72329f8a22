// Schedule times: cron in IANA zones across DST gaps and repeats, interval grids, `at` parsing, and the
// catch-up rule. Every instant is UTC.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CATCH_UP_WINDOW_MS,
  cronProblem,
  nextRunAfter,
  parseAt,
  planWakeup,
  type ScheduleSpec,
} from "../../../src/domain/schedule.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
function runs(spec: ScheduleSpec, from: string, n: number): string[] {
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const next = nextRunAfter(spec, t);
    if (next === null) break;
    out.push(iso(next) ?? "");
    t = next;
  }
  return out;
}

describe("cron across DST", () => {
  it("New York: 02:30 on the spring-forward night runs at 03:00 EDT, once", () => {
    expect(
      runs({ kind: "cron", cron: "30 2 * * *", timezone: "America/New_York" }, "2026-03-07T12:00:00Z", 3),
    ).toEqual(["2026-03-08T07:00:00.000Z", "2026-03-09T06:30:00.000Z", "2026-03-10T06:30:00.000Z"]);
  });
  it("New York: 01:30 on the fall-back night (it happens twice) runs once, at the first", () => {
    expect(
      runs({ kind: "cron", cron: "30 1 * * *", timezone: "America/New_York" }, "2026-10-31T12:00:00Z", 3),
    ).toEqual(["2026-11-01T05:30:00.000Z", "2026-11-02T06:30:00.000Z", "2026-11-03T06:30:00.000Z"]);
  });
  it("New York: every 30 minutes keeps real time through the repeated hour", () => {
    const got = runs(
      { kind: "cron", cron: "*/30 * * * *", timezone: "America/New_York" },
      "2026-11-01T04:45:00Z",
      6,
    );
    const gaps = got.slice(1).map((t, i) => Date.parse(t) - Date.parse(got[i] ?? ""));
    expect(gaps.every((g) => g === 30 * 60_000)).toBe(true);
  });
  it("Berlin: a gap and a repeat", () => {
    const spec: ScheduleSpec = { kind: "cron", cron: "30 2 * * *", timezone: "Europe/Berlin" };
    expect(runs(spec, "2026-03-28T12:00:00Z", 2)).toEqual([
      "2026-03-29T01:00:00.000Z",
      "2026-03-30T00:30:00.000Z",
    ]);
    expect(runs(spec, "2026-10-24T12:00:00Z", 3)).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-26T01:30:00.000Z",
      "2026-10-27T01:30:00.000Z",
    ]);
  });
  it("runs strictly increase, in any zone (property)", () => {
    const zones = ["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu"];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.constantFrom("0 * * * *", "30 2 * * *", "*/15 * * * *", "0 9 * * 1-5"),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 0, 1) }),
        (timezone, cron, from) => {
          const spec: ScheduleSpec = { kind: "cron", cron, timezone };
          const a = nextRunAfter(spec, from);
          const b = a === null ? null : nextRunAfter(spec, a);
          return a !== null && b !== null && a > from && b > a;
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("parsing", () => {
  it("names the bad field", () => {
    expect(cronProblem("0 9 * * *", "Europe/Berlin")).toBeNull();
    expect(cronProblem("99 * * * *", "UTC")?.field).toBe("cron");
    expect(cronProblem("0 9 * * *", "Nowhere/City")?.field).toBe("timezone");
  });
  it("`at` with an offset is as written; a local one is read in its zone (a gap moves forward)", () => {
    expect(iso(parseAt("2026-03-08T09:00:00+01:00", "UTC") as number)).toBe("2026-03-08T08:00:00.000Z");
    expect(iso(parseAt("2026-07-01T09:00:00", "Europe/Berlin") as number)).toBe("2026-07-01T07:00:00.000Z");
    expect(iso(parseAt("2026-03-08T02:30:00", "America/New_York") as number)).toBe(
      "2026-03-08T07:30:00.000Z",
    );
    expect(parseAt("tomorrow", "UTC")).toMatchObject({ field: "at" });
  });
});

describe("interval grid and the catch-up rule", () => {
  const spec: ScheduleSpec = { kind: "interval", everySeconds: 300, anchor: Date.UTC(2026, 0, 1) };

  it("late wakeups never move the grid (no drift, property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 299_000 }), { minLength: 1, maxLength: 40 }),
        (lateness) => {
          let due = nextRunAfter(spec, spec.kind === "interval" ? spec.anchor : 0) ?? 0;
          for (const late of lateness) {
            const plan = planWakeup(spec, due, due + late);
            if (plan.run !== due || plan.skipped !== 0 || plan.next === null) return false;
            if ((plan.next - (spec.kind === "interval" ? spec.anchor : 0)) % 300_000 !== 0) return false;
            due = plan.next;
          }
          return true;
        },
      ),
    );
  });

  it("an outage runs the latest missed occurrence once and counts the rest", () => {
    const due = Date.UTC(2026, 0, 1, 0, 5);
    expect(planWakeup(spec, due, due + 25 * 60_000 + 1)).toEqual({
      run: due + 25 * 60_000,
      skipped: 5,
      next: due + 30 * 60_000,
    });
  });

  it("runs older than the window are skipped", () => {
    const daily: ScheduleSpec = { kind: "cron", cron: "0 6 * * *", timezone: "UTC" };
    const due = Date.UTC(2026, 0, 1, 6);
    expect(planWakeup(daily, due, due + CATCH_UP_WINDOW_MS + 1)).toEqual({
      run: null,
      skipped: 1,
      next: Date.UTC(2026, 0, 2, 6),
    });
    const week = planWakeup(daily, due, due + 7 * 86_400_000 + 60_000);
    expect(week).toEqual({ run: due + 7 * 86_400_000, skipped: 7, next: Date.UTC(2026, 0, 9, 6) });
  });

  it("an `at` runs once and is done", () => {
    const at: ScheduleSpec = { kind: "at", at: Date.UTC(2026, 5, 1) };
    expect(planWakeup(at, Date.UTC(2026, 5, 1), Date.UTC(2026, 5, 1, 0, 0, 3))).toEqual({
      run: Date.UTC(2026, 5, 1),
      skipped: 0,
      next: null,
    });
  });
});
