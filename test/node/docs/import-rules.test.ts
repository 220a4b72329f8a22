// docs/development.md's import rules hold for the tree, and scripts/check-imports.mjs (run by `npm run lint`) fails a
// tree that breaks one: a cycle in any folder of src/ or web/src/, through a static, type-only or dynamic import, or
// an import from a lower layer to a higher one.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const CHECK = join(ROOT, "scripts", "check-imports.mjs");

function check(root?: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [CHECK, ...(root ? [root] : [])], { cwd: ROOT, encoding: "utf8" });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A tree with src/ and web/src/ holding `files` (path → source) besides one harmless file in each. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "airlock-imports-"));
  trees.push(root);
  const all = {
    "src/policy/verdict.ts": "export const allow = true;\n",
    "web/src/labels.ts":
      'import { allow } from "../../src/policy/verdict.ts";\nexport const label = allow;\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("the import rules", () => {
  it("hold for this repository: no cycle and no upward import in src/ or web/src/", () => {
    const { status, out } = check();
    expect(out).toMatch(/no cycles, no upward imports/);
    expect(status).toBe(0);
  });

  it("pass a tree that keeps them", () => {
    expect(check(tree({})).status).toBe(0);
  });

  it.each([
    [
      "a dashboard view importing the shell that loads it lazily",
      {
        "web/src/app.tsx": 'export const views = { a: () => import("./views/a-view.tsx") };\n',
        "web/src/views/a-view.tsx":
          'import type { views } from "../app.tsx";\nexport type V = typeof views;\n',
      },
      "cycle: web/src/app.tsx → web/src/views/a-view.tsx",
    ],
    [
      "two companion files importing each other",
      {
        "src/companion/control/client.ts": 'import { y } from "../hooks/fast.ts";\nexport const x = y;\n',
        "src/companion/hooks/fast.ts":
          'import type { x } from "../control/client.ts";\nexport const y = 1;\n',
      },
      "cycle: src/companion/control/client.ts → src/companion/hooks/fast.ts",
    ],
    [
      "a file importing itself",
      { "src/edge/self.ts": 'import { a } from "./self.ts";\nexport const b = a;\nexport const a = 1;\n' },
      "cycle: src/edge/self.ts",
    ],
    [
      "the decision core importing the edge",
      {
        "src/edge/env.ts": "export const name = 1;\n",
        "src/policy/risk.ts": 'import { name } from "../edge/env.ts";\nexport const r = name;\n',
      },
      "layer: src/policy/risk.ts (policy) imports src/edge/env.ts (edge)",
    ],
    [
      "the dashboard importing the companion",
      {
        "src/companion/paths.ts": "export const home = 1;\n",
        "web/src/home.ts": 'import { home } from "../../src/companion/paths.ts";\nexport const h = home;\n',
      },
      "layer: web/src/home.ts (web) imports src/companion/paths.ts (companion)",
    ],
  ])("fail %s", (_, files, breach) => {
    const { status, out } = check(tree(files));
    expect(out).toContain(breach);
    expect(status).toBe(1);
  });
});
