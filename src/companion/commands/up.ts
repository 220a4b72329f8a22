// `airlock up`: runs the companion daemon in the foreground until interrupted.
import { type Command, ExitCode } from "../command.ts";
import { parseCommandArgs } from "../command-args.ts";
import { socketPath } from "../config.ts";

const HELP = `Usage: airlock up [--quiet]

Runs the Airlock daemon in the foreground: one websocket to your account's hub (reconnects
with jitter, resumes calls that were waiting for a person), the control socket hooks and
adapters use ($XDG_RUNTIME_DIR/airlock/daemon.sock, or $AIRLOCK_HOME/run/daemon.sock;
override with AIRLOCK_SOCKET), the layered policy (reloaded when a file changes; a bad
edit keeps the last good policy and says so), grant caches and emergency controls.
Stop it with Ctrl-C (SIGINT) or SIGTERM; calls waiting for a person are journaled in
$AIRLOCK_HOME/state and resumed by the next "airlock up".

Without pairing it still answers local allow/deny; calls that need a person are denied.

Options:
  --quiet   log only errors

Exit codes: 0 stopped by a signal, 1 could not start (e.g. already running).
`;

export const upCommand: Command = {
  name: ["up"],
  help: HELP,
  async run(args, io) {
    const quiet = parseCommandArgs(args, { quiet: { type: "boolean" } }).values.quiet ?? false;
    const log = (line: string) => {
      if (!quiet) io.stderr(`${new Date().toISOString()} airlock: ${line}\n`);
    };
    // Loaded on demand, like every heavy module, so other commands (hooks above all) start fast.
    const { Daemon } = await import("../daemon/daemon.ts");
    const daemon = new Daemon({ env: io.env, log, version: process.env.npm_package_version ?? "0.1.0" });
    try {
      await daemon.start();
    } catch (error) {
      io.stderr(`airlock up: ${error instanceof Error ? error.message : String(error)}\n`);
      await daemon.stop().catch(() => {});
      return ExitCode.failure;
    }
    log(`daemon ${process.pid} ready (socket ${socketPath(io.env)})`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
    log("stopping");
    await daemon.stop();
    return ExitCode.ok;
  },
};
