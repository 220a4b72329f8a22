// What a unit of work costs the platform, counted inside workerd for the scale benches (bench/scale): D1 round
// trips, statements and the rows D1 itself reports read and written (its `meta`, what Cloudflare bills), the
// hub's SQLite statements and rows, Durable Object requests, Workflow instances and steps, and fetches that
// leave the isolate. Test-only: installed by test/edge/scale-entry.ts, never by the production entry.

/** Where a cost was paid: the stateless Worker, a user's hub (Durable Object), or a hosted turn (Workflow). */
export type Origin = "worker" | "hub" | "workflow";

interface D1Counts {
  /** One binding call (a statement run alone, a batch or an exec) = one round trip to the database. */
  round_trips: number;
  statements: number;
  rows_read: number;
  rows_written: number;
}

export interface ScaleCounts {
  /** This module instance's id: a changed id between two reads means workerd reloaded and the counts restarted. */
  boot: string;
  d1: Record<Origin, D1Counts>;
  /** Calls into a UserHub (RPC methods and fetch, counted at the caller's stub), by the caller. */
  hub_requests: Record<Origin, number>;
  /** Work the platform starts in a hub without a caller: alarms and websocket messages. */
  hub_alarms: number;
  /** Times a hub set (or moved) its alarm: each is a storage write of the alarm in the object. */
  hub_alarm_sets: number;
  hub_socket_messages: number;
  /** The hub's own SQLite (`ctx.storage.sql`): statements and rows from each cursor. */
  hub_sql: { statements: number; rows_read: number; rows_written: number };
  /**
   * Hubs started (constructed: first use, or again after the runtime evicted an idle one), and what their start
   * ran (its blockConcurrencyWhile: schema checks, the alarm armed): counted apart from hub_sql and
   * hub_alarm_sets, because how often an idle hub is evicted follows idle time, not the work.
   */
  hub_starts: number;
  hub_start_sql: { statements: number; rows_read: number; rows_written: number };
  hub_start_alarm_sets: number;
  /** Statements with a join read through `raw()`: their rows_read is the rows returned (a lower bound). */
  d1_raw_statements: number;
  workflow: { instances: number; steps: number; sleeps: number; waits: number };
  /** `fetch` to anything outside this isolate (model provider, connectors, conveyor targets, push). */
  subrequests: number;
}

const d1Zero = (): D1Counts => ({ round_trips: 0, statements: 0, rows_read: 0, rows_written: 0 });
// Made on first use: workerd forbids random values in global scope.
let bootId: string | undefined;
const zero = (): ScaleCounts => ({
  boot: "",
  d1: { worker: d1Zero(), hub: d1Zero(), workflow: d1Zero() },
  hub_requests: { worker: 0, hub: 0, workflow: 0 },
  hub_alarms: 0,
  hub_alarm_sets: 0,
  hub_socket_messages: 0,
  hub_sql: { statements: 0, rows_read: 0, rows_written: 0 },
  hub_starts: 0,
  hub_start_sql: { statements: 0, rows_read: 0, rows_written: 0 },
  hub_start_alarm_sets: 0,
  d1_raw_statements: 0,
  workflow: { instances: 0, steps: 0, sleeps: 0, waits: 0 },
  subrequests: 0,
});

// One isolate serves the Worker, every hub and every turn under `wrangler dev`: module state sees them all.
let counts = zero();
/** Cursors whose rows are counted when read: a cursor's figures are final only once it has been consumed. */
let openCursors: { cursor: SqlStorageCursor<Record<string, SqlStorageValue>>; start: boolean }[] = [];

function settleCursors(): void {
  for (const { cursor, start } of openCursors) {
    const into = start ? counts.hub_start_sql : counts.hub_sql;
    into.rows_read += cursor.rowsRead;
    into.rows_written += cursor.rowsWritten;
  }
  openCursors = [];
}

/** Storage of hubs inside their start (the constructor's blockConcurrencyWhile). */
const starting = new Set<DurableObjectStorage>();

/** Counts a hub's start, and marks its storage as starting while the start's blockConcurrencyWhile runs. */
export function countHubStart(ctx: DurableObjectState): void {
  counts.hub_starts++;
  const block = ctx.blockConcurrencyWhile.bind(ctx);
  const storage = ctx.storage;
  ctx.blockConcurrencyWhile = <T>(fn: () => Promise<T>) =>
    block(async () => {
      starting.add(storage);
      try {
        return await fn();
      } finally {
        starting.delete(storage);
      }
    });
}

