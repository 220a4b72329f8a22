// Persisted grants in D1, cached in the hub: the hub is the only writer of its user's grants.
import { and, eq } from "drizzle-orm";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { grants } from "../db/schema.ts";
import { type GrantScope, pickGrant } from "./grant-match.ts";

export type GrantRow = typeof grants.$inferSelect;

export class GrantStore {
  private cache: GrantRow[] | undefined;
  private readonly db: Db;
  private readonly userId: () => string;

  constructor(db: Db, userId: () => string) {
    this.db = db;
    this.userId = userId;
  }

  async list(): Promise<GrantRow[]> {
    this.cache ??= await this.db.select().from(grants).where(eq(grants.userId, this.userId()));
    return this.cache;
  }

  async match(scope: GrantScope): Promise<GrantRow | undefined> {
    return pickGrant(await this.list(), scope);
  }

  async add(row: Omit<GrantRow, "id" | "userId">): Promise<GrantRow> {
    const full: GrantRow = { ...row, id: newId("grt"), userId: this.userId() };
    await this.db.insert(grants).values(full);
    this.cache = undefined;
    return full;
  }

  async remove(id: string): Promise<GrantRow | undefined> {
    const deleted = await this.db
      .delete(grants)
      .where(and(eq(grants.id, id), eq(grants.userId, this.userId())))
      .returning();
    this.cache = undefined;
    return deleted[0];
  }
}
