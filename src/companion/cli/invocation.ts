// How a person runs `airlock` from where they are, so every "Next:" hint is a command that works as printed.
import { accessSync, constants, readFileSync, realpathSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The npm package that ships the `airlock` command (`npx` must always name it: the bare name is someone else's). */
export const PACKAGE_NAME = "agent-airlock";

/** The package root (src/companion and dist/companion both sit two levels below it). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const BIN_PATH = join(PACKAGE_ROOT, "bin", "airlock.cjs");

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** True when `airlock` on PATH is this very package's bin. */
function onPath(env: NodeJS.ProcessEnv): boolean {
  const bin = real(BIN_PATH);
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "airlock");
    try {
      accessSync(candidate, constants.X_OK);
      if (real(candidate) === bin) return true;
    } catch {
      // not here
    }
  }
  return false;
}

function isCheckout(): boolean {
  try {
    const pkg: unknown = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8"));
    return (
      typeof pkg === "object" &&
      pkg !== null &&
      (pkg as { name?: unknown }).name === PACKAGE_NAME &&
      !PACKAGE_ROOT.split(/[\\/]/).includes("node_modules")
    );
  } catch {
    return false;
  }
}

/**
 * The words to type for `airlock`: `airlock` when this package is on PATH; `npm run -s airlock --` inside a checkout
 * (its directory), this Node and the absolute bin path from elsewhere; `npx agent-airlock` when installed as a
 * project dependency.
 */
export function airlockInvocation(env: NodeJS.ProcessEnv, cwd: string): string {
  if (onPath(env)) return "airlock";
  if (isCheckout()) {
    return real(resolve(cwd)) === real(PACKAGE_ROOT)
      ? "npm run -s airlock --"
      : `${process.execPath} ${BIN_PATH}`;
  }
  return `npx ${PACKAGE_NAME}`;
}
