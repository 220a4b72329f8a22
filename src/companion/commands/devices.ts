// `airlock devices list|pair`: the account's devices, and a pairing code (with its link as a QR) for another one.
import { type Command, ExitCode } from "../cli/command.ts";
import { didYouMean, parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { edgeTimeoutMs } from "../cli/config.ts";
import { airlockInvocation } from "../cli/invocation.ts";
import { EdgeClient, EdgeError, messageForPerson } from "../edge/client.ts";
import { commandServer, loadCredentials } from "../edge/credentials.ts";
import { pairingLink, terminalQr } from "../edge/pairing-link.ts";

const PAIR_HELP = `Usage: airlock devices pair [--role companion|approver] [--recovery-code CODE] [--server URL] [--json]

Mints a single-use pairing code for another device and prints it with the pairing link and a QR
code of that link. Only an approver (a browser you paired) may mint codes: this machine's
companion token is refused, and the command says where to mint one instead (your phone's
More → Devices → Pair another device). With --recovery-code (printed once, on the server's first
run) it mints without any paired device, e.g. for a new phone when the old one is lost.

Options:
  --role ROLE            companion (another machine, the default) or approver (a phone or browser;
                         default with --recovery-code)
  --recovery-code CODE   mint with the recovery code instead of this machine's token
  --server URL           the edge (default: the paired server; needed with --recovery-code when
                         this machine is not paired)
  --json                 print {code, role, expires_at, link}

Exit codes: 0 minted, 1 the edge refused, 2 bad arguments, 3 not paired, 4 edge unreachable.
`;

const LIST_HELP = `Usage: airlock devices list [--json]

Lists the devices on your account (GET /v1/devices): id, kind, name, last seen, revoked.

Options:
  --json   print the devices as JSON

Exit codes: 0 listed, 1 the edge refused, 3 not paired, 4 edge unreachable.
`;

function failure(error: unknown): number {
  return error instanceof EdgeError && error.kind === "unreachable" ? ExitCode.unavailable : ExitCode.failure;
}

export const devicesPair: Command = {
  name: ["devices", "pair"],
  help: PAIR_HELP,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      role: { type: "string" },
      "recovery-code": { type: "string" },
      server: { type: "string" },
      json: { type: "boolean" },
    });
    const recovery = values["recovery-code"];
    const role = values.role ?? (recovery ? "approver" : "companion");
    if (role !== "companion" && role !== "approver")
      throw new UsageError(
        `--role is companion or approver, got "${role}"${didYouMean(role, ["companion", "approver"], (r) => `"${r}"`)}`,
      );
    const creds = loadCredentials(io.env);
    const server = commandServer(values.server, io.env, creds);
    if (!server) {
      io.stderr(
        `airlock devices pair: ${creds.ok ? "no server" : creds.reason}; with --recovery-code, give --server URL\n`,
      );
      return ExitCode.config;
    }
    if (!recovery && !creds.ok) {
      io.stderr(`airlock devices pair: ${creds.reason}\n`);
      return ExitCode.config;
    }
    const edge = new EdgeClient(
      server,
      recovery || !creds.ok ? undefined : creds.credentials.token,
      edgeTimeoutMs(io.env),
    );
    try {
      const minted = recovery ? await edge.recoveryPairingCode(recovery, role) : await edge.pairingCode(role);
      const link = pairingLink(edge.server, minted.code);
      if (values.json) io.stdout(`${JSON.stringify({ ...minted, link })}\n`);
      else {
        const airlock = airlockInvocation(io.env, io.cwd);
        const use =
          minted.role === "approver"
            ? `Phone or browser: open ${link}\n${await terminalQr(link)}\n`
            : `Another machine:  ${airlock} pair ${minted.code} --server ${edge.server}\n`;
        io.stdout(
          `Pairing code ${minted.code} for a ${minted.role} (single use, expires ${minted.expires_at})\n${use}`,
        );
      }
      return ExitCode.ok;
    } catch (error) {
      if (error instanceof EdgeError && error.status === 403) {
        io.stderr(
          "airlock devices pair: this machine is a companion, and only a device you approve from may mint pairing codes. " +
            "Open the dashboard on your phone, go to More → Devices and choose Pair another device; or, with no approver at hand, " +
            "pass the recovery code the server printed on its first run: --recovery-code CODE\n",
        );
        return ExitCode.failure;
      }
      if (error instanceof EdgeError && error.status === 401 && recovery) {
        io.stderr(
          `airlock devices pair: the edge at ${server} refused that recovery code (${error.detail.replace(/\.$/, "")})\n`,
        );
        return ExitCode.failure;
      }
      io.stderr(`airlock devices pair: ${messageForPerson(error)}\n`);
      return failure(error);
    }
  },
};

export const devicesList: Command = {
  name: ["devices", "list"],
  help: LIST_HELP,
  async run(args, io) {
    const json = parseCommandArgs(args, { json: { type: "boolean" } }).values.json ?? false;
    const creds = loadCredentials(io.env);
    if (!creds.ok) {
      io.stderr(`airlock devices list: ${creds.reason}\n`);
      return ExitCode.config;
    }
    try {
      const devices = await EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(io.env)).devices();
      if (json) io.stdout(`${JSON.stringify(devices)}\n`);
      else {
        for (const d of devices) {
          const state = d.revoked_at ? `revoked ${d.revoked_at}` : `last seen ${d.last_seen_at ?? "never"}`;
          io.stdout(
            `${d.id}  ${d.kind.padEnd(9)}  ${d.name}${d.current ? " (this machine)" : ""}  ${state}\n`,
          );
        }
      }
      return ExitCode.ok;
    } catch (error) {
      io.stderr(`airlock devices list: ${messageForPerson(error)}\n`);
      return failure(error);
    }
  },
};
