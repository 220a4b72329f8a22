// What the Claude Code and Codex hooks add for precognition: warming on the prompt and at session start, and
// the PreToolUse rewrite of a warmed shell command into `airlock futures serve`. The same steps run in a hook
// process (the daemon over its socket) and inside the daemon (the fast hook's events, the engine in-process).
import type { Env } from "../cli/config.ts";
import { classOf, PLAIN_COMMAND } from "./command-classes.ts";
import { rewriteCommand } from "./rewrite.ts";
import { readSwitches } from "./switches.ts";
import type { TriggerSource } from "./triggers.ts";

/** Where the hook's precognition steps go: the daemon's engine, reached one way or the other. */
export interface PrecogBackend {
  /** Hands the prompt over for warming in the background (the default, silent mode). */
  forward(prompt: string, sessionId: string, cwd: string): Promise<void>;
  /** Warms and resolves with the text for the model under a non-silent injection mode. */
  warm(cwd: string, source: TriggerSource, text: string): Promise<string>;
  /** The key of a future the engine holds (or is warming) for this exact command. */
  lookup(cwd: string, command: string): Promise<string | null> | string | null;
  /** The command line that runs `airlock futures serve` (see rewrite.ts). */
  prefix(): string;
  /**
   * Serves the future now (policy asked again, re-validated) as a shell-only replay (replay.ts), falling back to
   * `fallback` when the replay is gone by the time it runs. Only where the daemon itself answers the hook (the
   * http hook): "replay" with the command line; "warming" when the future is not finished (the caller rewrites
   * to `futures serve`, which waits for it); "miss" when it is stale or policy no longer allows it (nothing is
   * rewritten, the command runs as it is).
   */
  replay?(
    cwd: string,
    command: string,
    key: string,
    fallback: string,
  ): Promise<{ kind: "replay"; line: string } | { kind: "warming" } | { kind: "miss" }>;
}

export interface PrecogHooks {
  /** Returns text to add to the model's context (only in non-silent injection modes). */
  promptText(prompt: string, sessionId: string, cwd: string): Promise<string>;
  /** Idle warming at session start: git status and the manifest, while the person types the first prompt. */
  sessionStarted(cwd: string): Promise<void>;
  /**
   * For an allowed shell call whose exact command is warmed (or warming): the tool input with the command
   * rewritten to `airlock futures serve <key> -- '<command>'`, or, where the backend replays, to the shell
   * replay of the validated future; undefined otherwise (the call runs unchanged).
   */
  servingInput(toolInput: Record<string, unknown>, cwd: string): Promise<Record<string, unknown> | undefined>;
}

/** The hook's precognition steps under the hook's own switches (`env`), against one backend. */
export function precogHooks(env: Env, backend: PrecogBackend): PrecogHooks {
  const switches = readSwitches(env);
  return {
    promptText: async (prompt, sessionId, cwd) => {
      // I10: switched off, the prompt goes nowhere.
      if (!switches.enabled) return "";
      if (switches.injectionMode === "silent-futures") {
        await backend.forward(prompt, sessionId, cwd);
        return "";
      }
      return backend.warm(cwd, "prompt", prompt);
    },
    sessionStarted: async (cwd) => {
      if (switches.enabled) await backend.warm(cwd, "idle", "");
    },
    servingInput: async (toolInput, cwd) => {
      // Observation only (`_TOOL_CACHE=0`) or read futures only (`_COMMAND_FUTURES=0`): nothing is rewritten.
      if (!switches.enabled || !switches.toolCache || !switches.commandFutures) return undefined;
      // A command with its own working directory (Codex's `workdir`) runs elsewhere than the futures warmed here.
      if (toolInput.workdir !== undefined) return undefined;
      const command = toolInput.command;
      // The built-in classes, or a plain command the daemon may know from permissions.yaml.
      if (typeof command !== "string" || !(classOf(command) || PLAIN_COMMAND.test(command))) return undefined;
      const key = await backend.lookup(cwd, command);
      if (!key) return undefined;
      const fallback = rewriteCommand(key, command, backend.prefix());
      if (backend.replay) {
        // One request decides, validates and serves: the command becomes a replay costing a few shell words.
        const served = await backend.replay(cwd, command, key, fallback);
        if (served.kind === "replay") return { ...toolInput, command: served.line };
        if (served.kind === "miss") return undefined;
      }
      return { ...toolInput, command: fallback };
    },
  };
}
