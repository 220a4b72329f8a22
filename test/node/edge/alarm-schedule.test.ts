// The hub's one alarm (src/edge/hub/schedule.ts): the sources the engine, the conveyor and the runtime register, the
// earliest wake among them, and the loop the alarm runs: in-order sources one after another, alongside ones at once,
// a failure thrown after the others finished, then the next alarm.
import { describe, expect, it } from "vitest";
import { type AlarmSource, DUE_SLACK_MS, Schedule } from "../../../src/edge/hub/schedule.ts";

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A source that logs when its alarm work starts and ends, and ends when `gate` opens. */
function source(name: string, wake: number | null, log: string[], gate?: Promise<void>): AlarmSource {
  return {
    name,
    nextWake: () => wake,
    async onAlarm(now) {
      expect(typeof now).toBe("number");
      log.push(`${name} start`);
      await gate;
      log.push(`${name} end`);
    },
  };
}

function schedule() {
  const alarms: number[] = [];
  const s = new Schedule(async (at) => {
    alarms.push(at);
  });
  return { s, alarms };
}

describe("the hub's alarm schedule", () => {
  it("wakes for the earliest of its sources, and not at all when none waits", () => {
    const { s } = schedule();
    expect(s.next()).toBeNull();
    const log: string[] = [];
    s.register(source("a", null, log));
    expect(s.next()).toBeNull();
    s.register(source("b", 5_000, log));
    s.register(source("c", 3_000, log), "alongside");
    expect(s.next()).toBe(3_000);
  });

  it("runs in-order sources one after another in registration order, alongside ones at once", async () => {
    const { s } = schedule();
    const log: string[] = [];
    const first = deferred();
    const side = deferred();
    const conveyorRan = deferred();
    s.register(source("deadlines", null, log, first.promise));
    s.register({
      ...source("conveyor", null, log),
      onAlarm: async () => {
        log.push("conveyor ran");
        conveyorRan.resolve();
      },
    });
    s.register(source("schedules", null, log, side.promise), "alongside");
    const run = s.run();
    // The runtime's schedules started beside the deadlines; the conveyor waits for the deadlines to end.
    expect(log).toEqual(["schedules start", "deadlines start"]);
    first.resolve();
    await conveyorRan.promise;
    expect(log).toEqual(["schedules start", "deadlines start", "deadlines end", "conveyor ran"]);
    side.resolve();
    await run;
    expect(log.at(-1)).toBe("schedules end");
  });

  it("lets every source finish when one fails, then throws its error and arms nothing", async () => {
    const { s, alarms } = schedule();
    const log: string[] = [];
    s.register({
      name: "broken",
      nextWake: () => Date.now(),
      onAlarm: async () => {
        throw new Error("D1 unavailable");
      },
    });
    s.register(source("schedules", Date.now(), log), "alongside");
    await expect(s.run()).rejects.toThrow("D1 unavailable");
    expect(log).toEqual(["schedules start", "schedules end"]);
    expect(alarms).toEqual([]);
  });

  it("re-arms after a run for the earliest wake, never sooner than the slack, and not again while armed earlier", async () => {
    const { s, alarms } = schedule();
    const log: string[] = [];
    const soon = Date.now() + 60_000;
    s.register(source("deadlines", soon, log));
    s.register(source("schedules", soon + 1_000, log), "alongside");
    await s.run();
    expect(alarms).toEqual([soon]);
    await s.arm();
    expect(alarms).toEqual([soon]);
    s.fired();
    await s.arm(soon);
    expect(alarms.at(-1)).toBe(soon + DUE_SLACK_MS);
  });

  it("moves an alarm it set later once the deadline it was set for is withdrawn (also one overdue, not yet run), never earlier, never when unknown", async () => {
    const { s, alarms } = schedule();
    const log: string[] = [];
    const now = Date.now();
    let backstop: number | null = now + 60_000;
    const retention = now + 7 * 24 * 3_600_000;
    s.register(source("deadlines", retention, log));
    s.register({ ...source("conveyor", null, log), nextWake: () => backstop });
    await s.arm(now);
    expect(alarms).toEqual([now + 60_000]);
    // The backstop still stands: nothing moves.
    await s.relax(now);
    expect(alarms).toEqual([now + 60_000]);
    // Withdrawn: the alarm moves to the next deadline left, once.
    backstop = null;
    await s.relax(now);
    expect(alarms).toEqual([now + 60_000, retention]);
    await s.relax(now);
    expect(alarms).toHaveLength(2);
    // An earlier deadline is arm's to set, not relax's.
    backstop = now + 5_000;
    await s.relax(now);
    expect(alarms).toHaveLength(2);
    // An alarm whose time has passed but that has not run yet (delivered late) moves on too.
    backstop = now + 1_000;
    s.fired();
    await s.arm(now);
    expect(alarms.at(-1)).toBe(now + 1_000);
    backstop = null;
    await s.relax(now + 2_000);
    expect(alarms.at(-1)).toBe(retention);
    expect(alarms).toHaveLength(4);
    // After the alarm fired, what is set is unknown here: relax leaves it.
    s.fired();
    backstop = null;
    await s.relax(now);
    expect(alarms).toHaveLength(4);
  });

  it("leaves the alarm when no deadline is left to move it to (it runs once and finds nothing)", async () => {
    const { s, alarms } = schedule();
    let wake: number | null = Date.now() + 60_000;
    s.register({ ...source("conveyor", null, []), nextWake: () => wake });
    await s.arm();
    wake = null;
    await s.relax();
    expect(alarms).toHaveLength(1);
  });
});
