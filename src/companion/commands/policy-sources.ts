// Shared by the policy commands: `--config [layer:]FILE` arguments and error formatting.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { PolicyLoadError, PolicySource, SourceLayer } from "../../policy/index.ts";
import type { Env } from "../cli/config.ts";
import { loadPolicySources } from "../local-policy/files.ts";

const PREFIXES: Record<string, { layer: SourceLayer; trusted: boolean }> = {
  agent: { layer: "agent", trusted: true },
  user: { layer: "user", trusted: true },
  project: { layer: "project", trusted: false },
  "trusted-project": { layer: "project", trusted: true },
  account: { layer: "account", trusted: true },
};

/** `user:FILE`, `project:FILE`, `trusted-project:FILE`, `agent:FILE`, `account:FILE`; bare FILE is user. */
export function parseConfigArg(
  arg: string,
  cwd: string,
): { layer: SourceLayer; path: string; trusted: boolean } {
  const m = /^([a-z-]+):(.+)$/.exec(arg);
  const prefix = m?.[1] ? PREFIXES[m[1]] : undefined;
  if (m?.[2] && prefix) return { ...prefix, path: resolve(cwd, m[2]) };
  return { layer: "user", trusted: true, path: resolve(cwd, arg) };
}

export function readConfigArgs(args: readonly string[], cwd: string): PolicySource[] {
  return args.map((arg) => {
    const c = parseConfigArg(arg, cwd);
    const source: PolicySource = { layer: c.layer, path: c.path, text: readFileSync(c.path, "utf8") };
    if (c.layer === "project") source.trusted = c.trusted;
    return source;
  });
}

/** The explicit files when given, else the layers discovered for `cwd`. */
export function sourcesFor(
  configArgs: readonly string[],
  cwd: string,
  env: Env,
  baseDir = cwd,
): PolicySource[] {
  return configArgs.length > 0 ? readConfigArgs(configArgs, baseDir) : loadPolicySources(cwd, env);
}

export function formatLoadError(e: PolicyLoadError): string {
  const at = e.line !== undefined ? `:${e.line}${e.column !== undefined ? `:${e.column}` : ""}` : "";
  return `${e.path}${at}: ${e.rule ? `rule "${e.rule}": ` : ""}${e.message}`;
}
