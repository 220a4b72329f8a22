// Types of what TypeScript callers (test/e2e/scale-cold-hubs.test.ts) use of the scale benches' harness.

export interface ScaleUser {
  userId: string;
  grantDecision(): Promise<void>;
}

export interface ScaleEdge {
  /** The counts since the last reset (a new window when `reset`). */
  counts(reset?: boolean): Promise<unknown>;
  /** Resets these users' hubs: their next request constructs them again, cold. */
  coldHubs(users: readonly ScaleUser[]): Promise<void>;
  stop(): Promise<void>;
}

export function startScaleEdge(users: number, options?: { stateRoot?: string }): Promise<ScaleEdge>;

export function seededUsers(
  scale: ScaleEdge,
  count: number,
  prefix: string,
  history: { audit: number; proposals: number; jobs: number },
): Promise<ScaleUser[]>;

export function pool<T>(tasks: readonly (() => Promise<T>)[], inFlight: number): Promise<T[]>;
