// npm's configuration, read where npm reads it, for what could move an allowed npm command's writes or
// run code (red team, round 10: a repo-shipped `.npmrc` `logs-dir=~/.bashrc.d` made `npm ls 'x$(cmd)'`
// write its debug log, `verbose argv "ls" "x$(cmd)"`, where the next shell sources it). Rather than list
// the dangerous keys (logs-dir, cache, prefix, userconfig, globalconfig, script-shell, node-options,
// init-module, shell, editor, git, tmp … and whatever npm adds next), only keys known to leave writes,
// programs and files alone are let pass: any other key in a file npm reads as the project's asks.

import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { textFileOrNull } from "./text-file.ts";
import { shownPath } from "./tree-walk.ts";

/** Keys that change what npm fetches, saves into package.json or prints, never where it writes or what it runs. */
const SAFE = new Set([
  "registry",
  "save",
  "save-exact",
  "save-prefix",
  "save-dev",
  "save-optional",
  "save-peer",
  "save-prod",
  "fund",
  "audit",
  "audit-level",
  "loglevel",
  "progress",
  "color",
  "unicode",
  "engine-strict",
  "legacy-peer-deps",
  "strict-peer-deps",
  "package-lock",
  "update-notifier",
  "fetch-retries",
  "fetch-retry-factor",
  "fetch-retry-mintimeout",
  "fetch-retry-maxtimeout",
  "fetch-timeout",
  "prefer-offline",
  "prefer-online",
  "offline",
  "omit",
  "include",
  "optional",
  "access",
  "strict-ssl",
  "ignore-scripts",
  "init-author-name",
  "init-author-email",
  "init-author-url",
  "init-license",
  "init-version",
  "lockfile-version",
  "install-strategy",
  "workspaces-update",
  "maxsockets",
  "proxy",
  "https-proxy",
  "noproxy",
  "auto-install-peers",
  "strict-peer-dependencies",
  "shamefully-hoist",
  "always-auth",
]);

/** Credentials for a registry (`//host/path/:_authToken=…`): they only go with its requests. */
const AUTH = /^\/\/[^\s=]*:(_authtoken|_auth|_password|username|email|always-auth)$/;
/** Top-level credentials (npm's legacy form). */
const TOP_AUTH = new Set(["_auth", "_authtoken", "_password", "username", "email"]);

/** The first key of `body` (an ini file as npm's parser reads it) not known safe, or null. */
export function unsafeKey(body: string): string | null {
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#")) continue;
    // A section nests its keys under another name: not modelled.
    if (line.startsWith("[")) return line;
    const eq = line.indexOf("=");
    const key = (eq === -1 ? line : line.slice(0, eq)).trim().replace(/\[\]$/, "");
    if (!safeKey(key)) return key;
  }
  return null;
}

function safeKey(key: string): boolean {
  const k = key.toLowerCase();
  if (AUTH.test(k) || TOP_AUTH.has(k)) return true;
  if (/^@[a-z0-9._~-]+:registry$/.test(k)) return true;
  // npm reads `logs_dir` for `logs-dir` from the environment; a file's spelling is judged the same way.
  return SAFE.has(k.replace(/_/g, "-"));
}

/**
 * npm's variable for `key` in `env`, as npm's config loader finds it: any name matching
 * /^npm_config_KEY$/i (`Npm_Config_Userconfig` too), the last non-empty one winning.
 */
function envValue(env: NodeJS.ProcessEnv, key: string): string | undefined {
  const name = `npm_config_${key}`;
  let found: string | undefined;
  for (const [k, v] of Object.entries(env)) if (k.toLowerCase() === name && v) found = v;
  return found;
}

/** A key as the reason shows it: a plain option name by name, anything else (a line that may hold a token) not. */
function named(key: string): string {
  return /^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(key) ? `\`${key}\`` : "a key Airlock does not know";
}

/**
 * Why npm's configuration makes an npm unit run in `dir` need a person, or null. The files npm reads as
 * the project's (every `.npmrc` from `dir` up, the user's own file aside) are the ones a cloned repository
 * ships; the user's file (`~/.npmrc`, or the one `npm_config_userconfig` names), the global one and the
 * `npm_config_*` variables of the agent's environment are the person's own settings, which the agent
 * cannot change without a person (the file is a secret outside the workspace, an assignment before a
 * command is judged as such) — and npm exports its whole resolved configuration (cache, prefix,
 * init_module, globalconfig …) as `npm_config_*` to every program it starts, an agent launched by `npx`
 * included: judging those would make every npm call ask for them.
 */
export function npmConfigFact(
  dir: string,
  env: NodeJS.ProcessEnv,
  workspace: string,
  subject: string,
): CallFact | null {
  const why = "which may move where npm writes (logs, cache) or run code (script-shell, node-options)";
  const home = env.HOME || homedir();
  const userValue = envValue(env, "userconfig");
  const user = userValue !== undefined ? resolve(dir, userValue) : join(home, ".npmrc");
  for (let d = dir; ; d = dirname(d)) {
    const file = join(d, ".npmrc");
    const body = file === user ? null : textFileOrNull(file);
    const key = body === null ? null : unsafeKey(body);
    if (key !== null)
      return {
        subject,
        reason: `\`${shownPath(file, workspace)}\` sets ${named(key)}, ${why}`,
      };
    if (dirname(d) === d) return null;
  }
}
