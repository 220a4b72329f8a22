// The scale counters (test/edge/scale-counts.ts) count what D1 and the hub's SQLite report, whichever way
// production code reads: a statement run alone, `first()`, drizzle's `raw()` selects, a batch.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import { users } from "../../../src/edge/db/schema.ts";
import {
  countedEnv,
  countHubAlarm,
  countHubSql,
  countHubStart,
  snapshot,
  trackHubAlarms,
} from "../scale-counts.ts";

const id = (n: number) => `usr_scale_count_${n}`;

describe("scale counters", () => {
  beforeEach(() => {
    snapshot(true);
  });

  it("count a write, a point read, a drizzle select and a batch with D1's own rows", async () => {
    const counted = countedEnv(env, "worker");
    const insert = (n: number) =>
      counted.DB.prepare("INSERT INTO users (id, name, role, created_at) VALUES (?, ?, 'member', ?)").bind(
        id(n),
        `u${n}`,
        Date.now(),
      );
    await insert(1).run();
    let c = snapshot(true).d1.worker;
    expect(c).toMatchObject({ round_trips: 1, statements: 1 });
    expect(c.rows_written).toBeGreaterThanOrEqual(1);

    // first() drops D1's meta; the counter still sees the rows read.
    const row = await counted.DB.prepare("SELECT name FROM users WHERE id = ?").bind(id(1)).first("name");
    expect(row).toBe("u1");
    c = snapshot(true).d1.worker;
    expect(c).toMatchObject({ round_trips: 1, statements: 1, rows_written: 0 });
    expect(c.rows_read).toBeGreaterThanOrEqual(1);

    // drizzle's select goes through raw(): same rows as uncounted, and the rows read are counted.
    const viaDrizzle = await openDb(counted.DB)
      .select()
      .from(users)
      .where(eq(users.id, id(1)));
    const plain = await openDb(env.DB)
      .select()
      .from(users)
      .where(eq(users.id, id(1)));
    expect(viaDrizzle).toEqual(plain);
    c = snapshot(true).d1.worker;
    expect(c.round_trips).toBe(1);
    expect(c.rows_read).toBeGreaterThanOrEqual(1);

    // A batch is one round trip of several statements.
    await counted.DB.batch([insert(2), insert(3)]);
    c = snapshot(true).d1.worker;
    expect(c).toMatchObject({ round_trips: 1, statements: 2 });
    expect(c.rows_written).toBeGreaterThanOrEqual(2);

    // A scan reads every row of the table; a point read by primary key reads one.
    await counted.DB.prepare("SELECT count(*) AS n FROM users WHERE name LIKE 'u%'").first();
    const scan = snapshot(true).d1.worker.rows_read;
    await counted.DB.prepare("SELECT name FROM users WHERE id = ?").bind(id(2)).first();
    const point = snapshot(true).d1.worker.rows_read;
    expect(scan).toBeGreaterThanOrEqual(3);
    expect(point).toBeLessThan(scan);
  });

  it("count the hub's SQLite statements and rows", async () => {
    const stub = env.USER_HUB.get(env.USER_HUB.idFromName("usr_scale_count_hub"));
    await runInDurableObject(stub, (_instance, state) => {
      countHubSql(state.storage);
      state.storage.sql.exec("CREATE TABLE IF NOT EXISTS scale_probe (k TEXT PRIMARY KEY)");
      state.storage.sql.exec("INSERT INTO scale_probe (k) VALUES ('a'), ('b')");
      expect(state.storage.sql.exec("SELECT k FROM scale_probe").toArray()).toHaveLength(2);
    });
    const c = snapshot(true).hub_sql;
    expect(c.statements).toBe(3);
    expect(c.rows_written).toBeGreaterThanOrEqual(2);
    expect(c.rows_read).toBeGreaterThanOrEqual(2);
  });

  it("count the hub's alarm sets, and owe each alarm by how soon it is due until it runs", async () => {
    const stub = env.USER_HUB.get(env.USER_HUB.idFromName("usr_scale_count_alarm"));
    snapshot(true);
    const hubId = await runInDurableObject(stub, async (_instance, state) => {
      const id = state.id.toString();
      trackHubAlarms(state.storage, id);
      await state.storage.setAlarm(Date.now() + 60_000);
      return id;
    });
    let c = snapshot(false);
    expect(c.hub_alarm_sets).toBe(1);
    expect(c.alarms_owed).toMatchObject({ within_15s: 0, within_1h: 1 });
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.setAlarm(Date.now() + 1_000);
    });
    c = snapshot(false);
    expect(c.hub_alarm_sets).toBe(2);
    expect(c.alarms_owed).toMatchObject({ within_15s: 1, within_1h: 0 });
    countHubAlarm(hubId);
    c = snapshot(true);
    expect(c.hub_alarms).toBe(1);
    expect(c.alarms_owed).toMatchObject({ within_15s: 0, within_1h: 0 });
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.setAlarm(Date.now() + 1_000);
      await state.storage.deleteAlarm();
    });
    expect(snapshot(true).alarms_owed).toMatchObject({ within_15s: 0, within_1h: 0 });
  });

  it("count a hub's start and what it runs inside it apart from its later work", async () => {
    const stub = env.USER_HUB.get(env.USER_HUB.idFromName("usr_scale_count_start"));
    snapshot(true);
    await runInDurableObject(stub, async (_instance, state) => {
      countHubStart(state);
      countHubSql(state.storage);
      trackHubAlarms(state.storage, state.id.toString());
      await state.blockConcurrencyWhile(async () => {
        state.storage.sql.exec("CREATE TABLE IF NOT EXISTS scale_start (k TEXT PRIMARY KEY)");
        state.storage.sql.exec("INSERT INTO scale_start (k) VALUES ('a')");
        await state.storage.setAlarm(Date.now() + 3_600_000);
      });
      state.storage.sql.exec("SELECT k FROM scale_start").toArray();
      await state.storage.setAlarm(Date.now() + 7_200_000);
    });
    const c = snapshot(true);
    expect(c.hub_starts).toBe(1);
    expect(c.hub_start_sql.statements).toBe(2);
    expect(c.hub_start_sql.rows_written).toBeGreaterThanOrEqual(1);
    expect(c.hub_start_alarm_sets).toBe(1);
    expect(c.hub_sql.statements).toBe(1);
    expect(c.hub_alarm_sets).toBe(1);
  });
});
