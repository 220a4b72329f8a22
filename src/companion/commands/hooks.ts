// `airlock hooks list|create|rotate|delete`: manage webhook triggers. Hooks start side effects, so the
// edge accepts these only from an approver: set AIRLOCK_APPROVER_TOKEN to an approver device's token
// (a companion's own token is refused with 403).
import { readFileSync } from "node:fs";
import { HookAction, type HookView } from "../../protocol/conveyor.ts";
import { type Command, type CommandIo, ExitCode } from "../cli/command.ts";
import { parseCommandArgs } from "../cli/command-args.ts";
import { DEFAULT_SERVER, edgeTimeoutMs, serverOverride } from "../cli/config.ts";
import { EdgeClient, EdgeError, messageForPerson } from "../edge/client.ts";
import { loadCredentials } from "../edge/credentials.ts";

const TOKEN_NOTE = `The edge lets only approver devices manage hooks: set AIRLOCK_APPROVER_TOKEN to the token
of a device paired as an approver. AIRLOCK_SERVER (or the paired server) says where the edge is.`;

const EXITS =
  "Exit codes: 0 done, 1 the edge refused (e.g. 403, 404), 2 bad arguments, 3 no credentials, 4 edge unreachable.";

function client(io: CommandIo): EdgeClient | undefined {
  const approver = io.env.AIRLOCK_APPROVER_TOKEN?.trim();
  const stored = loadCredentials(io.env);
  const server = serverOverride(io.env) ?? (stored.ok ? stored.credentials.server : DEFAULT_SERVER);
  const token = approver || (stored.ok ? stored.credentials.token : undefined);
  if (!token) {
    io.stderr(
      `airlock hooks: no token: ${stored.ok ? "" : `${stored.reason}; `}set AIRLOCK_APPROVER_TOKEN\n`,
    );
    return undefined;
  }
  return new EdgeClient(server, token, edgeTimeoutMs(io.env));
}

function failed(io: CommandIo, what: string, error: unknown): number {
  if (!(error instanceof EdgeError)) throw error;
  io.stderr(`airlock hooks ${what}: ${messageForPerson(error)}\n`);
  return error.kind === "unreachable" ? ExitCode.unavailable : ExitCode.failure;
}

function options<T extends Record<string, { type: "string" | "boolean" }>>(
  what: string,
  args: string[],
  spec: T,
  io: CommandIo,
) {
  // Usage mistakes throw a UsageError: the dispatcher answers with the usage line and a "did you mean".
  void what;
  void io;
  return parseCommandArgs(
    args,
    { json: { type: "boolean" as const }, ...spec },
    { max: Number.POSITIVE_INFINITY },
  );
}

function line(h: HookView): string {
  const action = !h.action
    ? "record deliveries only"
    : h.action.type === "job"
      ? `job: ${h.action.task.title ?? h.action.task.instructions.slice(0, 60)}`
      : `${h.action.tool} (${h.action.justification})`;
  return `${h.id}  ${h.name}\n  url     ${h.url}\n  action  ${action}\n`;
}

function showSecret(io: CommandIo, hook: HookView & { secret: string }, json: boolean): void {
  if (json) {
    io.stdout(`${JSON.stringify(hook)}\n`);
    return;
  }
  io.stdout(
    `${line(hook)}  secret  ${hook.secret}\n\nThe secret is shown only now: store it in the sender (Standard Webhooks signing).\n`,
  );
}

export const hooksList: Command = {
  name: ["hooks", "list"],
  help: `Usage: airlock hooks list [--json]\n\nLists this account's webhook hooks (never their secrets).\n\n${TOKEN_NOTE}\n\n${EXITS}\n`,
  async run(args, io) {
    const parsed = options("list", args, {}, io);
    if (!parsed) return ExitCode.usage;
    const edge = client(io);
    if (!edge) return ExitCode.config;
    try {
      const hooks = await edge.hooks();
      io.stdout(
        parsed.values.json ? `${JSON.stringify({ hooks })}\n` : hooks.map(line).join("") || "no hooks\n",
      );
      return ExitCode.ok;
    } catch (error) {
      return failed(io, "list", error);
    }
  },
};

