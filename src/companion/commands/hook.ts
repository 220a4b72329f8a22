// `airlock hook claude-code|codex|gemini|opencode|copilot`: the agent hook entry points (stdin JSON → decision JSON) and `--install`.

import { type Command, type CommandIo, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import type { InstallResult } from "../hooks/install.ts";
import type { HookResult } from "../hooks/output.ts";
import { installTimeoutSeconds } from "../hooks/runtime.ts";

const CLAUDE_HELP = `Usage: airlock hook claude-code                      (run by Claude Code; reads hook JSON on stdin)
       airlock hook claude-code --install [--project|--local] [--command] [--dry-run] [--json]
       airlock hook claude-code --uninstall [--project|--local]

As a hook: PreToolUse prints {"hookSpecificOutput":{"hookEventName":"PreToolUse",
"permissionDecision":"deny"|"allow"|"ask","permissionDecisionReason":"…"}} — "allow" only for a
person's answer or under "mode: sole"; a policy allow prints nothing, so Claude Code's own
permission check still runs. PermissionRequest (Claude Code's own check asks) goes to the phone
marked "Claude Code asks about this" and prints {"hookSpecificOutput":{"hookEventName":
"PermissionRequest","decision":{"behavior":"allow"|"deny",…}}}; UserPromptSubmit forwards the
prompt to the daemon and prints nothing. A call that needs a person waits for the phone (up to
AIRLOCK_PROMPT_TIMEOUT_MS, default 30 s); AIRLOCK_CLAUDE_ASK=local answers "ask" instead (Claude
Code's own prompt). Any failure denies.

--install merges PreToolUse, PermissionRequest, UserPromptSubmit and SessionEnd entries (timeout above the
prompt timeout) into ~/.claude/settings.json ($CLAUDE_CONFIG_DIR honoured), or with --project
.claude/settings.json, --local .claude/settings.local.json; other hooks are kept.
When "claude --version" on PATH is 2.1.295 or later (and the file is not --project), PreToolUse and
PermissionRequest are "type": "http" hooks posting to the daemon on 127.0.0.1 (port and secret in
$AIRLOCK_HOME/http-hook.json, 0600; the settings file is then written 0600) with "onFailure":
"block": no process per call, and a daemon that is down blocks the call. The other events stay
command hooks and start the daemon when none runs. --command installs command hooks only.

Exit codes (as a hook): 0 with the decision JSON on stdout, 2 when the input is not a hook
event at all (reason on stderr; Claude Code blocks the call). --install: 0 written, 3 the
settings file is not valid JSON (left untouched).
`;

const CODEX_HELP = `Usage: airlock hook codex                      (run by Codex; reads hook JSON on stdin)
       airlock hook codex --install [--project] [--dry-run] [--json]
       airlock hook codex --uninstall [--project]

As a hook (Codex's contract): PreToolUse prints nothing to allow, or {"hookSpecificOutput":
{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"…"}} to
deny. Codex has no "ask": a call that needs a person waits for the phone and is answered allow
or deny. apply_patch is judged per file. PermissionRequest (Codex's own approval policy asks)
goes to the phone marked "Codex asks about this", never answered from Airlock's policy, and
prints decision.behavior allow/deny. Codex's sandbox is never changed.
UserPromptSubmit forwards the prompt to the daemon. Any failure denies.

--install merges entries into ~/.codex/hooks.json ($CODEX_HOME honoured) or, with --project,
.codex/hooks.json, and records each entry as trusted in config.toml the way Codex's own /hooks
review does ([hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"), with
[features] hooks = true: Codex skips untrusted hooks without a word. "airlock doctor" checks it.

Exit codes: as for "airlock hook claude-code".
`;

const GEMINI_HELP = `Usage: airlock hook gemini                      (run by Gemini CLI; reads hook JSON on stdin)
       airlock hook gemini --install [--project] [--dry-run] [--json]
       airlock hook gemini --uninstall [--project]

As a hook (Gemini CLI's contract): BeforeTool prints nothing to allow (Gemini's own policy
engine and confirmation already let the call through), or {"decision":"deny","reason":"…"};
Gemini hands the model "Tool execution blocked: <reason>". A call that needs a person waits for
the phone. A warmed shell command is served from its precognition future (hookSpecificOutput
.tool_input). BeforeAgent forwards the prompt for warming. Any failure denies.

--install merges BeforeTool, BeforeAgent, SessionStart and SessionEnd entries (timeout in ms) into
~/.gemini/settings.json or, with --project, .gemini/settings.json. Gemini runs hooks only in
folders it trusts (~/.gemini/trustedFolders.json).

Exit codes: as for "airlock hook claude-code".
`;

const OPENCODE_HELP = `Usage: airlock hook opencode                      (run by Airlock's OpenCode plugin)
       airlock hook opencode --install [--project] [--dry-run] [--json]
       airlock hook opencode --uninstall [--project]

--install writes Airlock's plugin, airlock.js, to ~/.config/opencode/plugin ($XDG_CONFIG_HOME
honoured) or, with --project, .opencode/plugin. On each tool.execute.before the plugin runs this
hook, which prints {"decision":"allow"} or {"decision":"deny","reason":"…"}; the plugin throws the
reason, which OpenCode hands the model. OpenCode's own permission check still runs inside the
tool. A call that needs a person waits for the phone. Any failure denies.

Exit codes: as for "airlock hook claude-code".
`;

const COPILOT_HELP = `Usage: airlock hook copilot                      (run by GitHub Copilot CLI; reads hook JSON on stdin)
       airlock hook copilot --install [--dry-run] [--json]
       airlock hook copilot --uninstall

As a hook (Copilot CLI's camelCase contract): preToolUse prints nothing to allow (Copilot's own
--allow-tool/--deny-tool check stands), or {"permissionDecision":"deny",
"permissionDecisionReason":"…"}, which Copilot hands the model. A call that needs a person waits
for the phone. userPromptSubmitted forwards the prompt for warming. Any failure denies.

--install writes $COPILOT_HOME/hooks/airlock.json (default ~/.copilot) with preToolUse,
userPromptSubmitted, sessionStart and sessionEnd entries; other hook files are left alone.

Exit codes: as for "airlock hook claude-code".
`;

export type Agent = "claude-code" | "codex" | "gemini" | "opencode" | "copilot";

type Installed = InstallResult & {
  trusted?: { key: string }[];
  notes?: string[];
  configPath?: string;
  /** Claude Code only: which hook type the installer chose, and why. */
  hookType?: string;
};

async function installFor(
  agent: Agent,
  scope: { project: boolean; local: boolean },
  io: CommandIo,
  options: { remove: boolean; dryRun: boolean; forceCommand: boolean },
): Promise<Installed> {
  const projectOrUser = scope.project ? "project" : "user";
  switch (agent) {
    case "claude-code": {
      const claude = await import("../adapters/claude-code/install.ts");
      const where = scope.local ? "local" : projectOrUser;
      const chosen = options.remove
        ? undefined
        : await claude.chooseClaudeHookType(where, io.env, {
            forceCommand: options.forceCommand,
            dryRun: options.dryRun,
          });
      const result = await claude.installClaudeHooks(where, io.cwd, io.env, {
        remove: options.remove,
        dryRun: options.dryRun,
        ...(chosen?.type === "http" ? { http: chosen.endpoint } : {}),
      });
      return chosen ? { ...result, hookType: `${chosen.type} (${chosen.why})` } : result;
    }
    case "codex":
      return (await import("../adapters/codex/install.ts")).installCodexHooks(
        projectOrUser,
        io.cwd,
        io.env,
        options,
      );
    case "gemini":
      return (await import("../adapters/gemini/install.ts")).installGeminiHooks(
        projectOrUser,
        io.cwd,
        io.env,
        options,
      );
    case "opencode":
      return (await import("../adapters/opencode/install.ts")).installOpenCodePlugin(
        projectOrUser,
        io.cwd,
        io.env,
        options,
      );
    case "copilot":
      return (await import("../adapters/copilot/install.ts")).installCopilotHooks(io.env, options);
  }
}

/** The value of Airlock's secret header, wherever it appears in a printed settings file. */
function redactHookSecret(text: string): string {
  return text.replace(
    /("x-airlock-hook-secret":\s*")[0-9a-f]{64}"/g,
    '$1[redacted: see $AIRLOCK_HOME/http-hook.json]"',
  );
}

async function install(agent: Agent, args: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(args, {
    install: { type: "boolean" },
    uninstall: { type: "boolean" },
    project: { type: "boolean" },
    local: { type: "boolean" },
    "dry-run": { type: "boolean" },
    json: { type: "boolean" },
    command: { type: "boolean" },
  });
  if (values.install && values.uninstall) throw new UsageError("give --install or --uninstall, not both");
  if (agent !== "claude-code" && values.local)
    throw new UsageError(`--local is a Claude Code option${agent === "copilot" ? "" : "; use --project"}`);
  if (agent !== "claude-code" && values.command)
    throw new UsageError(`--command is a Claude Code option (${agent} hooks are always commands)`);
  if (agent === "copilot" && values.project)
    throw new UsageError(
      "Copilot CLI hooks are installed for the user ($COPILOT_HOME/hooks); there is no --project",
    );
  const options = { remove: values.uninstall ?? false, dryRun: values["dry-run"] ?? false };
  try {
    const result = await installFor(
      agent,
      { project: values.project ?? false, local: values.local ?? false },
      io,
      { ...options, forceCommand: values.command ?? false },
    );
    const hookType = result.hookType;
    // The http hook's secret is in the file; it is never printed.
    const shown = (value: unknown) =>
      redactHookSecret(JSON.stringify(value, null, values.json ? undefined : 2));
    if (values.json)
      io.stdout(
        `${shown({ ...result, ...(hookType ? { hookType } : {}), removed: options.remove, dryRun: options.dryRun })}\n`,
      );
    else if (options.dryRun) io.stdout(`${shown(result.written)}\n`);
    else if (options.remove) io.stdout(`Removed Airlock's ${agent} hooks from ${result.path}.\n`);
    else {
      io.stdout(
        `Installed Airlock's ${agent} hooks (${result.events.join(", ")}) in ${result.path}\n` +
          `  command: ${result.command}\n  timeout: ${result.timeoutSeconds} s (prompt timeout + 30 s: ${installTimeoutSeconds(io.env)} s)\n`,
      );
      if (hookType?.startsWith("http"))
        io.stdout(
          `  per call: http to the daemon, blocking when it does not answer; ${hookType}\n` +
            "  session start, prompts and session end: the command above (it starts the daemon when none runs)\n",
        );
      else if (hookType) io.stdout(`  per call: the command above; ${hookType}\n`);
      if (result.trusted && result.configPath) {
        const notes = result.notes ?? [];
        const set = [
          "[hooks.state]",
          ...(notes.some((n) => n.includes("hooks = false")) ? [] : ["[features] hooks = true"]),
          ...(values.project && !notes.some((n) => n.includes("trust_level"))
            ? [`the project trusted ([projects."${io.cwd}"])`]
            : []),
        ];
        io.stdout(
          `  trusted: ${result.trusted.length} hook(s) recorded in ${result.configPath} (${set.join(", ")})\n`,
        );
      }
      for (const note of result.notes ?? []) io.stderr(`airlock hook ${agent}: warning: ${note}\n`);
    }
    return ExitCode.ok;
  } catch (error) {
    io.stderr(`airlock hook ${agent}: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.config;
  }
}

async function runAgentHook(agent: Agent, stdin: string, env: CommandIo["env"]): Promise<HookResult> {
  switch (agent) {
    case "claude-code":
      return (await import("../adapters/claude-code/hook.ts")).runClaudeCodeHook(stdin, env);
    case "codex":
      return (await import("../adapters/codex/hook.ts")).runCodexHook(stdin, env);
    case "gemini":
      return (await import("../adapters/gemini/hook.ts")).runGeminiHook(stdin, env);
    case "opencode":
      return (await import("../adapters/opencode/hook.ts")).runOpenCodeHook(stdin, env);
    case "copilot":
      return (await import("../adapters/copilot/hook.ts")).runCopilotHook(stdin, env);
  }
}

async function runHook(agent: Agent, io: CommandIo): Promise<number> {
  let stdin = "";
  try {
    stdin = await io.readStdin();
  } catch {
    // an unreadable stdin is handled as malformed input below
  }
  const result = await runAgentHook(agent, stdin, io.env);
  if (result.stdout) io.stdout(result.stdout);
  if (result.stderr) io.stderr(result.stderr);
  return result.exitCode;
}

function hookCommand(agent: Agent, help: string): Command {
  return {
    name: ["hook", agent],
    help,
    async run(args, io) {
      if (args.includes("--install") || args.includes("--uninstall")) return install(agent, args, io);
      // Fail closed even when misconfigured: a usage error exits 2, which the agent treats as blocking.
      if (args.length > 0)
        throw new UsageError(`unexpected argument "${args[0]}" (as a hook it reads the event on stdin)`);
      return runHook(agent, io);
    },
  };
}

export const hookClaudeCodeCommand = hookCommand("claude-code", CLAUDE_HELP);
export const hookCodexCommand = hookCommand("codex", CODEX_HELP);
export const hookGeminiCommand = hookCommand("gemini", GEMINI_HELP);
export const hookOpenCodeCommand = hookCommand("opencode", OPENCODE_HELP);
export const hookCopilotCommand = hookCommand("copilot", COPILOT_HELP);
