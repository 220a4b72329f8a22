// `airlock init`: a starter permissions.yaml, and the hooks of the agents found on this machine.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline/promises";
import { type Command, type CommandIo, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { airlockHome, type Env } from "../cli/config.ts";
import { airlockInvocation, PACKAGE_ROOT } from "../cli/invocation.ts";
import { diskCheck } from "../guards/disk-view.ts";
import { findRepoRoot, homeDir } from "../local-policy/files.ts";
import {
  DEFAULT_PROFILE,
  PROFILE_SUMMARY,
  PROFILES,
  type Profile,
  starterPolicy,
} from "../local-policy/starter.ts";
import { type ProfilePreview, previewProfiles } from "../profiles/preview.ts";
import { installPiPackage, onUserPath } from "./pi-install.ts";

const HELP = `Usage: airlock init [--profile cautious|balanced|autonomous] [--yes] [--no-hooks] [--json]

Writes a starter policy to $AIRLOCK_HOME/permissions.yaml (default ~/.airlock), for one of three
profiles (an existing file is kept as it is):

  cautious     ${PROFILE_SUMMARY.cautious}
  balanced     ${PROFILE_SUMMARY.balanced} (the default)
  autonomous   ${PROFILE_SUMMARY.autonomous}

Under every profile secret files are denied, and destructive git (branch -D, reset --hard,
push --force, remote add …), anything high risk and anything not understood asks your phone.
First it prints what each profile would ask on this repository, judged on a built-in list of
about 200 everyday agent calls; in a terminal it then asks which profile to write.

Then it looks for Claude Code, Codex, Pi, Gemini CLI, OpenCode and GitHub Copilot CLI on your
PATH (never in a node_modules/.bin that npm or npx put there) and offers to install Airlock's hook
for each one it finds, saying where it found it (in a terminal it asks; --yes installs them all
without asking; without a terminal it
prints the command for each).

Options:
  --profile P  the profile to write, without asking (default balanced)
  --yes        install the hooks of every agent found without asking
  --no-hooks   only write the policy
  --json       print {policy: {path, written, profile}, preview: [{profile, total, asks, readOnly,
               readOnlyAsks, high, examples}], agents: [{agent, found, installed, detail}]}

Exit codes: 0 done, 1 a hook could not be installed, 2 bad arguments.
`;

interface AgentReport {
  agent: "claude-code" | "codex" | "pi" | "gemini" | "opencode" | "copilot";
  found: boolean;
  installed: boolean;
  detail: string;
}

/**
 * Where each agent is installed: its binary on the user's PATH, never in a `node_modules/.bin` that npm or npx put
 * there (this checkout has the agents as devDependencies; the user may have none of them).
 */
function detect(env: Env): Record<AgentReport["agent"], string | undefined> {
  return {
    "claude-code": onUserPath("claude", env),
    codex: onUserPath("codex", env),
    pi: onUserPath("pi", env),
    gemini: onUserPath("gemini", env),
    opencode: onUserPath("opencode", env),
    copilot: onUserPath("copilot", env),
  };
}

const NAMES = {
  "claude-code": "Claude Code",
  codex: "Codex",
  pi: "Pi",
  gemini: "Gemini CLI",
  opencode: "OpenCode",
  copilot: "Copilot CLI",
} as const;

async function install(agent: AgentReport["agent"], io: CommandIo): Promise<string> {
  if (agent === "claude-code") {
    const claude = await import("../adapters/claude-code/install.ts");
    const chosen = await claude.chooseClaudeHookType("user", io.env);
    const http = chosen.type === "http" ? { http: chosen.endpoint } : {};
    return `${chosen.type} hooks installed in ${claude.installClaudeHooks("user", io.cwd, io.env, http).path} (${chosen.why})`;
  }
  if (agent === "codex") {
    const { installCodexHooks } = await import("../adapters/codex/install.ts");
    const result = installCodexHooks("user", io.cwd, io.env);
    return [`hooks installed in ${result.path}`, ...result.notes.map((n) => `warning: ${n}`)].join("; ");
  }
  if (agent === "gemini") {
    const { installGeminiHooks } = await import("../adapters/gemini/install.ts");
    return `hooks installed in ${installGeminiHooks("user", io.cwd, io.env).path}`;
  }
  if (agent === "opencode") {
    const { installOpenCodePlugin } = await import("../adapters/opencode/install.ts");
    return `plugin installed in ${installOpenCodePlugin("user", io.cwd, io.env).path}`;
  }
  if (agent === "copilot") {
    const { installCopilotHooks } = await import("../adapters/copilot/install.ts");
    return `hooks installed in ${installCopilotHooks(io.env).path}`;
  }
  return installPiPackage(io.env, io.cwd);
}

/** A preview is an estimate: a smaller walk keeps init quick in a large directory (over it, a search asks). */
const PREVIEW_WALK_BOUND = 5_000;

/** The preview as init prints it: one line per profile. */
function previewText(preview: readonly ProfilePreview[], where: string): string {
  const total = preview[0]?.total ?? 0;
  const lines = preview.map(
    (p) =>
      `  ${p.profile.padEnd(11)} asks ${String(p.asks).padStart(3)} of ${total}` +
      ` (read-only ${p.readOnlyAsks} of ${p.readOnly}, high risk ${p.high})` +
      (p.examples.length > 0 ? `  e.g. ${p.examples.slice(0, 3).join(", ")}` : ""),
  );
  return `What each profile would ask in ${where}, judged on ${total} everyday agent calls:\n${lines.join("\n")}\n`;
}

function profileOf(value: string | undefined): Profile | undefined {
  if (value === undefined) return undefined;
  const found = PROFILES.find((p) => p === value.trim().toLowerCase());
  if (found === undefined)
    throw new UsageError(`--profile takes one of ${PROFILES.join(", ")}, got "${value}"`);
  return found;
}

function manualStep(agent: AgentReport["agent"], airlock: string): string {
  return agent === "pi" ? `pi install ${PACKAGE_ROOT}` : `${airlock} hook ${agent} --install`;
}

export const initCommand: Command = {
  name: ["init"],
  help: HELP,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      profile: { type: "string" },
      yes: { type: "boolean" },
      "no-hooks": { type: "boolean" },
      json: { type: "boolean" },
    });
    const airlock = airlockInvocation(io.env, io.cwd);
    const path = join(airlockHome(io.env), "permissions.yaml");
    const existed = existsSync(path);
    let profile = profileOf(values.profile);
    const workspace = findRepoRoot(io.cwd);
    const preview = previewProfiles(
      workspace,
      homeDir(io.env),
      diskCheck({ env: io.env, walkBound: PREVIEW_WALK_BOUND }),
    );
    if (!values.json) io.stdout(previewText(preview, workspace));
    const agents: AgentReport[] = [];
    const ask =
      io.stdinIsTTY && !values.yes && !values.json
        ? createInterface({ input: process.stdin, output: process.stderr })
        : undefined;
    try {
      if (!existed && profile === undefined && ask) {
        const answer = await ask.question(`Profile to write [${PROFILES.join("/")}] (${DEFAULT_PROFILE}): `);
        profile = PROFILES.find((p) => answer.trim() !== "" && p.startsWith(answer.trim().toLowerCase()));
      }
      profile ??= DEFAULT_PROFILE;
      if (!existed) {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        writeFileSync(path, starterPolicy(profile), { mode: 0o600 });
      }
      for (const [agent, where] of Object.entries(detect(io.env)) as [
        AgentReport["agent"],
        string | undefined,
      ][]) {
        if (!where) {
          agents.push({ agent, found: false, installed: false, detail: "not found on your PATH" });
          continue;
        }
        let wanted = values.yes === true && !values["no-hooks"];
        if (ask && !values["no-hooks"]) {
          const answer = await ask.question(
            `Install Airlock's hook for ${NAMES[agent]} (found ${where})? [Y/n] `,
          );
          wanted = !/^n/i.test(answer.trim());
        }
        if (!wanted) {
          agents.push({
            agent,
            found: true,
            installed: false,
            detail: `found ${where}; to gate it, run: ${manualStep(agent, airlock)}`,
          });
          continue;
        }
        try {
          agents.push({
            agent,
            found: true,
            installed: true,
            detail: `found ${where}; ${await install(agent, io)}`,
          });
        } catch (error) {
          agents.push({
            agent,
            found: true,
            installed: false,
            detail: `found ${where}; ${error instanceof Error ? error.message : String(error)}`,
          });
        }
      }
    } finally {
      ask?.close();
    }
    const failed = agents.some(
      (a) => a.found && !a.installed && (values.yes || !!ask) && !values["no-hooks"],
    );
    if (values.json) {
      io.stdout(
        `${JSON.stringify({ policy: { path, written: !existed, ...(existed ? {} : { profile }) }, preview, agents })}\n`,
      );
      return failed ? ExitCode.failure : ExitCode.ok;
    }
    io.stdout(
      existed
        ? `Kept your policy ${path} as it is (move it away and run init again for the starter).\n`
        : `Wrote ${path} (profile ${profile}): ${PROFILE_SUMMARY[profile ?? DEFAULT_PROFILE]};\n` +
            `secret files are denied, everything else asks your phone.\n`,
    );
    for (const a of agents) io.stdout(`${NAMES[a.agent].padEnd(12)} ${a.detail}\n`);
    io.stdout(`Next: ${airlock} try   (sends a test call to your phone and prints the answer)\n`);
    return failed ? ExitCode.failure : ExitCode.ok;
  },
};
