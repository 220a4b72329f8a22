// The units of a command that start a node process: node itself, the package managers, and the tools
// published as node scripts. NODE_OPTIONS in the agent's environment reaches every one of them (red team,
// round 14: `--require .pnp.cjs`, which yarn sets for every child, ran the workspace file on `npm --version`);
// any other program may be a node script, which the disk shows (fix15e).
import type { DiskTarget } from "./call-facts.ts";
import { resolveShellDir } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";

/** Programs that are node, or run as node scripts (their bins start `#!/usr/bin/env node`). */
const NODE_PROGRAMS = new Set([
  "node",
  "nodejs",
  "npm",
  "npx",
  "yarn",
  "yarnpkg",
  "pnpm",
  "pnpx",
  "corepack",
  "tsc",
  "tsx",
  "ts-node",
  "eslint",
  "prettier",
  "biome",
  "vitest",
  "jest",
  "mocha",
  "ava",
  "next",
  "nuxt",
  "vite",
  "webpack",
  "rollup",
  "parcel",
  "nodemon",
  "turbo",
  "nx",
  "wrangler",
]);

/** The wrappers whose programs are the project's node bins (`npx X`, `npm exec X`, `yarn X`, `pnpm exec X`). */
const VIA_NODE = /^(?:\S*\/)?(?:npx|npm|yarn|pnpm|pnpx)(?:\s|$)/;

/** Whether the unit starts a node process. */
export function runsNode(unit: ExecUnit): boolean {
  const name = unit.program.slice(unit.program.lastIndexOf("/") + 1);
  return (
    NODE_PROGRAMS.has(name) ||
    unit.program.includes("node_modules/") ||
    (unit.via !== undefined && VIA_NODE.test(unit.via))
  );
}

/**
 * Every exec unit: what the agent's NODE_OPTIONS and NODE_PATH lead to, the disk says (guards/node-preload.ts),
 * for a unit known to start node or one whose program the disk shows is a node script (fix15e).
 */
export function nodeTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (dir === null) return [];
  return [{ kind: "node-env", dir, program: unit.program, known: runsNode(unit), shown: unit.text }];
}
