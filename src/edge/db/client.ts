// The drizzle handle over the D1 binding.
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof drizzle<typeof schema, D1Database>>;

/**
 * One handle per binding: building one walks the whole schema (drizzle's relational config), which was a
 * measurable part of every request's CPU when each request, hub call and store opened its own. The handle
 * holds nothing but the binding, so sharing it across requests shares no state.
 */
const handles = new WeakMap<D1Database, Db>();

export function openDb(d1: D1Database): Db {
  let db = handles.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    handles.set(d1, db);
  }
  return db;
}
