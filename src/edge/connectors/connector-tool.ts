// What every connector tool shares: opening the call's connection (its identity's, never the other's), the
// shape of an executed read (labelled untrusted: mail, issues and search results are someone else's
// words), and the argument schemas a card shows verbatim.
import { z } from "zod";
import type { RiskClass } from "../../policy/risk-class.ts";
import type { ToolContext, ToolOutcome } from "../conveyor/tool.ts";
import { ConnectorSession } from "./api-call.ts";
import type { ConnectorDeps } from "./deps.ts";
import type { ConnectorProvider } from "./port.ts";

export const isOutcome = (x: unknown): x is ToolOutcome =>
  typeof x === "object" && x !== null && "status" in x && "verification" in x;

export function openSession(
  deps: ConnectorDeps,
  ctx: ToolContext,
  provider: ConnectorProvider,
  scopes: readonly string[],
): Promise<ConnectorSession | ToolOutcome> {
  return ConnectorSession.open(deps, { userId: ctx.userId, provider, identity: ctx.identity, scopes });
}

/**
 * What every connector read declares alike: READ, safe to send again after a crash (it changes nothing at the
 * provider, so the executor may repeat it), and no HIGH class a grant could stand in for.
 */
export const readTool = (connection: ConnectorProvider) => ({
  riskClass: (): RiskClass => "READ",
  connection,
  external: true,
  idempotentDownstream: true,
  grantCoversHigh: false,
});

/**
 * A read's result: `text` is what the model is shown; `untrusted` taints the context it lands in (the
 * hosted runtime's rule for web.fetch, src/edge/runtime/step-actions.ts).
 */
export function readOutcome(result: Record<string, unknown> & { text: string }, detail: string): ToolOutcome {
  return {
    status: "executed",
    result: { ...result, untrusted: true },
    verification: { outcome: "passed", detail },
  };
}

export function writeOutcome(result: Record<string, unknown>, detail: string): ToolOutcome {
  return { status: "executed", result, verification: { outcome: "passed", detail } };
}

/** One address, no display name, nothing that could break a header line. */
export const EmailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  // The local part is RFC 5322's dot-atom text: nothing that could end a header line or start another.
  .regex(/^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9.-]+\.[a-z]{2,}$/, "an email address like name@example.com");

/** A header-safe line (subject, title): no line breaks. */
export const OneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\r\n\0]*$/, "no line breaks");

export const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** Recipients as a grant scope: sorted and unique, so "always" covers exactly this set of people. */
export const recipientScope = (lists: readonly (readonly string[])[]) =>
  [...new Set(lists.flat().map((a) => a.toLowerCase()))].sort().join(",");
