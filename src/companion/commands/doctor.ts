// `airlock doctor`: checks credentials, the edge, the token, the daemon, the policy and the agent hooks.
import { type Command, ExitCode, parseJsonOnly } from "../cli/command.ts";
import { edgeTimeoutMs, socketPath } from "../cli/config.ts";
import { airlockInvocation } from "../cli/invocation.ts";
import { sendControl } from "../control/connection.ts";
import { EdgeClient, messageForPerson } from "../edge/client.ts";
import { credentialsMode, loadCredentials } from "../edge/credentials.ts";
import type { Check } from "./doctor-hook-files.ts";
import { integrationChecks } from "./doctor-integrations.ts";

const HELP = `Usage: airlock doctor [--json]

Checks, in order: the credentials file and its mode (0600), the edge (/healthz, /v1/version),
the device token (GET /v1/devices), the daemon's control socket, the policy layers for the
current directory, the mode (a warning under "mode: sole", where an Airlock allow skips the
agent's own permission check), and every agent integration it finds: Claude Code settings (user, project,
local), Codex hooks and their trust in config.toml ([features] hooks, [hooks.state]), the Pi
package, and MCP registrations (~/.claude.json, .mcp.json, Cursor). Each problem comes with
the command that fixes it.

Options:
  --json   print [{check, status: "ok"|"warn"|"fail", detail}]

Exit codes: 0 nothing failed (warnings allowed), 1 a check failed.
`;

export const doctorCommand: Command = {
  name: ["doctor"],
  help: HELP,
  async run(args, io) {
    const json = parseJsonOnly(args);
    const checks: Check[] = [];
    const creds = loadCredentials(io.env);
    if (!creds.ok) {
      checks.push({ check: "credentials", status: "fail", detail: creds.reason });
    } else {
      const mode = credentialsMode(io.env);
      const loose = mode !== null && (mode & 0o077) !== 0;
      checks.push({
        check: "credentials",
        status: loose ? "fail" : "ok",
        detail: loose
          ? `${creds.path} is mode ${mode?.toString(8)}; run: chmod 600 ${creds.path}`
          : `${creds.path} (mode 600), device ${creds.credentials.device_id}`,
      });
      const edge = EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(io.env));
      let reachable = false;
      try {
        const health = await edge.health();
        reachable = true;
        checks.push({
          check: "edge",
          status: "ok",
          detail: `${edge.server} answers /healthz; version ${JSON.stringify(health.version)}`,
        });
      } catch (error) {
        checks.push({ check: "edge", status: "fail", detail: messageForPerson(error) });
      }
      if (reachable) {
        try {
          const devices = await edge.devices();
          checks.push({
            check: "token",
            status: "ok",
            detail: `valid; ${devices.length} device(s) on the account`,
          });
        } catch (error) {
          checks.push({
            check: "token",
            status: "fail",
            detail: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
    try {
      const res = await sendControl(socketPath(io.env), { type: "status" }, 3_000);
      const state = res.type === "status" ? res.status.connection.state : "unknown";
      checks.push({
        check: "daemon",
        status: state === "connected" ? "ok" : "warn",
        detail: `running on ${socketPath(io.env)}; edge connection ${state}`,
      });
    } catch {
      checks.push({
        check: "daemon",
        status: "warn",
        detail: `not running (${socketPath(io.env)}); the next hook starts one (or run: ${airlockInvocation(io.env, io.cwd)} up)`,
      });
    }
    const { formatLoadErrors, loadLocalPolicy } = await import("../local-policy/load.ts");
    const policy = loadLocalPolicy(io.cwd, io.env);
    const layers = policy.files
      .filter((f) => f.present && f.layer !== "trust")
      .map((f) => `${f.layer}:${f.path}`);
    checks.push(
      policy.ok
        ? layers.length > 0
          ? { check: "policy", status: "ok", detail: layers.join(", ") }
          : {
              // The built-in default is deny: with no file at all, every call an agent makes is refused.
              check: "policy",
              status: "warn",
              detail: `no policy file, so every call is denied (the built-in default_action is ${policy.policy.defaultAction}); run: ${airlockInvocation(io.env, io.cwd)} init`,
            }
        : {
            check: "policy",
            status: "fail",
            detail: `does not load, calls are denied: ${formatLoadErrors(policy.errors)}`,
          },
    );
    if (policy.ok) checks.push(modeCheck(policy.policy.soleFrom));
    checks.push(...integrationChecks(io.cwd, io.env, airlockInvocation(io.env, io.cwd)));
    if (json) io.stdout(`${JSON.stringify(checks)}\n`);
    else {
      const mark = { ok: "ok  ", warn: "warn", fail: "FAIL" };
      io.stdout(checks.map((c) => `${mark[c.status]}  ${c.check.padEnd(18)} ${c.detail}\n`).join(""));
    }
    return checks.some((c) => c.status === "fail") ? ExitCode.failure : ExitCode.ok;
  },
};

/** How Airlock meets each agent's own permission check; `mode: sole` is shown loudly, as a warning. */
function modeCheck(soleFrom: string | null): Check {
  if (soleFrom === null)
    return {
      check: "mode",
      status: "ok",
      detail: "compose: each call gets the stricter of Airlock and the agent's own permission check",
    };
  return {
    check: "mode",
    status: "warn",
    detail: `SOLE JUDGE (mode: sole in ${soleFrom}): an Airlock allow pre-approves calls and skips Claude Code's and Codex's own permission checks; remove the line to compose again`,
  };
}
