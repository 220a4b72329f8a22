// NODE_OPTIONS in the agent's environment (red team, round 14): a `--require`, `--import` or `--loader`
// naming a workspace file (yarn PnP sets `--require ./.pnp.cjs` for every child of `yarn …`) or a relative
// path turns any node process — `npm --version`, `tsc --version` — into running that file, so a unit that
// starts node asks. A module by name (`--import tsx`) or a file outside the workspace is the user's own.
// fix15e: every option value counts, not only the preloads (`--openssl-config` loads the engines an OpenSSL
// config names, `--experimental-config-file` more options), and so does NODE_PATH, where node resolves a
// module it does not find in node_modules; and a node process is any unit whose program is a node script on
// disk (`#!/usr/bin/env node`, a file of a node_modules/ tree), not only the runners node-runners.ts names.
import { closeSync, openSync, readSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { programFile } from "./path-lookup.ts";
import { isWithin, realPathOf } from "./real-path.ts";

/** The values NODE_OPTIONS gives its options (`-r X`, `--require=X`, `--openssl-config X`); null when its quoting is not read here. */
function optionValues(options: string): string[] | null {
  // node reads double quotes and backslashes in NODE_OPTIONS; a value using them is not split here.
  if (/["\\]/.test(options)) return /[./]/.test(options) ? null : [];
  const out: string[] = [];
  for (const word of options.split(/\s+/)) {
    if (word === "") continue;
    const eq = word.indexOf("=");
    if (!word.startsWith("-")) out.push(word);
    else if (eq > 0) out.push(word.slice(eq + 1));
  }
  return out;
}

/** A relative path: where it leads depends on where node runs, so it asks wherever it leads. */
const RELATIVE = /^\.{1,2}(\/|$)/;

/** The file a value names, resolved from where node runs; null for a module by name (`tsx`, `dotenv/config`) or a number. */
function namedFile(spec: string, dir: string): string | null {
  if (spec.startsWith("file:")) {
    try {
      return fileURLToPath(spec);
    } catch {
      return resolve(dir, spec);
    }
  }
  if (isAbsolute(spec)) return spec;
  return RELATIVE.test(spec) ? resolve(dir, spec) : null;
}

/** Why node run in `dir` would load a workspace file its environment names, or null. */
function environmentReason(env: NodeJS.ProcessEnv, dir: string, workspace: string): string | null {
  const values = optionValues(env.NODE_OPTIONS ?? "");
  if (values === null) return "NODE_OPTIONS in the environment names a file, quoted in a way not read here";
  for (const spec of values) {
    const file = namedFile(spec, dir);
    if (file !== null && (RELATIVE.test(spec) || isWithin(workspace, file)))
      return `NODE_OPTIONS in the environment names \`${spec}\`, a file of the project every node process loads first`;
  }
  // NODE_PATH: absolute directories; a relative one is resolved from where node runs.
  for (const entry of (env.NODE_PATH ?? "").split(":"))
    if (entry !== "" && (!entry.startsWith("/") || isWithin(workspace, entry)))
      return `NODE_PATH in the environment holds \`${entry}\`, in the workspace: node loads from it a module node_modules does not have`;
  return null;
}

/** Whether the file bash runs for `program` starts node: a node script by its `#!`, or a file of a node_modules/ tree. */
function startsNode(program: string, dir: string, env: NodeJS.ProcessEnv): boolean {
  const file = program.includes("/") ? resolve(dir, program) : programFile(program, env, dir);
  if (file === null) return false;
  const r = realPathOf(file);
  if (/\/node_modules\//.test(r.ok ? r.real : file)) return true;
  return /^#!\s*\S*\/(?:env\s+(?:-\S+\s+)*(?:\w+=\S*\s+)*)?(?:node|nodejs)(?:\s|$)/.test(firstLine(file));
}

function firstLine(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(256);
    return head.toString("latin1", 0, readSync(fd, head, 0, head.length, 0)).split("\n")[0] as string;
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why the unit, run in `t.dir`, would have node load a workspace file its environment names, or null. */
export function nodePreloadFact(
  env: NodeJS.ProcessEnv,
  t: Extract<DiskTarget, { kind: "node-env" }>,
  workspace: string,
): CallFact | null {
  const reason = environmentReason(env, t.dir, workspace);
  if (reason === null || !(t.known || startsNode(t.program, t.dir, env))) return null;
  return { subject: t.shown, reason };
}
