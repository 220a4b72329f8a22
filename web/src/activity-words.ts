// An Activity row as a sentence a person reads ("claude-code asked to run commands: bash — denied by Pixel 8"), with
// the call it was about, instead of the event's name (`policy.decision`). Every untrusted part is made visible first.
import { visibleText } from "../../src/policy/shown-call.ts";
import type { AuditEvent } from "../../src/protocol/audit.ts";
import { shortText } from "./labels.ts";

const capabilityVerb: Record<string, string> = {
  read: "read files",
  write: "write files",
  exec: "run commands",
  http: "reach the network",
  session: "use session data",
  ui: "ask you something",
  tool: "use a tool",
};

const answerWords: Record<string, string> = {
  allow: "allowed",
  allow_permissive: "allowed (permissive mode)",
  allow_once: "allowed once",
  allow_session: "allowed for the session",
  allow_always: "always allowed",
  deny: "denied",
  deny_once: "denied",
  deny_always: "always denied",
};

function text(event: AuditEvent, key: string): string {
  const value = event.details[key];
  return typeof value === "string" || typeof value === "number" ? visibleText(String(value)) : "";
}

/** Who acted: a device by its name, a companion's local policy, or the edge's policy. */
function whoOf(event: AuditEvent, nameOf: (id: string | null) => string): string {
  if (event.actor.startsWith("device:")) return nameOf(event.device_id);
  // A companion reports what its local policy answered without asking.
  if (event.actor.startsWith("companion:")) return `the local policy on ${nameOf(event.device_id)}`;
  if (event.actor === "policy" || text(event, "source") === "policy") return "policy";
  return visibleText(event.actor);
}

/** The call an event was about: tool and what it touched, when the record names them. */
function callOf(event: AuditEvent): string {
  const tool = text(event, "tool");
  const what =
    text(event, "summary") || text(event, "scope") || text(event, "command") || text(event, "path");
  const parts = [tool, what].filter(Boolean).join(" ");
  return parts ? `: ${shortText(parts, 80)}` : "";
}

export function activitySentence(event: AuditEvent, nameOf: (id: string | null) => string): string {
  const agent = visibleText(event.agent_id ?? text(event, "agent_id")) || "an agent";
  const risk = text(event, "risk");
  const riskNote = risk ? ` (${risk} risk)` : "";
  switch (event.event) {
    case "policy.decision": {
      const decision = event.decision ?? text(event, "decision");
      const asked = `${agent} asked to ${capabilityVerb[text(event, "capability")] ?? "act"}${callOf(event)}`;
      if (decision === "deny_timeout") return `${asked} — denied: nobody answered in time${riskNote}`;
      if (decision === "abandoned") return `${asked} — withdrawn: the agent stopped waiting`;
      const answer = answerWords[decision] ?? visibleText(decision);
      return `${asked} — ${answer} by ${whoOf(event, nameOf)}${riskNote}`;
    }
    case "grant.created":
      return `${whoOf(event, nameOf)} saved a grant for ${agent}${callOf(event)}`;
    case "grant.used":
      return `A saved grant covered ${agent}${callOf(event)}`;
    case "approval.confirmation_refused":
      return `A high-risk allow for ${agent} was refused: it was not confirmed`;
    case "job.created":
      return `A job was started: ${visibleText(text(event, "title")) || event.target || "untitled"}`;
    case "schedule.fired":
      return `A schedule started a job${event.target ? ` (${visibleText(event.target)})` : ""}`;
    case "push.subscribed":
      return `Notifications were turned on for ${nameOf(event.device_id)}`;
    case "auth.device_paired":
      return `A device was paired${event.target ? `: ${nameOf(event.target)}` : ""}`;
    case "auth.device_revoked":
      return `A device was removed${event.target ? `: ${nameOf(event.target)}` : ""}`;
    default: {
      // An event without its own sentence: its name in words, and the call when the record names one.
      const words = event.event.replace(/^auth\./, "").replaceAll(/[._]/g, " ");
      const who = event.actor.startsWith("device:") ? `${nameOf(event.device_id)}: ` : "";
      return `${who}${words.charAt(0).toUpperCase()}${words.slice(1)}${callOf(event)}`;
    }
  }
}
