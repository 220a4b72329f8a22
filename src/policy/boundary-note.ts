// The short system-prompt note that tells the model the live boundaries before it plans, so it
// does not waste turns on calls that will be refused (pi.hitl's "boundary note").
import type { CompiledPolicy } from "./compiled.ts";
import type { FlatRule } from "./rule-tree.ts";

function allRules(policy: CompiledPolicy): FlatRule[] {
  return [...(policy.account?.rules ?? []), ...policy.local.rules, ...(policy.project?.rules ?? [])];
}

function mentions(rule: FlatRule, re: RegExp): boolean {
  return rule.conditions.some((c) => re.test(c.source));
}

export function boundaryNote(policy: CompiledPolicy): string {
  const rules = allRules(policy);
  const notes: string[] = [];
  if (rules.some((r) => mentions(r, /path\.startsWith\(\s*cwd\s*\)/))) {
    notes.push("file access is limited to the project directory; use paths inside it");
  }
  const shell = rules.filter(
    (r) => mentions(r, /tool\s*==\s*["']bash["']|\bcommand\b/) || r.guard.tools?.has("bash"),
  );
  if (shell.length > 0) {
    const restricted = shell.some((r) => r.action !== "allow") || policy.defaultAction !== "allow";
    if (restricted) {
      notes.push(
        "shell commands are checked one by one (every part of a pipeline, chain or substitution); some need approval and some are refused, so prefer simple commands",
      );
    }
  }
  if (rules.some((r) => r.guard.tools?.has("webfetch") || mentions(r, /webfetch|args\.url/))) {
    notes.push("web access is restricted");
  }
  if (rules.length > 0 || policy.defaultAction !== "allow") {
    if (policy.defaultAction === "deny") notes.push("anything not explicitly allowed is refused");
    else if (policy.defaultAction === "ask")
      notes.push("anything not explicitly allowed needs a person's approval");
  }
  if (notes.length === 0) return "";
  return `Airlock policy: ${notes.join("; ")}.`;
}
