// What the daemon keeps in step with the edge besides decisions: the persisted-grant cache, the mirrored account
// policy, the audit queue, and session grants learned from a person's answers.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import type { GrantRule } from "../../policy/grants.ts";
import type { DecisionResponse } from "../../protocol/decisions.ts";
import type { GrantRuleView } from "../../protocol/grants.ts";
import type { Env } from "../cli/config.ts";
import type { AgentToolCall } from "../control/tool-call.ts";
import { flushAudit } from "../deciding/audit-queue.ts";
import { readGrantCache, ruleOfGrant, type SessionGrants, writeGrantCache } from "../deciding/grants.ts";
import type { EdgeClient, Grant } from "../edge/client.ts";
import { accountPolicyPath } from "../local-policy/load.ts";

export class EdgeSync {
  readonly #env: Env;
  readonly #log: (line: string) => void;
  readonly #sessionGrants: SessionGrants;
  #flushing = false;
  edge: EdgeClient | null = null;
  /** Saved grants as last fetched (from disk until the first fetch, so they work offline). */
  grants: Grant[];
  /** The same grants as matcher rules. */
  rules: GrantRule[];

  constructor(env: Env, log: (line: string) => void, sessionGrants: SessionGrants) {
    this.#env = env;
    this.#log = log;
    this.#sessionGrants = sessionGrants;
    this.grants = readGrantCache(env);
    this.rules = this.grants.map(ruleOfGrant);
  }

  async refreshGrants(): Promise<void> {
    if (!this.edge) return;
    try {
      this.grants = await this.edge.grants();
      this.rules = this.grants.map(ruleOfGrant);
      writeGrantCache(this.grants, this.#env);
    } catch {
      // keep the cached list; the edge re-checks grants on every call it sees
    }
  }

  /**
   * The person revoked grants: they stop covering calls here before the next one is judged (the cache on
   * disk too, so a restart offline does not bring them back); then the full list is fetched again.
   */
  revoked(
    ids: readonly string[],
    session: readonly { session_id: string; agent_id: string; rule: GrantRuleView }[],
  ) {
    const gone = new Set(ids);
    if (this.grants.some((g) => gone.has(g.id))) {
      this.grants = this.grants.filter((g) => !gone.has(g.id));
      this.rules = this.grants.map(ruleOfGrant);
      writeGrantCache(this.grants, this.#env);
    }
    for (const s of session) this.#sessionGrants.revoke(s.session_id, s.agent_id, s.rule);
    void this.refreshGrants();
  }

  /** Mirrors the account layer to disk; the policy store notices the file change and recompiles. */
  async refreshAccountPolicy(): Promise<void> {
    if (!this.edge) return;
    try {
      const text = await this.edge.accountPolicy();
      const path = accountPolicyPath(this.#env);
      if (!text.trim()) {
        rmSync(path, { force: true });
        return;
      }
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, text, { mode: 0o600 });
      renameSync(tmp, path);
    } catch {
      // keep the last mirrored copy
    }
  }

  async flushAudit(): Promise<void> {
    const edge = this.edge;
    if (!edge || this.#flushing) return;
    this.#flushing = true;
    try {
      await flushAudit((batch) => edge.postAudit(batch), this.#env);
    } catch (error) {
      this.#log(`audit flush failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#flushing = false;
    }
  }

  /**
   * A person's answer carries the grant rules it created: a session answer's rules become local session
   * grants at once; an always answer refreshes the saved-grant cache.
   */
  async learn(call: AgentToolCall, response: DecisionResponse): Promise<void> {
    const grants = response.grants;
    if (!grants) return;
    if (grants.scope === "session") this.#sessionGrants.add(call.sessionId, call.agent.id, grants.rules);
    else await this.refreshGrants();
  }
}
