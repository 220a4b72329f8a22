// Grant matching for the companion's caches: persisted grants (from GET /v1/grants, kept on disk for offline use)
// and session grants learned from the edge's answers. Pure matching plus one small JSON file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { type Env, stateDir } from "./config.ts";
import { Grant } from "./edge-client.ts";

/** The parts of a decision record grants are matched on. */
export interface GrantSubject {
  capability: string;
  scope: { summary: string; group: string };
}

export interface GrantHit {
  effect: "allow" | "deny";
  source: "grant" | "session_grant";
  id: string;
  pattern: string | null;
}

/** Glob of a scope pattern: `*` is any run of characters, `**` too; `*.github.com` also matches `github.com`. */
export function scopeMatches(pattern: string | null, summary: string, group: string): boolean {
  if (pattern === null || pattern === "" || pattern === "*" || pattern === "**") return true;
  if (pattern === summary || pattern === group) return true;
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*+/g, ".*");
  const re = new RegExp(`^${escaped}$`, "s");
  if (re.test(summary) || re.test(group)) return true;
  return pattern.startsWith("*.") && group === pattern.slice(2);
}

/** Deny grants win over allow grants, as the edge's own matching does. */
export function matchGrant(
  grants: readonly Grant[],
  agentId: string,
  record: GrantSubject,
): GrantHit | undefined {
  let allow: GrantHit | undefined;
  for (const g of grants) {
    if (g.agent_id !== agentId && g.agent_id !== "*") continue;
    if (g.capability !== record.capability) continue;
    if (!scopeMatches(g.scope_pattern, record.scope.summary, record.scope.group)) continue;
    const hit: GrantHit = { effect: g.effect, source: "grant", id: g.id, pattern: g.scope_pattern };
    if (g.effect === "deny") return hit;
    allow ??= hit;
  }
  return allow;
}

/** allow_session grants: (session, agent, capability, scope group) the person allowed for this session. */
export class SessionGrants {
  readonly #bySession = new Map<string, Set<string>>();

  static key(agentId: string, record: GrantSubject): string {
    return `${agentId}\u0000${record.capability}\u0000${record.scope.group}`;
  }

  add(sessionId: string, agentId: string, record: GrantSubject): void {
    const keys = this.#bySession.get(sessionId) ?? new Set<string>();
    keys.add(SessionGrants.key(agentId, record));
    this.#bySession.set(sessionId, keys);
  }

  match(sessionId: string, agentId: string, record: GrantSubject): GrantHit | undefined {
    return this.#bySession.get(sessionId)?.has(SessionGrants.key(agentId, record))
      ? { effect: "allow", source: "session_grant", id: `session:${sessionId}`, pattern: record.scope.group }
      : undefined;
  }

  endSession(sessionId: string): number {
    const n = this.#bySession.get(sessionId)?.size ?? 0;
    this.#bySession.delete(sessionId);
    return n;
  }

  get size(): number {
    let n = 0;
    for (const keys of this.#bySession.values()) n += keys.size;
    return n;
  }
}

const GrantFile = z.object({ fetched_at: z.string(), grants: z.array(Grant) });

export function grantCachePath(env: Env = process.env): string {
  return join(stateDir(env), "grants.json");
}

/** The last persisted-grant list the daemon fetched; empty when there is none or it is unreadable. */
export function readGrantCache(env: Env = process.env): Grant[] {
  try {
    const parsed = GrantFile.safeParse(JSON.parse(readFileSync(grantCachePath(env), "utf8")));
    return parsed.success ? parsed.data.grants : [];
  } catch {
    return [];
  }
}

export function writeGrantCache(grants: readonly Grant[], env: Env = process.env): void {
  const path = grantCachePath(env);
  mkdirSync(stateDir(env), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ fetched_at: new Date().toISOString(), grants }), { mode: 0o600 });
  renameSync(tmp, path);
}
