// Pure grant logic: which scope pattern a decision grants, and whether a grant covers a call.
import semver from "semver";

export interface GrantScope {
  agentId: string;
  agentVersion?: string | undefined;
  capability: string;
  group: string;
}

export interface GrantLike {
  agentId: string;
  capability: string;
  scopePattern: string | null;
  versionRange: string | null;
  effect: "allow" | "deny";
}

/**
 * The pattern an always/session decision stores, from the prompt's scope group. Path groups are already
 * patterns (`src/**`, `.` for the project root); exec stores `git *`; http the host; others the operation.
 */
export function scopePatternFor(capability: string, group: string): string {
  if (capability === "exec") return group === "<dynamic>" ? group : `${group} *`;
  return group;
}

export function patternCovers(pattern: string | null, capability: string, group: string): boolean {
  if (pattern === null) return true;
  if (group === "<dynamic>" || pattern === "<dynamic>") return false;
  if (capability === "exec") return pattern === `${group} *`;
  if (capability === "http" && pattern.startsWith("*.")) {
    return group === pattern.slice(2) || group.endsWith(pattern.slice(1));
  }
  return pattern === group;
}

/** Grants made for a known version re-prompt when the agent moves to a new minor version. */
export function versionRangeFor(version: string | undefined): string | null {
  const parsed = version ? semver.coerce(version) : null;
  return parsed ? `~${parsed.major}.${parsed.minor}.0` : null;
}

export function versionCovers(range: string | null, version: string | undefined): boolean {
  if (range === null) return true;
  const parsed = version ? semver.coerce(version) : null;
  return parsed !== null && semver.satisfies(parsed, range);
}

export function grantCovers(grant: GrantLike, scope: GrantScope): boolean {
  return (
    grant.agentId === scope.agentId &&
    grant.capability === scope.capability &&
    patternCovers(grant.scopePattern, scope.capability, scope.group) &&
    versionCovers(grant.versionRange, scope.agentVersion)
  );
}

/** Deny beats allow: any covering deny grant wins over every covering allow grant. */
export function pickGrant<G extends GrantLike>(grants: G[], scope: GrantScope): G | undefined {
  const covering = grants.filter((g) => grantCovers(g, scope));
  return covering.find((g) => g.effect === "deny") ?? covering.find((g) => g.effect === "allow");
}
