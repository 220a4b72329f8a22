// The companion's grants: saved grants (GET /v1/grants, kept on disk for offline use) and the session
// grants it learns from the edge's answers, both as rules of the one matcher in src/policy/grants.ts.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { GrantRule } from "../../policy/grants.ts";
import { GrantRuleEntry, type GrantRuleView } from "../../protocol/grants.ts";
import { type Env, stateDir } from "../cli/config.ts";

/** A saved grant from the edge as a matcher rule. */
export function ruleOfGrant(g: GrantRuleEntry): GrantRule {
  return {
    id: g.id,
    agentId: g.agent_id,
    capability: g.capability,
    match: g.match,
    pattern: g.scope_pattern,
    scopeHash: g.scope_hash,
    versionRange: g.version_range ?? null,
    effect: g.effect,
  };
}

/** allow_session grants the edge created for a session, learned from its decisions. */
export class SessionGrants {
  readonly #bySession = new Map<string, GrantRule[]>();
  #next = 0;

  add(sessionId: string, agentId: string, rules: readonly GrantRuleView[]): void {
    const list = this.#bySession.get(sessionId) ?? [];
    for (const r of rules) {
      list.push({
        id: `session:${sessionId}:${++this.#next}`,
        agentId,
        capability: r.capability,
        match: r.match,
        pattern: r.pattern,
        scopeHash: r.scope_hash,
        versionRange: null,
        effect: r.effect,
      });
    }
    this.#bySession.set(sessionId, list);
  }

  rules(sessionId: string, agentId: string): GrantRule[] {
    return (this.#bySession.get(sessionId) ?? []).filter((r) => r.agentId === agentId);
  }

  /** Drops the rules the person revoked (the edge says which by session, agent and rule). */
  revoke(sessionId: string, agentId: string, rule: GrantRuleView): number {
    const list = this.#bySession.get(sessionId) ?? [];
    const kept = list.filter(
      (r) =>
        r.agentId !== agentId ||
        r.capability !== rule.capability ||
        r.match !== rule.match ||
        r.pattern !== rule.pattern ||
        r.scopeHash !== rule.scope_hash ||
        r.effect !== rule.effect,
    );
    this.#bySession.set(sessionId, kept);
    return list.length - kept.length;
  }

  endSession(sessionId: string): number {
    const n = this.#bySession.get(sessionId)?.length ?? 0;
    this.#bySession.delete(sessionId);
    return n;
  }

  get size(): number {
    let n = 0;
    for (const rules of this.#bySession.values()) n += rules.length;
    return n;
  }
}

const GrantFile = z.object({ fetched_at: z.string(), grants: z.array(GrantRuleEntry) });

export function grantCachePath(env: Env = process.env): string {
  return join(stateDir(env), "grants.json");
}

/** The last saved-grant list the daemon fetched; empty when there is none or it is unreadable. */
export function readGrantCache(env: Env = process.env): GrantRuleEntry[] {
  try {
    const parsed = GrantFile.safeParse(JSON.parse(readFileSync(grantCachePath(env), "utf8")));
    return parsed.success ? parsed.data.grants : [];
  } catch {
    return [];
  }
}

export function writeGrantCache(grants: readonly GrantRuleEntry[], env: Env = process.env): void {
  const path = grantCachePath(env);
  mkdirSync(stateDir(env), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ fetched_at: new Date().toISOString(), grants }), { mode: 0o600 });
  renameSync(tmp, path);
}
