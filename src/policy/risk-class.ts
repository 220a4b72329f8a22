// Risk classes of a proposed effect (terminal safety spec §4): the one mapping from a call's capability and
// rubric risk to a class, its terminal-spec risk, and whether an approval of one class covers another. The
// proposal gate, conveyor grants and hosted turns decide by these.
import type { Capability, Risk } from "./types.ts";

export type RiskClass = "READ" | "WRITE" | "EXFILTRATION" | "DESTRUCTIVE" | "HIGH";
const CLASS_ORDER: readonly RiskClass[] = ["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"];

/** Tool names that are high-impact whatever their arguments (deploys, releases, deletions). */
const HIGH_IMPACT_NAME = /(deploy|prod|release|publish|delete|destroy|drop|purge|terminate)/i;

/** The one mapping from a call's capability and rubric risk to a class (see docs/policy.md, "Capabilities, risk and classes"). */
export function riskClassOf(tool: string, capability: Capability, risk: Risk): RiskClass {
  switch (capability) {
    case "read":
      return risk === "high" ? "EXFILTRATION" : "READ";
    case "session":
    case "ui":
      return "READ";
    case "write":
      return "WRITE";
    case "http":
      return "EXFILTRATION";
    case "exec":
      // A read-only command is inspection, a workspace write a scoped write (the shell's risk).
      return risk === "low" ? "READ" : risk === "medium" ? "WRITE" : "DESTRUCTIVE";
    case "tool":
      return risk === "high" || HIGH_IMPACT_NAME.test(tool) ? "HIGH" : "WRITE";
  }
}

export const isRiskClass = (value: string): value is RiskClass => CLASS_ORDER.includes(value as RiskClass);

/**
 * Whether what was approved (a person's answer or a grant, for a proposal of class `approved`) still covers the
 * run when its class is judged again at run time: never a higher class than the card showed.
 */
export function approvalCovers(approved: RiskClass, actual: RiskClass): boolean {
  return CLASS_ORDER.indexOf(actual) <= CLASS_ORDER.indexOf(approved);
}

/** Terminal-spec risk of a class: read-only inspection low, scoped writes medium, the rest high. */
export function planRiskOf(cls: RiskClass): Risk {
  if (cls === "READ") return "low";
  if (cls === "WRITE") return "medium";
  return "high";
}

/** The higher of two classes (a plan's category is its highest step's). */
export function higherClass(a: RiskClass, b: RiskClass): RiskClass {
  return CLASS_ORDER.indexOf(b) > CLASS_ORDER.indexOf(a) ? b : a;
}
