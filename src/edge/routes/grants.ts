// Grants: the person's list of every kind (agent calls, proposals, sessions) with what each covers, who
// saved it, when, from which card and when it was last used, and revocation of any of them (approvers
// only). The companion gets the agent-call grants as bare matcher rules, to decide offline.
import { describeConveyorGrant } from "../../policy/conveyor-grants.ts";
import type { GrantRule } from "../../policy/grants.ts";
import type {
  ConveyorGrantView,
  GrantRuleEntry,
  GrantView,
  SessionGrantView,
} from "../../protocol/grants.ts";
import { AnyGrantParams, GrantDeleted, GrantList, GrantRuleList } from "../../protocol/rest.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { conveyorRuleOf, isConveyorGrant, type StoredGrant } from "../hub/grant-store.ts";
import type { ListedSessionGrant } from "../hub/session-grants.ts";
import { apiRoute, json, problem, routeGroup } from "./define.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What an agent-call grant covers, in words. */
function agentCovers(
  g: Pick<GrantRule, "effect" | "capability" | "match" | "pattern" | "agentId" | "versionRange">,
) {
  const verb = g.effect === "allow" ? "Allows" : "Denies";
  const what = g.pattern ?? `any ${g.capability}`;
  const how = g.match === "prefix" ? "anything matching" : g.match === "exact" ? "exactly" : "(legacy)";
  const agent = g.agentId === "*" ? "any agent" : `agent ${g.agentId}`;
  return `${verb} ${g.capability} ${how} ${what} for ${agent}${g.versionRange ? ` ${g.versionRange}` : ""}`;
}

function ruleEntry(g: StoredGrant): GrantRuleEntry {
  return {
    id: g.id,
    agent_id: g.agentId,
    capability: g.capability as GrantRuleEntry["capability"],
    match: g.match,
    scope_pattern: g.scopePattern,
    scope_hash: g.scopeHash,
    version_range: g.versionRange,
    effect: g.effect,
  };
}

const provenance = (g: StoredGrant) => ({
  created_at: new Date(g.createdAt).toISOString(),
  created_by: g.createdByDevice,
  prompt_id: g.promptId,
  last_used_at: iso(g.lastUsedAt),
});

function agentView(g: StoredGrant): GrantView {
  const covers = agentCovers({ ...g, pattern: g.scopePattern });
  return { ...ruleEntry(g), covers, ...provenance(g) };
}

function conveyorView(g: StoredGrant): ConveyorGrantView {
  const rule = conveyorRuleOf(g);
  return {
    id: g.id,
    tool: rule.tool,
    scope: rule.scope,
    risk_class: rule.riskClass,
    identity: rule.identity,
    effect: g.effect,
    covers: describeConveyorGrant(rule),
    ...provenance(g),
  };
}

function sessionView(g: ListedSessionGrant): SessionGrantView {
  const covers = agentCovers({ ...g, agentId: g.agent_id, pattern: g.scope_pattern, versionRange: null });
  return {
    id: g.id,
    session_id: g.session_id,
    agent_id: g.agent_id,
    capability: g.capability,
    scope_pattern: g.scope_pattern,
    covers: `${covers}, in session ${g.session_id} only`,
    created_at: new Date(g.created_at).toISOString(),
    created_by: g.created_by_device,
    prompt_id: g.prompt_id,
    last_used_at: new Date(g.last_used_at).toISOString(),
  };
}

export const grantRoutes = routeGroup()
  .openapi(
    apiRoute("read_grants", {
      method: "get",
      path: "/v1/grants",
      summary: "Every grant of the account: agent calls, proposals, sessions",
      responses: { 200: json("Every grant, each with what it covers and where it came from.", GrantList) },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const { saved, sessions } = await hub.listGrants(caller);
      return c.json(
        {
          grants: saved.filter((g) => !isConveyorGrant(g)).map(agentView),
          conveyor_grants: saved.filter(isConveyorGrant).map(conveyorView),
          session_grants: sessions.map(sessionView),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute("sync_grant_rules", {
      method: "get",
      path: "/v1/grants/rules",
      summary: "Saved agent-call grants as matcher rules (the companion's offline cache)",
      responses: { 200: json("The rules, without who saved them or when.", GrantRuleList) },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const { saved } = await hub.listGrants(caller);
      return c.json({ grants: saved.filter((g) => !isConveyorGrant(g)).map(ruleEntry) }, 200);
    },
  )
  .openapi(
    apiRoute("manage_grants", {
      method: "delete",
      path: "/v1/grants/{id}",
      summary: "Revoke a grant of any kind: the very next matching call or proposal asks again",
      request: { params: AnyGrantParams },
      responses: { 200: json("Revoked.", GrantDeleted), 404: problem("No such grant.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json(unwrap(await hub.deleteGrant(caller, id)), 200);
    },
  );