export const hooksCreate: Command = {
  name: ["hooks", "create"],
  help: `Usage: airlock hooks create <name> [--action-file action.json] [--json]

Creates a hook and prints its URL and its whsec_ secret (shown once). With --action-file, a verified
delivery creates that proposal, e.g. {"type":"proposal","tool":"http.request","identity":"bot",
"args":{"method":"POST","url":"https://example.com/deploy"},"justification":"CI passed"}; without it,
the hook only records verified deliveries.

${TOKEN_NOTE}

${EXITS}
`,
  async run(args, io) {
    const parsed = options("create", args, { "action-file": { type: "string" } }, io);
    if (!parsed) return ExitCode.usage;
    const name = parsed.positionals[0];
    if (!name || parsed.positionals.length > 1) {
      io.stderr("airlock hooks create: give exactly one name\n");
      return ExitCode.usage;
    }
    let action: HookAction | undefined;
    const file = parsed.values["action-file"];
    if (typeof file === "string") {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, "utf8"));
      } catch (error) {
        io.stderr(
          `airlock hooks create: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        return ExitCode.usage;
      }
      const checked = HookAction.safeParse(raw);
      if (!checked.success) {
        io.stderr(
          `airlock hooks create: ${file} is not a hook action: ${checked.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}\n`,
        );
        return ExitCode.usage;
      }
      action = checked.data;
    }
    const edge = client(io);
    if (!edge) return ExitCode.config;
    try {
      showSecret(
        io,
        await edge.createHook({ name, ...(action ? { action } : {}) }),
        parsed.values.json === true,
      );
      return ExitCode.ok;
    } catch (error) {
      return failed(io, "create", error);
    }
  },
};

export const hooksRotate: Command = {
  name: ["hooks", "rotate"],
  help: `Usage: airlock hooks rotate <hook-id> [--grace-seconds N] [--json]

Issues a new secret (shown once). The old one keeps verifying for N seconds (default 86400, 0 ends
it at once), so senders can switch without losing deliveries.

${TOKEN_NOTE}

${EXITS}
`,
  async run(args, io) {
    const parsed = options("rotate", args, { "grace-seconds": { type: "string" } }, io);
    if (!parsed) return ExitCode.usage;
    const id = parsed.positionals[0];
    const grace = Number(parsed.values["grace-seconds"] ?? 86_400);
    if (!id || !Number.isInteger(grace) || grace < 0) {
      io.stderr("airlock hooks rotate: give a hook id and a whole --grace-seconds\n");
      return ExitCode.usage;
    }
    const edge = client(io);
    if (!edge) return ExitCode.config;
    try {
      showSecret(io, await edge.rotateHook(id, grace), parsed.values.json === true);
      return ExitCode.ok;
    } catch (error) {
      return failed(io, "rotate", error);
    }
  },
};

export const hooksDelete: Command = {
  name: ["hooks", "delete"],
  help: `Usage: airlock hooks delete <hook-id> [--json]\n\nDeletes a hook; its URL answers 404 from then on.\n\n${TOKEN_NOTE}\n\n${EXITS}\n`,
  async run(args, io) {
    const parsed = options("delete", args, {}, io);
    if (!parsed) return ExitCode.usage;
    const id = parsed.positionals[0];
    if (!id) {
      io.stderr("airlock hooks delete: give a hook id\n");
      return ExitCode.usage;
    }
    const edge = client(io);
    if (!edge) return ExitCode.config;
    try {
      await edge.deleteHook(id);
      io.stdout(parsed.values.json ? `${JSON.stringify({ id, deleted: true })}\n` : `deleted ${id}\n`);
      return ExitCode.ok;
    } catch (error) {
      return failed(io, "delete", error);
    }
  },
};
