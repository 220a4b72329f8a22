// What the scripted model declares with each step (the plan validation contract: risk_level,
// requires_confirmation, verification_plan, description), so tests script valid plans in one place.

export const READ_STEP = {
  risk_level: "low",
  requires_confirmation: false,
  verification_plan: "The page answers HTTP 200.",
  description: "Read the page.",
} as const;

/** An http.request's honest declaration: data leaving or a deletion is high (and confirmed), else medium. */
export function writeStep(args: Record<string, unknown>) {
  const high = args.json !== undefined || args.text !== undefined || args.method === "DELETE";
  return {
    risk_level: high ? "high" : "medium",
    requires_confirmation: high,
    verification_plan: "The target answers 2xx.",
    description: "Send the request.",
  } as const;
}

/** A web_fetch call as the scripted model sends it. */
export function fetchCall(url: string, extra: Record<string, unknown> = {}) {
  return { name: "web_fetch", arguments: { url, ...READ_STEP, ...extra } };
}

/** A propose_action call for an http.request (or another tool with `tool` in `extra`). */
export function proposeCall(
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): { name: string; arguments: Record<string, unknown> } {
  return {
    name: "propose_action",
    arguments: {
      tool: "http.request",
      identity: "bot",
      args,
      justification: "Post the summary.",
      ...writeStep(args),
      ...extra,
    },
  };
}
