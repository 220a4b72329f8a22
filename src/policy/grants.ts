// The one grant matcher, used by the companion and the edge alike: which saved or session grants cover
// a call (every judged unit covered for an allow; any unit for a deny; deny beats allow), and which
// grant rules a person's answer creates (the exact units by default, a wider pattern only when picked).
import semver from "semver";
import { execPatternCovers, pathPatternCovers, urlPatternCovers } from "./grant-patterns.ts";
import type { GrantUnit, StoredUnit } from "./grant-units.ts";
import { basename } from "./paths.ts";

export type GrantEffect = "allow" | "deny";
/**
 * `exact`: covers the one unit whose hash it keeps. `prefix`: a wider pattern a person picked.
 * `legacy`: a grant saved before grants were exact; only its deny still counts (read widely).
 */
export type GrantMatchKind = "exact" | "prefix" | "legacy";

export interface GrantRule {
  id: string;
  /** The agent the grant is for (`*`: any agent). */
  agentId: string;
  capability: string;
  match: GrantMatchKind;
  /** exact: the unit as the person saw it (redacted); prefix: the pattern, verbatim; legacy: the old pattern. */
  pattern: string | null;
  /** exact: sha256 of the unit it covers. */
  scopeHash: string | null;
  /** Allow grants re-ask when the agent moves to a new minor version; deny grants hold for every version. */
  versionRange: string | null;
  effect: GrantEffect;
}

export interface GrantSubject {
  agentId: string;
  agentVersion?: string | undefined;
  units: readonly GrantUnit[];
}

export interface GrantHit {
  effect: GrantEffect;
  /** The rule that decided (for an allow, the first of the rules that together cover the call). */
  rule: GrantRule;
}

function legacyDenyCovers(rule: GrantRule, unit: GrantUnit): boolean {
  const p = rule.pattern;
  if (p === null) return true;
  const s = unit.subject;
  if (s?.kind === "argv") return p.endsWith(" *") && basename(s.argv[0] ?? "") === p.slice(0, -2);
  if (s?.kind === "path") return p === "." || (p.endsWith("/**") && s.path.includes(`/${p.slice(0, -3)}/`));
  if (s?.kind === "url") {
    const host = new URL(s.origin).hostname;
    return host === p || (p.startsWith("*.") && (host === p.slice(2) || host.endsWith(p.slice(1))));
  }
  return unit.display === p;
}

/** Whether one rule covers one unit (agent and version are checked by the caller). */
export function ruleCovers(rule: GrantRule, unit: GrantUnit): boolean {
  const s = unit.subject;
  // A command's pattern covers the workspace files named as its operands (`rm *` and the x of `rm -f x`).
  if (rule.match === "prefix" && rule.capability === "exec" && s?.kind === "path" && s.owner !== null)
    return rule.pattern !== null && unit.coverable && execPatternCovers(rule.pattern, s.owner);
  if (rule.capability !== unit.capability) return false;
  if (rule.match === "exact") return rule.scopeHash !== null && rule.scopeHash === unit.hash;
  if (rule.match === "legacy") return rule.effect === "deny" && legacyDenyCovers(rule, unit);
  // A wider allow never covers a unit whose meaning is not static, nor a command with a prefix, a
  // program path or a directory outside the call's.
  if (rule.effect === "allow" && !unit.coverable) return false;
  if (rule.pattern === null || s === null) return false;
  if (s.kind === "argv")
    return (rule.effect === "deny" || s.widen) && execPatternCovers(rule.pattern, s.argv);
  if (s.kind === "path") return pathPatternCovers(rule.pattern, s.path);
  return urlPatternCovers(rule.pattern, s.method, s.origin);
}

/** Grants made for a known version re-ask when the agent moves to a new minor version. */
export function versionRangeFor(version: string | undefined): string | null {
  const parsed = version ? semver.coerce(version) : null;
  return parsed ? `~${parsed.major}.${parsed.minor}.0` : null;
}

export function versionCovers(range: string | null, version: string | undefined): boolean {
  if (range === null) return true;
  const parsed = version ? semver.coerce(version) : null;
  return parsed !== null && semver.satisfies(parsed, range);
}

function applies(rule: GrantRule, subject: GrantSubject): boolean {
  if (rule.agentId !== subject.agentId && rule.agentId !== "*") return false;
  // deny_always stays in force across agent versions.
  return rule.effect === "deny" || versionCovers(rule.versionRange, subject.agentVersion);
}

/**
 * Deny beats allow: a deny rule covering any unit denies the call. An allow needs every unit covered
 * (and coverable); a call with no units is never covered.
 */
export function matchGrants(rules: readonly GrantRule[], subject: GrantSubject): GrantHit | undefined {
  const live = rules.filter((r) => applies(r, subject));
  for (const unit of subject.units) {
    const deny = live.find((r) => r.effect === "deny" && ruleCovers(r, unit));
    if (deny) return { effect: "deny", rule: deny };
  }
  if (subject.units.length === 0) return undefined;
  let first: GrantRule | undefined;
  for (const unit of subject.units) {
    if (!unit.coverable) return undefined;
    const allow = live.find((r) => r.effect === "allow" && ruleCovers(r, unit));
    if (!allow) return undefined;
    first ??= allow;
  }
  return first ? { effect: "allow", rule: first } : undefined;
}

export type NewGrantRule = Omit<GrantRule, "id">;

/**
 * The rules a person's "always"/"session" answer creates for the units they saw: one exact rule per
 * unit, or the one wider `pattern` they picked (which must be among `offeredPatterns`). Allow rules skip
 * units that can never be covered; deny rules keep every unit.
 */
export function rulesForAnswer(
  units: readonly StoredUnit[],
  effect: GrantEffect,
  scope: "session" | "always",
  agent: { id: string; version?: string | undefined },
  pattern?: string,
): NewGrantRule[] {
  // A session grant lives and dies with one agent session; only a saved allow is bound to a version range.
  const versionRange = effect === "allow" && scope === "always" ? versionRangeFor(agent.version) : null;
  const base = { agentId: agent.id, versionRange, effect };
  if (pattern !== undefined) {
    // The unit that offers the pattern itself (an operand only inherits its command's).
    const capability =
      units.find((u) => u.capability === "exec" && u.wider.includes(pattern))?.capability ??
      units[0]?.capability ??
      "tool";
    return [{ ...base, capability, match: "prefix", pattern, scopeHash: null }];
  }
  // "Deny always" on a command denies that command; it does not also deny every file the command named
  // (denying `cat .env > out.txt` must not make every later write to out.txt fail).
  const commands = units.some((u) => u.capability === "exec");
  return units
    .filter((u) => (effect === "deny" ? !commands || u.capability === "exec" : u.coverable))
    .map((u) => ({
      ...base,
      capability: u.capability,
      match: "exact",
      pattern: u.display,
      scopeHash: u.hash,
    }));
}

/** Wider patterns that cover every unit shown (offered as one choice), in the order the first unit offers them. */
export function offeredPatterns(units: readonly StoredUnit[]): string[] {
  const [first, ...rest] = units;
  // Operands carry their command's patterns, so `rm -f x` (a command and a write) still offers `rm *`;
  // a command's pattern (` *`) is never a path's (`/**`), so only an operand can share it.
  const mixed = (u: StoredUnit) => u.capability !== first?.capability && first?.capability !== "exec";
  if (!first || units.some((u) => !u.coverable || mixed(u))) return [];
  return first.wider.filter((p) => rest.every((u) => u.wider.includes(p)));
}
