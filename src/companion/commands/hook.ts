// `airlock hook claude-code|codex|gemini|opencode|copilot`: the agent hook entry points (stdin JSON → decision JSON) and `--install`.

import type { HookResult } from "../adapters/hook-output.ts";
import { type Command, type CommandIo, ExitCode } from "../command.ts";
import { parseCommandArgs, UsageError } from "../command-args.ts";
import type { InstallResult } from "../hook-install.ts";
import { installTimeoutSeconds } from "../hook-runtime.ts";

const CLAUDE_HELP = `Usage: airlock hook claude-code                      (run by Claude Code; reads hook JSON on stdin)
       airlock hook claude-code --install [--project|--local] [--dry-run] [--json]
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

type Installed = InstallResult & { trusted?: { key: string }[]; configPath?: string };

async function installFor(
  agent: Agent,
  scope: { project: boolean; local: boolean },
  io: CommandIo,
  options: { remove: boolean; dryRun: boolean },
): Promise<Installed> {
  const projectOrUser = scope.project ? "project" : "user";
  switch (agent) {
    case "claude-code":
      return (await import("../adapters/claude-code/install.ts")).installClaudeHooks(
        scope.local ? "local" : projectOrUser,
        io.cwd,
        io.env,
        options,
      );
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

async function install(agent: Agent, args: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(args, {
    install: { type: "boolean" },
    uninstall: { type: "boolean" },
    project: { type: "boolean" },
    local: { type: "boolean" },
    "dry-run": { type: "boolean" },
    json: { type: "boolean" },
  });
  if (values.install && values.uninstall) throw new UsageError("give --install or --uninstall, not both");
  if (agent !== "claude-code" && values.local)
    throw new UsageError(`--local is a Claude Code option${agent === "copilot" ? "" : "; use --project"}`);
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
      options,
    );
    if (values.json)
      io.stdout(`${JSON.stringify({ ...result, removed: options.remove, dryRun: options.dryRun })}\n`);
    else if (options.dryRun) io.stdout(`${JSON.stringify(result.written, null, 2)}\n`);
    else if (options.remove) io.stdout(`Removed Airlock's ${agent} hooks from ${result.path}.\n`);
    else {
      io.stdout(
        `Installed Airlock's ${agent} hooks (${result.events.join(", ")}) in ${result.path}\n` +
          `  command: ${result.command}\n  timeout: ${result.timeoutSeconds} s (prompt timeout + 30 s: ${installTimeoutSeconds(io.env)} s)\n`,
      );
      if (result.trusted && result.configPath)
        io.stdout(
          `  trusted: ${result.trusted.length} hook(s) recorded in ${result.configPath} ([hooks.state], [features] hooks = true)\n`,
        );
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
