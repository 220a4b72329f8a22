// `airlock devices token`: a short-lived, read-only parity token for `npm run parity` against a deployment, minted by
// an approver (AIRLOCK_APPROVER_TOKEN) or with the recovery code. The token alone goes to stdout, for $(…).
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { edgeTimeoutMs } from "../cli/config.ts";
import { EdgeClient, EdgeError, messageForPerson } from "../edge/client.ts";
import { commandServer, loadCredentials } from "../edge/credentials.ts";

const HELP = `Usage: airlock devices token [--recovery-code CODE] [--minutes N] [--server URL] [--json]

Mints a read-only parity token for the release check (npm run parity -- URL-A URL-B --token TOKEN, or
AIRLOCK_PARITY_TOKEN). It lives N minutes (1-60, default 15) and may only read: the audit feed,
devices, policy, grants, prompts, decisions and the cookie probe. It cannot approve, revoke, mint or
change anything, and it dies at once when the device that minted it is revoked.

Only an approver may mint one: set AIRLOCK_APPROVER_TOKEN to an approver device's token, or pass the
recovery code the server printed on its first run (npm run deploy prints it). This machine's companion
token is refused.

The token is printed alone on stdout, so: export AIRLOCK_PARITY_TOKEN=$(airlock devices token --recovery-code …)

Options:
  --recovery-code CODE   mint with the recovery code instead of AIRLOCK_APPROVER_TOKEN
  --minutes N            lifetime in minutes, 1-60 (default 15)
  --server URL           the edge (default: $AIRLOCK_SERVER or the paired server)
  --json                 print {token, expires_at, read_only, actions}

Exit codes: 0 minted, 1 the edge refused, 2 bad arguments, 3 no approver token or server, 4 edge unreachable.
`;

export const devicesToken: Command = {
  name: ["devices", "token"],
  help: HELP,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      "recovery-code": { type: "string" },
      minutes: { type: "string" },
      server: { type: "string" },
      json: { type: "boolean" },
    });
    const minutes = values.minutes === undefined ? 15 : Number(values.minutes);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 60)
      throw new UsageError(`--minutes is a whole number from 1 to 60, got "${values.minutes}"`);
    const recovery = values["recovery-code"];
    const approver = io.env.AIRLOCK_APPROVER_TOKEN?.trim();
    const creds = loadCredentials(io.env);
    const server = commandServer(values.server, io.env, creds);
    if (!server) {
      io.stderr("airlock devices token: which edge? Give --server URL (or set AIRLOCK_SERVER)\n");
      return ExitCode.config;
    }
    if (!recovery && !approver) {
      io.stderr(
        "airlock devices token: only an approver may mint a parity token. Set AIRLOCK_APPROVER_TOKEN to an approver " +
          "device's token, or pass the recovery code: --recovery-code CODE\n",
      );
      return ExitCode.config;
    }
    const edge = new EdgeClient(server, recovery ? undefined : approver, edgeTimeoutMs(io.env));
    try {
      const minted = await edge.parityToken(minutes, recovery);
      if (values.json) io.stdout(`${JSON.stringify(minted)}\n`);
      else {
        io.stdout(`${minted.token}\n`);
        io.stderr(
          `Read-only parity token for ${edge.server}, expires ${minted.expires_at}.\n` +
            `Use: npm run parity -- <pages URL> <custom domain URL> --token <the token above>\n`,
        );
      }
      return ExitCode.ok;
    } catch (error) {
      const message = messageForPerson(error);
      if (error instanceof EdgeError && error.status === 403)
        io.stderr(
          `airlock devices token: ${message}. AIRLOCK_APPROVER_TOKEN must be an approver's token (a companion's is refused); or pass --recovery-code\n`,
        );
      else io.stderr(`airlock devices token: ${message}\n`);
      return error instanceof EdgeError && error.kind === "unreachable"
        ? ExitCode.unavailable
        : ExitCode.failure;
    }
  },
};