/**
 * Drops a hub's instance (its in-memory state; its storage and alarm stay), as the runtime does when it evicts an
 * idle hub: the hub's next request constructs it again and refills what it keeps in memory from SQLite. The
 * simulator starts every window with every hub cold this way, so a window's units see the same hub state at
 * every N, however long the window ran (workerd evicts a hub idle for 10 s; at 1,000 users most hubs idle
 * longer than that between two windows, at 10 users none). Throws, by design (`ctx.abort`).
 */
export function evictHub(ctx: DurableObjectState): never {
  ctx.abort("scale: hub reset for a cold window");
  throw new Error("ctx.abort returned");
}

/** Each hub's alarm as last set, by object id, until it runs or is deleted: the timed work hubs still owe. */
const armed = new Map<string, number>();

/** How many hubs have an alarm set, by how soon it is due (one overdue and not yet run counts as soon). */
export interface AlarmsOwed {
  within_15s: number;
  within_1h: number;
  later: number;
}

function alarmsOwed(now: number): AlarmsOwed {
  const owed: AlarmsOwed = { within_15s: 0, within_1h: 0, later: 0 };
  for (const at of armed.values()) {
    if (at <= now + 15_000) owed.within_15s++;
    else if (at <= now + 3_600_000) owed.within_1h++;
    else owed.later++;
  }
  return owed;
}

/** The counts since the last reset (`reset` starts a new window), and the hubs' alarms still owed now. */
export function snapshot(reset = false): ScaleCounts & { alarms_owed: AlarmsOwed } {
  settleCursors();
  const taken = structuredClone(counts);
  taken.boot = bootId ??= crypto.randomUUID();
  if (reset) counts = zero();
  return { ...taken, alarms_owed: alarmsOwed(Date.now()) };
}

interface Meta {
  rows_read?: number;
  rows_written?: number;
}

function addMeta(origin: Origin, meta: Meta | undefined): void {
  const into = counts.d1[origin];
  into.rows_read += meta?.rows_read ?? 0;
  into.rows_written += meta?.rows_written ?? 0;
}

/**
 * `raw()` (drizzle's selects and RETURNING) drops D1's meta. Without a join every column name is distinct, so the
 * same rows come from `all()`, meta included, in column order; with a join a name may repeat and `all()` would
 * merge columns: those run as `raw()` and count the rows they return (a lower bound of the rows read).
 */
const JOIN = /\bjoin\b/i;

type Statement = D1PreparedStatement;
const realOf = new WeakMap<object, Statement>();

function countingStatement(real: Statement, sql: string, origin: Origin): Statement {
  const trip = () => {
    counts.d1[origin].round_trips++;
    counts.d1[origin].statements++;
  };
  const wrapped = {
    bind: (...values: unknown[]) => countingStatement(real.bind(...values), sql, origin),
    async all<T>() {
      trip();
      const result = await real.all<T>();
      addMeta(origin, result.meta);
      return result;
    },
    async run<T>() {
      trip();
      const result = await real.run<T>();
      addMeta(origin, result.meta);
      return result;
    },
    async first<T>(column?: string) {
      trip();
      const result = await real.all<Record<string, unknown>>();
      addMeta(origin, result.meta);
      const row = result.results[0];
      if (row === undefined) return null;
      return (column === undefined ? row : (row[column] ?? null)) as T;
    },
    async raw<T>(options?: { columnNames?: boolean }) {
      trip();
      if (options?.columnNames || JOIN.test(sql)) {
        const rows = (await real.raw(options as { columnNames: true })) as unknown[];
        counts.d1[origin].rows_read += rows.length;
        counts.d1_raw_statements++;
        return rows as T[];
      }
      const result = await real.all<Record<string, unknown>>();
      addMeta(origin, result.meta);
      return result.results.map((row) => Object.values(row)) as T[];
    },
  };
  realOf.set(wrapped, real);
  return wrapped as unknown as Statement;
}

/** The D1 binding, counted: one round trip per statement run alone, per batch and per exec; rows from D1's meta. */
function countingD1(db: D1Database, origin: Origin): D1Database {
  const wrapped = {
    prepare: (sql: string) => countingStatement(db.prepare(sql), sql, origin),
    async batch<T>(statements: Statement[]) {
      counts.d1[origin].round_trips++;
      counts.d1[origin].statements += statements.length;
      const results = await db.batch<T>(statements.map((s) => realOf.get(s) ?? s));
      for (const r of results) addMeta(origin, r.meta);
      return results;
    },
    async exec(sql: string) {
      counts.d1[origin].round_trips++;
      counts.d1[origin].statements += sql.split(";").filter((x) => x.trim()).length;
      return db.exec(sql);
    },
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => db.dump(),
  };
  return wrapped as unknown as D1Database;
}

