// How `airlock deploy` runs wrangler: which binary, with what environment, and its output kept for a failure report
// (wrangler's chatter is not shown on success; its offline DNS stack traces are never shown).
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { withoutOfflineNoise } from "./offline-noise.ts";
import { GENERATED, MODEL_KEY, VAPID } from "./secrets.ts";

export interface WranglerResult {
  status: number;
  stdout: string;
  stderr: string;
}

export interface Wrangler {
  /** The words a person would type, for --dry-run and failure messages. */
  readonly label: string;
  run(args: string[], options?: { cwd?: string; input?: string }): Promise<WranglerResult>;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `AIRLOCK_WRANGLER` when set; else `wrangler` on PATH (what `npm run deploy` puts first: the project's own);
 * else the package's node_modules/.bin/wrangler; else `npx --yes wrangler@4` for an installed package, which does
 * not ship wrangler.
 */
export function resolveWrangler(
  env: NodeJS.ProcessEnv,
  packageRoot: string,
): { command: string; prefix: string[] } {
  const set = env.AIRLOCK_WRANGLER?.trim();
  if (set) return { command: set, prefix: [] };
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir && executable(join(dir, "wrangler"))) return { command: join(dir, "wrangler"), prefix: [] };
  }
  const local = join(packageRoot, "node_modules", ".bin", "wrangler");
  if (executable(local)) return { command: local, prefix: [] };
  return { command: "npx", prefix: ["--yes", "wrangler@4"] };
}

/** wrangler's output for a failure report, without its offline DNS noise (offline-noise.ts). */
export const withoutNoise = withoutOfflineNoise;

export function nodeWrangler(env: NodeJS.ProcessEnv, packageRoot: string, defaultCwd: string): Wrangler {
  const { command, prefix } = resolveWrangler(env, packageRoot);
  // wrangler needs Node >= 22.12: children run under this same Node, never an older one first on PATH.
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    PATH: [dirname(process.execPath), env.PATH ?? ""].join(delimiter),
    WRANGLER_SEND_METRICS: "false",
    // No prompts: every question deploy would face is answered by its flags.
    CI: env.CI ?? "true",
  };
  // `wrangler deploy --secrets-file` lets the process environment override the file's values: a stray variable of
  // a secret's name must never replace what deploy generated (or decided to keep).
  for (const name of [...GENERATED, ...VAPID, MODEL_KEY]) delete childEnv[name];
  return {
    label: prefix.length ? `npx ${prefix.slice(1).join(" ")}` : "wrangler",
    run(args, options = {}) {
      return new Promise((resolve) => {
        const child = spawn(command, [...prefix, ...args], {
          cwd: options.cwd ?? defaultCwd,
          env: childEnv,
          stdio: ["pipe", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => {
          stdout += d;
        });
        child.stderr.on("data", (d) => {
          stderr += d;
        });
        child.on("error", (error) => resolve({ status: 127, stdout, stderr: `${stderr}${error.message}\n` }));
        child.on("close", (code) => resolve({ status: code ?? 1, stdout, stderr }));
        child.stdin.end(options.input ?? "");
      });
    },
  };
}

/** The first JSON value in wrangler's output (banners may precede it), or undefined. */
export function jsonOf(text: string): unknown {
  const start = text.search(/^[[{]/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}
