// `airlock status`: the daemon's connection, policy layers and the calls waiting for a person.
import { type Command, ExitCode, parseJsonOnly } from "../cli/command.ts";
import { socketPath } from "../cli/config.ts";
import { sendControl } from "../control/connection.ts";
import type { DaemonStatus } from "../control/protocol.ts";
import { loadCredentials } from "../edge/credentials.ts";

const HELP = `Usage: airlock status [--json]

Shows whether the daemon runs, its connection to the edge, the emergency controls in force,
the policy layers for the current directory, and the calls waiting for a person.

Options:
  --json   print the daemon's status object (or {daemon: "not running", …})

Exit codes: 0 the daemon runs, 4 the daemon is not running.
`;

function emergencyText(e: DaemonStatus["emergency"]): string {
  const parts: string[] = [];
  if (e.readOnly) parts.push("READ-ONLY");
  if (e.disableHighImpact) parts.push("HIGH-IMPACT DISABLED");
  if (e.blockedTools.length > 0) parts.push(`blocked: ${e.blockedTools.join(", ")}`);
  return parts.join("; ") || "none";
}

function human(status: DaemonStatus): string {
  const lines = [
    `daemon      pid ${status.pid}, up since ${status.startedAt}`,
    `edge        ${status.server ?? "(not paired)"} — ${status.connection.state} since ${status.connection.since}` +
      (status.connection.lastError && status.connection.state !== "connected"
        ? ` (${status.connection.lastError})`
        : ""),
    `device      ${status.deviceId ?? "-"}`,
    `emergency   ${emergencyText(status.emergency)}`,
    `grants      ${status.grants.persisted} saved, ${status.grants.session} for sessions; audit queue ${status.auditQueued}`,
  ];
  for (const p of status.policy) {
    const present = p.files.filter((f) => f.present && f.layer !== "trust");
    lines.push(
      `policy      ${p.cwd}: ${p.ok ? (p.stale ? "LAST GOOD (current files fail to load)" : "ok") : "FAILS TO LOAD"}` +
        `${p.error ? ` — ${p.error}` : ""}`,
    );
    for (const f of present) lines.push(`              ${f.layer.padEnd(8)} ${f.path}`);
  }
  lines.push(`pending     ${status.pending.length}`);
  for (const c of status.pending) {
    lines.push(
      `              ${c.callId}  ${c.agent} ${c.tool} ${c.scope}${c.promptId ? `  prompt ${c.promptId}` : ""}  since ${c.since}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export const statusCommand: Command = {
  name: ["status"],
  help: HELP,
  async run(args, io) {
    const json = parseJsonOnly(args);
    try {
      const res = await sendControl(socketPath(io.env), { type: "status", cwd: io.cwd }, 5_000);
      if (res.type !== "status") throw new Error("unexpected answer");
      io.stdout(json ? `${JSON.stringify(res.status)}\n` : human(res.status));
      return ExitCode.ok;
    } catch {
      const { formatLoadErrors, loadLocalPolicy } = await import("../local-policy/load.ts");
      const creds = loadCredentials(io.env);
      const policy = loadLocalPolicy(io.cwd, io.env);
      const info = {
        daemon: "not running",
        socket: socketPath(io.env),
        paired: creds.ok,
        server: creds.ok ? creds.credentials.server : null,
        policy: {
          cwd: io.cwd,
          ok: policy.ok,
          error: policy.ok ? null : formatLoadErrors(policy.errors),
          files: policy.files.filter((f) => f.present && f.layer !== "trust"),
        },
      };
      if (json) io.stdout(`${JSON.stringify(info)}\n`);
      else {
        io.stdout(
          `daemon      not running (socket ${info.socket}); hooks decide directly — start it with "airlock up"\n` +
            `edge        ${info.server ?? "(not paired)"}\n` +
            `policy      ${io.cwd}: ${policy.ok ? "ok" : `FAILS TO LOAD — ${info.policy.error}`}\n` +
            info.policy.files.map((f) => `              ${f.layer.padEnd(8)} ${f.path}\n`).join(""),
        );
      }
      return ExitCode.unavailable;
    }
  },
};