/** A hub namespace whose stubs count each call into the hub. */
function countingHubs<N extends object>(ns: N, origin: Origin): N {
  const stub = (s: object) =>
    new Proxy(s, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== "function" || key === "then") return value;
        return (...args: unknown[]) => {
          counts.hub_requests[origin]++;
          // Reflect.apply, not value.apply: an RPC stub's properties answer any name, `apply` included.
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      },
    });
  return new Proxy(ns, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key === "get" || key === "getByName")
        return (...args: unknown[]) =>
          stub(Reflect.apply(value as (...a: unknown[]) => object, target, args));
      return (...a: unknown[]) => Reflect.apply(value as (...a: unknown[]) => unknown, target, a);
    },
  });
}

/** A Workflow binding that counts the instances created. */
function countingWorkflows(wf: Workflow): Workflow {
  return new Proxy(wf, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key === "create")
        return (...args: unknown[]) => {
          counts.workflow.instances++;
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      if (key === "createBatch")
        return (batch: unknown[]) => {
          counts.workflow.instances += batch.length;
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, [batch]);
        };
      return (...a: unknown[]) => Reflect.apply(value as (...a: unknown[]) => unknown, target, a);
    },
  });
}

/** The same env with D1, hub calls and Workflow instances counted, for code at `origin`. */
export function countedEnv(env: Env, origin: Origin): Env {
  return {
    ...env,
    DB: countingD1(env.DB, origin),
    USER_HUB: countingHubs(env.USER_HUB, origin),
    TURN_WORKFLOW: countingWorkflows(env.TURN_WORKFLOW),
  };
}

/** Counts the hub's SQLite statements (in place) and keeps their cursors for the row figures. */
export function countHubSql(storage: DurableObjectStorage): void {
  const sql = storage.sql as SqlStorage & { __scaleCounted?: boolean };
  if (sql.__scaleCounted) return;
  sql.__scaleCounted = true;
  const exec = sql.exec.bind(sql);
  sql.exec = ((query: string, ...bindings: unknown[]) => {
    const start = starting.has(storage);
    (start ? counts.hub_start_sql : counts.hub_sql).statements++;
    const cursor = exec(query, ...bindings);
    openCursors.push({ cursor, start });
    // Long runs would hold every cursor: settle the consumed ones now and then.
    if (openCursors.length > 10_000) settleCursors();
    return cursor;
  }) as SqlStorage["exec"];
}

/** Counts each time the hub sets its alarm, and remembers the time until the alarm runs or is deleted. */
export function trackHubAlarms(storage: DurableObjectStorage, hubId: string): void {
  const setAlarm = storage.setAlarm.bind(storage);
  const deleteAlarm = storage.deleteAlarm.bind(storage);
  storage.setAlarm = (at, options) => {
    if (starting.has(storage)) counts.hub_start_alarm_sets++;
    else counts.hub_alarm_sets++;
    armed.set(hubId, typeof at === "number" ? at : at.getTime());
    return setAlarm(at, options);
  };
  storage.deleteAlarm = (options) => {
    armed.delete(hubId);
    return deleteAlarm(options);
  };
}

/** An alarm runs: counted, and no longer owed (what it sets next is). */
export const countHubAlarm = (hubId: string) => {
  counts.hub_alarms++;
  armed.delete(hubId);
};
export const countHubSocketMessage = () => {
  counts.hub_socket_messages++;
};

/** A Workflow step object whose durable steps, sleeps and event waits are counted. */
export function countingStep<S extends object>(step: S): S {
  return new Proxy(step, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (key === "do") counts.workflow.steps++;
        else if (key === "sleep" || key === "sleepUntil") counts.workflow.sleeps++;
        else if (key === "waitForEvent") counts.workflow.waits++;
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

/** Every global `fetch` (D1 and Durable Object calls go through their bindings, not this). */
export function countFetches(): void {
  const g = globalThis as { fetch: typeof fetch; __scaleCounted?: boolean };
  if (g.__scaleCounted) return;
  g.__scaleCounted = true;
  const original = g.fetch;
  g.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    counts.subrequests++;
    return original(input, init);
  }) as typeof fetch;
}
