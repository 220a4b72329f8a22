// Precognition stats on the wire: what a companion reports (POST /v1/futures/stats), what the dashboard reads
// (GET /v1/futures/stats) and what `airlock futures status --json` prints. Counts only, never contents.
import { z } from "zod";

export const FutureMissReason = z.enum([
  /** Nothing was warmed for this exact call. */
  "no_future",
  /** The file or a causal file changed since the warm. */
  "stale",
  /** An unfingerprinted future outlived its TTL. */
  "expired",
  /** Policy (or an emergency control) did not allow the call without asking at serve time. */
  "policy",
  /** The path guard refused the request (secret, outside, swapped symlink). */
  "guard",
  /** The watcher could not vouch for the tree (barrier timeout, overflow). */
  "watcher",
  /** Precognition or the tool cache is switched off. */
  "disabled",
]);
export type FutureMissReason = z.infer<typeof FutureMissReason>;

const Count = z.number().int().nonnegative();

export const FutureClassStats = z.strictObject({
  /** `read`, `grep`, or a command class such as `bash:npm test`. */
  class: z.string().max(100),
  warms: Count,
  hits: Count,
  misses: z.partialRecord(FutureMissReason, Count),
  /** Validations that found the future out of date (stale, expired, watcher). */
  staleRejections: Count,
  /** Cold time minus served time, summed over hits. */
  savedMs: z.number().nonnegative(),
});
export type FutureClassStats = z.infer<typeof FutureClassStats>;

export const WorkspaceFutureStats = z.strictObject({
  /** A stable, non-reversible id of the workspace path (the path itself stays on the machine). */
  workspaceId: z.string().max(64),
  /** The workspace folder's base name, for display. */
  name: z.string().max(200),
  files: Count,
  futures: Count,
  overflows: Count,
  classes: z.array(FutureClassStats).max(200),
});
export type WorkspaceFutureStats = z.infer<typeof WorkspaceFutureStats>;

export const FuturesStats = z.strictObject({
  enabled: z.boolean(),
  injectionMode: z.enum(["silent-futures", "verified-futures", "cache-index", "full", "off"]),
  toolCache: z.boolean(),
  commandFutures: z.boolean(),
  generatedAt: z.string().max(40),
  workspaces: z.array(WorkspaceFutureStats).max(64),
});
export type FuturesStats = z.infer<typeof FuturesStats>;

/** GET /v1/futures/stats: the latest report of each companion device. */
export const DeviceFuturesStats = z.strictObject({
  deviceId: z.string(),
  receivedAt: z.string(),
  stats: FuturesStats,
});
export type DeviceFuturesStats = z.infer<typeof DeviceFuturesStats>;

export const FuturesStatsList = z.strictObject({ devices: z.array(DeviceFuturesStats) });
export type FuturesStatsList = z.infer<typeof FuturesStatsList>;
