// `airlock pair <code>`: binds this machine as a companion device and stores its credentials (mode 0600).
import { hostname } from "node:os";
import { parseArgs } from "node:util";
import { type Command, ExitCode } from "../command.ts";
import { DEFAULT_SERVER, edgeTimeoutMs, serverOverride } from "../config.ts";
import { loadCredentials, saveCredentials } from "../credentials.ts";
import { EdgeClient, EdgeError } from "../edge-client.ts";

const HELP = `Usage: airlock pair <code> [--server URL] [--name NAME] [--json]

Binds this machine to your Airlock account as a companion device, using the 8-digit
pairing code from the dashboard (or printed by "npm run dev"). The device token is
stored in $AIRLOCK_HOME/credentials.json (default ~/.airlock, file mode 0600) and is
never printed.

Options:
  --server URL   the Airlock edge (default: $AIRLOCK_SERVER, the stored server, or ${DEFAULT_SERVER})
  --name NAME    device name shown in the dashboard (default: "airlock on <hostname>")
  --json         print {paired, server, device_id, user_id, credentials_path}

Exit codes: 0 paired, 1 the edge refused the code, 2 bad arguments, 4 edge unreachable.
`;

function parsePairArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      options: { server: { type: "string" }, name: { type: "string" }, json: { type: "boolean" } },
      allowPositionals: true,
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const pairCommand: Command = {
  name: ["pair"],
  help: HELP,
  async run(args, io) {
    const parsed = parsePairArgs(args);
    if (typeof parsed === "string") {
      io.stderr(`airlock pair: ${parsed}\n`);
      return ExitCode.usage;
    }
    const code = parsed.positionals[0]?.replace(/[\s-]/g, "");
    if (!code || !/^\d{8}$/.test(code) || parsed.positionals.length > 1) {
      io.stderr("airlock pair: give the 8-digit pairing code, e.g. airlock pair 12345678\n");
      return ExitCode.usage;
    }
    const existing = loadCredentials(io.env);
    const server = (
      parsed.values.server ??
      serverOverride(io.env) ??
      (existing.ok ? existing.credentials.server : DEFAULT_SERVER)
    ).replace(/\/+$/, "");
    if (!/^https?:\/\//.test(server)) {
      io.stderr(`airlock pair: --server must be an http(s) URL, got "${server}"\n`);
      return ExitCode.usage;
    }
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
        io.stdout(
          `Paired with ${server} as device ${bound.device_id} ("${name}").\nCredentials saved to ${path} (mode 0600).\nNext: "airlock up" to start the daemon, "airlock hook claude-code --install" to gate Claude Code.\n`,
        );
      }
      return ExitCode.ok;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (parsed.values.json) io.stdout(`${JSON.stringify({ paired: false, server, error: message })}\n`);
      io.stderr(`airlock pair: ${message}\n`);
      return error instanceof EdgeError && error.kind === "unreachable"
        ? ExitCode.unavailable
        : ExitCode.failure;
    }
  },
};
