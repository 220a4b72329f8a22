// `airlock pair <code>`: binds this machine as a companion device and stores its credentials (mode 0600).
import { hostname } from "node:os";
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { DEFAULT_SERVER, edgeTimeoutMs, serverOverride } from "../cli/config.ts";
import { airlockInvocation } from "../cli/invocation.ts";
import { EdgeClient, EdgeError, messageForPerson } from "../edge/client.ts";
import { loadCredentials, saveCredentials } from "../edge/credentials.ts";

const HELP = `Usage: airlock pair <code> [--server URL] [--name NAME] [--json]

Binds this machine to your Airlock account as a companion device, using an 8-digit pairing
code: mint one on your phone (More → Devices → Pair another device), or use the one "npm run dev"
prints. The device token is stored in $AIRLOCK_HOME/credentials.json (default ~/.airlock,
file mode 0600) and is never printed.

Options:
  --server URL   the Airlock edge (default: $AIRLOCK_SERVER, the stored server, or ${DEFAULT_SERVER})
  --name NAME    device name shown in the dashboard (default: "airlock on <hostname>")
  --json         print {paired, server, device_id, user_id, credentials_path}

Exit codes: 0 paired, 1 the edge refused the code, 2 bad arguments, 4 edge unreachable.
`;

/** The edge's words for a refused code, with the code named and a way to get a new one. */
function refusedCode(code: string, server: string, error: EdgeError): string {
  if (error.status === 429) return `the code ${code} was refused by ${server}: ${error.detail}`;
  return (
    `the code ${code} was not accepted by ${server}: it is wrong, expired (codes last 10 minutes) or already used. ` +
    `Mint a new one on your phone (More → Devices → Pair another device) and run this again with it`
  );
}

export const pairCommand: Command = {
  name: ["pair"],
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandArgs(
      args,
      { server: { type: "string" }, name: { type: "string" }, json: { type: "boolean" } },
      { max: 1, what: "one code" },
    );
    const given = parsed.positionals[0];
    if (!given) throw new UsageError("give the 8-digit pairing code, e.g. airlock pair 12345678");
    const code = given.replace(/[\s-]/g, "");
    if (!/^\d{8}$/.test(code))
      throw new UsageError(`"${given}" is not a pairing code; a code is 8 digits, e.g. 12345678`);
    const existing = loadCredentials(io.env);
    const server = (
      parsed.values.server ??
      serverOverride(io.env) ??
      (existing.ok ? existing.credentials.server : DEFAULT_SERVER)
    ).replace(/\/+$/, "");
    if (!/^https?:\/\/[^/]+/.test(server))
      throw new UsageError(`--server must be an http(s) URL, got "${server}"`);
    const name = parsed.values.name ?? `airlock on ${hostname()}`;
    try {
      const bound = await new EdgeClient(server, undefined, edgeTimeoutMs(io.env)).bind(code, name);
      const path = saveCredentials(
        {
          server,
          token: bound.token,
          device_id: bound.device_id,
          user_id: bound.user_id,
          paired_at: new Date().toISOString(),
        },
        io.env,
      );
      if (parsed.values.json) {
        io.stdout(
          `${JSON.stringify({ paired: true, server, device_id: bound.device_id, user_id: bound.user_id, credentials_path: path })}\n`,
        );
      } else {
        const airlock = airlockInvocation(io.env, io.cwd);
        io.stdout(
          `Paired with ${server} as device ${bound.device_id} ("${name}").\n` +
            `Credentials saved to ${path} (mode 0600).\n` +
            `Next: ${airlock} init   (a starter policy and your agents' hooks), then ${airlock} try\n`,
        );
      }
      return ExitCode.ok;
    } catch (error) {
      const message =
        error instanceof EdgeError && (error.status === 401 || error.status === 429)
          ? refusedCode(code, server, error)
          : messageForPerson(error);
      if (parsed.values.json) io.stdout(`${JSON.stringify({ paired: false, server, error: message })}\n`);
      io.stderr(`airlock pair: ${message}\n`);
      return error instanceof EdgeError && error.kind === "unreachable"
        ? ExitCode.unavailable
        : ExitCode.failure;
    }
  },
};
