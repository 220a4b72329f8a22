// `airlock up`: runs the companion daemon in the foreground until interrupted.

import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs } from "../cli/command-args.ts";
import { airlockHome, daemonIdleMs, socketPath } from "../cli/config.ts";

const HELP = `Usage: airlock up [--quiet] [--on-demand]

Runs the Airlock daemon in the foreground: one websocket to your account's hub (reconnects
with jitter, resumes calls that were waiting for a person), the control socket hooks and
adapters use ($XDG_RUNTIME_DIR/airlock/daemon.sock, or $AIRLOCK_HOME/run/daemon.sock;
override with AIRLOCK_SOCKET), the layered policy (reloaded when a file changes; a bad
edit keeps the last good policy and says so), grant caches and emergency controls.
Stop it with Ctrl-C (SIGINT) or SIGTERM; calls waiting for a person are journaled in
$AIRLOCK_HOME/state and resumed by the next "airlock up".

Without pairing it still answers local allow/deny; calls that need a person are denied.

The first hook that finds no daemon starts one with --on-demand (its log goes to
$AIRLOCK_HOME/daemon.log); set AIRLOCK_AUTOSTART=0 to keep hooks from doing so.

Options:
  --quiet       log only errors
  --on-demand   exit when idle (no request and no call waiting for AIRLOCK_DAEMON_IDLE_MS,
                default 30 minutes) or when its socket file is removed

Exit codes: 0 stopped by a signal, 1 could not start (e.g. already running).
`;

export const upCommand: Command = {
  name: ["up"],
  help: HELP,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      quiet: { type: "boolean" },
      "on-demand": { type: "boolean" },
    });
    const quiet = values.quiet ?? false;
    let lastRequest = Date.now();
    const log = (line: string) => {
      if (!quiet) io.stderr(`${new Date().toISOString()} airlock: ${line}\n`);
    };
    // Loaded on demand, like every heavy module, so other commands (hooks above all) start fast.
    const { Daemon } = await import("../daemon/daemon.ts");
    const daemon = new Daemon({
      env: io.env,
      log,
      version: process.env.npm_package_version ?? "0.1.0",
      onRequest: () => {
        lastRequest = Date.now();
      },
    });
    try {
      await daemon.start();
    } catch (error) {
      io.stderr(`airlock up: ${error instanceof Error ? error.message : String(error)}\n`);
      await daemon.stop().catch(() => {});
      return ExitCode.failure;
    }
    const socket = socketPath(io.env);
    // The hook that started this daemon left a marker so others would not start a second one; it is up now.
    rmSync(join(airlockHome(io.env), "run", "starting"), { force: true });
    log(`daemon ${process.pid} ready (socket ${socket})`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
      if (!values["on-demand"]) return;
      const idleMs = daemonIdleMs(io.env);
      const check = setInterval(
        () => {
          const gone = !existsSync(socket);
          const idle = Date.now() - lastRequest > idleMs && daemon.status().pending.length === 0;
          if (gone || idle) {
            log(
              gone
                ? `socket ${socket} was removed; exiting`
                : "idle; exiting (the next hook starts a daemon again)",
            );
            clearInterval(check);
            resolve();
          }
        },
        Math.min(5_000, idleMs),
      );
      check.unref();
    });
    log("stopping");
    await daemon.stop();
    return ExitCode.ok;
  },
};
