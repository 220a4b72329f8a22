// Emergency controls: read-only mode, no high-impact calls, blocked tools. Applied last, after
// every rule and grant, so nothing can loosen them; every change is an audit event.
import { z } from "zod";
import { canonicalToolName } from "./tool-names.ts";
import type { DecisionRecord, EmergencyControls } from "./types.ts";

export const EmergencyControlsSchema = z.strictObject({
  readOnly: z.boolean(),
  disableHighImpact: z.boolean(),
  blockedTools: z.array(z.string().min(1)),
});

export const NO_EMERGENCY: EmergencyControls = {
  readOnly: false,
  disableHighImpact: false,
  blockedTools: [],
};

/**
 * `deploy.prod` matches itself; a trailing `*` matches a prefix (`mcp__github__*`). Names go through the
 * tool-name table on both sides, so blocking `Bash` blocks the shell whichever agent calls it.
 */
export function toolBlocked(tool: string, blocked: readonly string[]): string | undefined {
  const names = new Set([tool, canonicalToolName(tool)]);
  return blocked.find((b) => {
    const entries = new Set([b, canonicalToolName(b)]);
    for (const entry of entries)
      for (const name of names)
        if (entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : name === entry) return true;
    return false;
  });
}

export function applyEmergency(record: DecisionRecord, emergency: EmergencyControls): DecisionRecord {
  // Hidden is already the strictest answer; keep the tool invisible.
  if (record.action === "hidden") return record;
  let rule: string | null = null;
  let reason = "";
  const blocked = toolBlocked(record.tool, emergency.blockedTools);
  if (blocked !== undefined) {
    rule = "emergency: blocked tool";
    reason = `emergency control: tool ${record.tool} is blocked (${blocked})`;
  } else if (emergency.readOnly && record.capability !== "read") {
    rule = "emergency: read-only mode";
    reason = `emergency control: read-only mode denies ${record.capability}`;
  } else if (emergency.disableHighImpact && record.risk === "high") {
    rule = "emergency: high-impact disabled";
    reason = "emergency control: high-impact calls are disabled";
  }
  if (rule === null) return record;
  const { message: _dropped, headless: _person, ...rest } = record;
  return { ...rest, action: "deny", layer: "emergency", rule, reasons: [reason, ...record.reasons] };
}

export interface EmergencyAuditEvent {
  type: "emergency.changed";
  control: "readOnly" | "disableHighImpact" | "blockedTools";
  from: boolean | string[];
  to: boolean | string[];
  actor: string;
  at: string;
}

/** One audit event per control that changed between two states. */
export function emergencyAuditEvents(
  before: EmergencyControls,
  after: EmergencyControls,
  actor: string,
  at: Date,
): EmergencyAuditEvent[] {
  const events: EmergencyAuditEvent[] = [];
  const stamp = at.toISOString();
  if (before.readOnly !== after.readOnly) {
    events.push({
      type: "emergency.changed",
      control: "readOnly",
      from: before.readOnly,
      to: after.readOnly,
      actor,
      at: stamp,
    });
  }
  if (before.disableHighImpact !== after.disableHighImpact) {
    events.push({
      type: "emergency.changed",
      control: "disableHighImpact",
      from: before.disableHighImpact,
      to: after.disableHighImpact,
      actor,
      at: stamp,
    });
  }
  const b = [...new Set(before.blockedTools)].sort();
  const a = [...new Set(after.blockedTools)].sort();
  if (b.join("\u0000") !== a.join("\u0000")) {
    events.push({ type: "emergency.changed", control: "blockedTools", from: b, to: a, actor, at: stamp });
  }
  return events;
}
