// Persisted grants for proposals: "always" on a proposal card saves exactly the scope the card showed
// (the tool's grantScope: a method and host, a command in a directory). Stored in D1 `grants` under the
// agent id "conveyor" and capability "conveyor:<tool>", which no agent call can ever carry.
import { and, eq } from "drizzle-orm";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { grants } from "../db/schema.ts";

export const CONVEYOR_AGENT = "conveyor";
const capabilityOf = (tool: string) => `conveyor:${tool}`;

/** Deny beats allow; only an exact scope covers. */
export async function matchGrant(
  db: Db,
  userId: string,
  tool: string,
  scope: string,
): Promise<"allow" | "deny" | undefined> {
  const rows = await db
    .select({ effect: grants.effect })
    .from(grants)
    .where(
      and(
        eq(grants.userId, userId),
        eq(grants.agentId, CONVEYOR_AGENT),
        eq(grants.capability, capabilityOf(tool)),
        eq(grants.scopePattern, scope),
      ),
    );
  if (rows.some((r) => r.effect === "deny")) return "deny";
  return rows.length ? "allow" : undefined;
}

export async function addGrant(
  db: Db,
  g: {
    userId: string;
    tool: string;
    scope: string;
    effect: "allow" | "deny";
    deviceId: string | null;
    promptId: string | null;
    now: number;
  },
): Promise<void> {
  await db.insert(grants).values({
    id: newId("grt"),
    userId: g.userId,
    agentId: CONVEYOR_AGENT,
    capability: capabilityOf(g.tool),
    scopePattern: g.scope,
    versionRange: null,
    effect: g.effect,
    createdAt: g.now,
    createdByDevice: g.deviceId,
    promptId: g.promptId,
  });
}
