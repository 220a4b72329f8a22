// `airlock devices list|pair`: the account's devices, and a pairing code (with its link as a QR) for another one.
import { type Command, ExitCode } from "../command.ts";
import { parseCommandArgs } from "../command-args.ts";
import { edgeTimeoutMs } from "../config.ts";
import { loadCredentials } from "../credentials.ts";
import { EdgeClient, EdgeError } from "../edge-client.ts";
import { airlockInvocation } from "../invocation.ts";
import { pairingLink, terminalQr } from "../pairing-link.ts";

const PAIR_HELP = `Usage: airlock devices pair [--json]

Mints a single-use pairing code for another device and prints it with the pairing link and a QR
code of that link. Only an approver (a browser you paired) may mint codes; from a companion this
asks the edge all the same and, when the edge refuses, says where to mint one instead: your
phone's Devices view (Pair another device).

Options:
  --json   print {code, expires_at, link}

Exit codes: 0 minted, 1 the edge refused, 3 not paired, 4 edge unreachable.
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
    const json = parseCommandArgs(args, { json: { type: "boolean" } }).values.json ?? false;
    const creds = loadCredentials(io.env);
    if (!creds.ok) {
      io.stderr(`airlock devices pair: ${creds.reason}\n`);
      return ExitCode.config;
    }
    const edge = EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(io.env));
    try {
      const minted = await edge.pairingCode();
      const link = pairingLink(edge.server, minted.code);
      if (json) io.stdout(`${JSON.stringify({ ...minted, link })}\n`);
      else {
        const airlock = airlockInvocation(io.env, io.cwd);
        io.stdout(
          `Pairing code ${minted.code} (single use, expires ${minted.expires_at})\n` +
            `Phone or browser: open ${link}\n${await terminalQr(link)}\n` +
            `Another machine:  ${airlock} pair ${minted.code} --server ${edge.server}\n`,
        );
      }
      return ExitCode.ok;
    } catch (error) {
      if (error instanceof EdgeError && error.status === 403) {
        io.stderr(
          `airlock devices pair: this machine is a companion, and only a device you approve from may mint ` +
            `pairing codes (the edge said: ${error.detail}). Open the dashboard on your phone, go to Devices, ` +
            `and choose Pair another device; or, with no approver left, use the recovery code the server ` +
            `printed on its first run.\n`,
        );
        return ExitCode.failure;
      }
      io.stderr(`airlock devices pair: ${error instanceof Error ? error.message : String(error)}\n`);
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
      io.stderr(`airlock devices list: ${error instanceof Error ? error.message : String(error)}\n`);
      return failure(error);
    }
  },
};
