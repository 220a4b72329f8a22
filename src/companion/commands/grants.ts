// `airlock grants list|revoke`: every grant the person saved (agent calls, proposals, sessions) with what it
// covers, who saved it, when, from which card and when it was last used, and revoking one. Grants are the
// person's: the edge answers these only to an approver (AIRLOCK_APPROVER_TOKEN); a companion's own token,
// which the agent can read, is refused with 403.
import { type GrantList, GrantList as GrantListSchema } from "../../protocol/grants.ts";
import { GrantDeleted } from "../../protocol/rest.ts";
import { type Command, type CommandIo, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { DEFAULT_SERVER, edgeTimeoutMs, serverOverride } from "../cli/config.ts";
import { EdgeClient, EdgeError } from "../edge/client.ts";
import { loadCredentials } from "../edge/credentials.ts";

const TOKEN_NOTE = `The edge lets only approver devices list and revoke grants: set AIRLOCK_APPROVER_TOKEN to the
token of a device paired as an approver (this machine's companion token is refused). AIRLOCK_SERVER (or
the paired server) says where the edge is.`;
const EXITS =
  "Exit codes: 0 done, 1 the edge refused (e.g. 403, 404), 2 bad arguments, 3 no token, 4 edge unreachable.";

function client(io: CommandIo, label: string): EdgeClient | undefined {
  const approver = io.env.AIRLOCK_APPROVER_TOKEN?.trim();
  const stored = loadCredentials(io.env);
  const server = serverOverride(io.env) ?? (stored.ok ? stored.credentials.server : DEFAULT_SERVER);
  const token = approver || (stored.ok ? stored.credentials.token : undefined);
  if (!token) {
    io.stderr(`${label}: no token: set AIRLOCK_APPROVER_TOKEN\n`);
    return undefined;
  }
  return new EdgeClient(server, token, edgeTimeoutMs(io.env));
}

function failed(io: CommandIo, label: string, error: unknown): number {
  if (!(error instanceof EdgeError)) throw error;
  const hint = error.status === 403 ? " (grants are the person's: use an approver token)" : "";
  io.stderr(`${label}: ${error.message}${hint}\n`);
  return error.kind === "unreachable" ? ExitCode.unavailable : ExitCode.failure;
}

const day = (iso: string | null) => (iso ? iso.replace(/\.\d{3}Z$/, "Z") : "never");

/** One block per grant: id and kind, what it covers, then where it came from. */
export function grantLines(list: GrantList): string {
  const rows = [
    ...list.grants.map((g) => ({ kind: "agent", ...g })),
    ...list.conveyor_grants.map((g) => ({ kind: "proposal", ...g })),
    ...list.session_grants.map((g) => ({ kind: "session", ...g })),
  ];
  if (!rows.length) return "no grants\n";
  return rows
    .map(
      (g) =>
        `${g.id}  ${g.kind}\n  covers     ${g.covers}\n  saved      ${day(g.created_at)} by ${g.created_by ?? "-"} from ${g.prompt_id ?? "-"}\n  last used  ${day(g.last_used_at)}\n`,
    )
    .join("");
}

export const grantsList: Command = {
  name: ["grants", "list"],
  help: `Usage: airlock grants list [--json]

Lists every grant of the account (GET /v1/grants): saved allow/deny answers for agent calls, grants saved
on proposal cards (tool, method, host and path, risk class, identity) and live allow-for-session grants,
each with what it covers, who saved it, when, from which card (prompt id) and when it was last used.
--json prints the edge's answer: {grants, conveyor_grants, session_grants}.

${TOKEN_NOTE}

${EXITS}
`,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { json: { type: "boolean" } });
    const edge = client(io, "airlock grants list");
    if (!edge) return ExitCode.config;
    try {
      const body = await edge.request("GET", "/v1/grants");
      const parsed = GrantListSchema.safeParse(body);
      if (!parsed.success)
        throw new EdgeError("invalid", "the edge's answer to GET /v1/grants did not match the contract");
      io.stdout(values.json ? `${JSON.stringify(parsed.data)}\n` : grantLines(parsed.data));
      return ExitCode.ok;
    } catch (error) {
      return failed(io, "airlock grants list", error);
    }
  },
};

export const grantsRevoke: Command = {
  name: ["grants", "revoke"],
  help: `Usage: airlock grants revoke <grant_id> [--json]

Revokes one grant of any kind (grt_… or sg_…, as \`airlock grants list\` shows them): from the very next
call or proposal it covers nothing, and the person is asked again. Connected companions drop it at once.

${TOKEN_NOTE}

${EXITS}
`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: "boolean" } },
      { max: 1, what: "grant id" },
    );
    const id = positionals[0];
    if (!id) throw new UsageError("give the grant id to revoke (airlock grants list shows them)");
    const edge = client(io, "airlock grants revoke");
    if (!edge) return ExitCode.config;
    try {
      const body = GrantDeleted.safeParse(
        await edge.request("DELETE", `/v1/grants/${encodeURIComponent(id)}`),
      );
      if (!body.success)
        throw new EdgeError(
          "invalid",
          "the edge's answer to DELETE /v1/grants/{id} did not match the contract",
        );
      io.stdout(values.json ? `${JSON.stringify({ id, ...body.data })}\n` : `revoked ${id}\n`);
      return ExitCode.ok;
    } catch (error) {
      return failed(io, "airlock grants revoke", error);
    }
  },
};
