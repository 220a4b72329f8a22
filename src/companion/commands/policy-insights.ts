// `airlock policy stats|suggest`: the policy's honest numbers (asks per 100 calls over 7 days, by reason) and
// the rules that would have allowed calls the person approved again and again. Both read the edge with this
// machine's companion token; adding a suggested rule is the person's (one tap on the phone).
import type { z } from "zod";
import {
  type AskReasonName,
  type PolicyStats,
  PolicyStats as PolicyStatsSchema,
  type PolicySuggestionList,
  PolicySuggestionList as SuggestionListSchema,
} from "../../protocol/policy-insights.ts";
import { type Command, type CommandIo, ExitCode } from "../cli/command.ts";
import { parseCommandArgs } from "../cli/command-args.ts";
import { edgeTimeoutMs, serverOverride } from "../cli/config.ts";
import { EdgeClient, EdgeError } from "../edge/client.ts";
import { loadCredentials } from "../edge/credentials.ts";

const EXITS = "Exit codes: 0 done, 1 the edge refused, 3 not paired, 4 edge unreachable.";

const REASON_WORDS: Record<AskReasonName, string> = {
  not_understood: "not understood",
  no_rule: "no rule",
  high: "HIGH risk",
  causal_change: "causal change",
  rule: "a rule asks",
};

async function fetchJson<T>(
  io: CommandIo,
  label: string,
  path: string,
  schema: z.ZodType<T>,
): Promise<T | number> {
  const stored = loadCredentials(io.env);
  if (!stored.ok) {
    io.stderr(`${label}: not paired (run \`airlock pair <code>\` first)\n`);
    return ExitCode.config;
  }
  const server = serverOverride(io.env) ?? stored.credentials.server;
  const edge = new EdgeClient(server, stored.credentials.token, edgeTimeoutMs(io.env));
  try {
    const parsed = schema.safeParse(await edge.request("GET", path));
    if (!parsed.success) {
      io.stderr(`${label}: the edge's answer is not what this version expects\n`);
      return ExitCode.failure;
    }
    return parsed.data;
  } catch (error) {
    if (!(error instanceof EdgeError)) throw error;
    io.stderr(`${label}: ${error.message}\n`);
    return error.kind === "unreachable" ? ExitCode.unavailable : ExitCode.failure;
  }
}

/** The stats as a person reads them: the total, then one line per reason with a bar. */
export function statsLines(s: PolicyStats): string {
  const head = `${s.asks_per_100} asks per 100 calls over the last ${s.days} days (${s.asks} of ${s.calls} calls asked a person)\n`;
  const rows = s.by_reason.map((r) => {
    const bar = "#".repeat(Math.min(40, Math.round(r.per_100 / 2.5)));
    return `  ${REASON_WORDS[r.reason].padEnd(16)} ${String(r.per_100).padStart(5)}  ${String(r.asks).padStart(5)} asks  ${bar}\n`;
  });
  return head + rows.join("");
}

export function suggestionLines(list: PolicySuggestionList): string {
  if (list.suggestions.length === 0)
    return `no suggestions: no understood call was approved ${list.threshold} times in the last 7 days\n`;
  return list.suggestions
    .map(
      (s) =>
        `${s.call}  (approved ${s.approvals} times${s.cwd ? ` in ${s.cwd}` : ""})\n` +
        `  rule:\n${indent(s.yaml, 4)}\n  account policy:\n${indent(s.diff, 4)}\n` +
        s.explain.map((e) => `  - ${e}\n`).join("") +
        `  add it: one tap on the phone (Policy), or POST /v1/policy/suggestions/accept {"id": "${s.id}"}\n`,
    )
    .join("\n");
}

function indent(text: string, n: number): string {
  return text
    .split("\n")
    .map((l) => `${" ".repeat(n)}${l}`)
    .join("\n");
}

export const policyStats: Command = {
  name: ["policy", "stats"],
  help: `Usage: airlock policy stats [--json]

How often the policy asks: asks per 100 calls over the last 7 days, split by why each call went to a
person (not understood, no rule, HIGH risk, causal change, a rule that asks). Calls are those the edge
judged and those this account's companions decided on their own (GET /v1/policy/stats).

${EXITS}`,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { json: { type: "boolean" } });
    const out = await fetchJson(io, "airlock policy stats", "/v1/policy/stats", PolicyStatsSchema);
    if (typeof out === "number") return out;
    io.stdout(values.json ? `${JSON.stringify(out, null, 2)}\n` : statsLines(out));
    return ExitCode.ok;
  },
};

export const policySuggest: Command = {
  name: ["policy", "suggest"],
  help: `Usage: airlock policy suggest [--json]

Rules that would have allowed calls you approved 3 or more times in the last 7 days (understood, not
HIGH risk): each as YAML, the account policy's diff, and what else the rule allows. Adding one is the
person's: one tap on the phone's Policy view (GET /v1/policy/suggestions).

${EXITS}`,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { json: { type: "boolean" } });
    const out = await fetchJson(io, "airlock policy suggest", "/v1/policy/suggestions", SuggestionListSchema);
    if (typeof out === "number") return out;
    io.stdout(values.json ? `${JSON.stringify(out, null, 2)}\n` : suggestionLines(out));
    return ExitCode.ok;
  },
};
