// Precognition stats as GET /v1/futures/stats answers them (src/protocol/futures.ts), read loosely so a companion
// newer than this dashboard may add fields, and the totals a workspace row shows.
import { z } from "zod";

const Count = z.number().nonnegative().catch(0);
const ClassStats = z.object({
  class: z.string(),
  warms: Count,
  hits: Count,
  misses: z.record(z.string(), z.number()).catch({}),
  staleRejections: Count,
  savedMs: Count,
});
const Workspace = z.object({
  workspaceId: z.string(),
  name: z.string(),
  files: Count,
  futures: Count,
  classes: z.array(ClassStats).catch([]),
});
/** Read loosely: a companion newer than this dashboard may add fields. */
export const FuturesStatsList = z.object({
  devices: z.array(
    z.object({
      deviceId: z.string(),
      receivedAt: z.string(),
      stats: z.object({
        enabled: z.boolean().catch(true),
        injectionMode: z.string().catch("unknown"),
        workspaces: z.array(Workspace).catch([]),
      }),
    }),
  ),
});
export type WorkspaceStats = z.infer<typeof Workspace>;

export function totals(workspace: WorkspaceStats) {
  const sum = (pick: (c: WorkspaceStats["classes"][number]) => number) =>
    workspace.classes.reduce((n, c) => n + pick(c), 0);
  const misses = sum((c) => Object.values(c.misses).reduce((a, b) => a + b, 0));
  return {
    hits: sum((c) => c.hits),
    misses,
    stale: sum((c) => c.staleRejections),
    savedMs: sum((c) => c.savedMs),
  };
}
