// The drizzle handle over the D1 binding.
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof openDb>;

export function openDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
