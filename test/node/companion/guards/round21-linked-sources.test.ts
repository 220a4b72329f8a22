// Red team round 21 (r21-01): a rule that allows reading outside the workspace by name ("Read system sources":
// global node packages, toolchains' library sources) matched the path as spelled, and `npm link` or
// `npm i -g ./other` leaves a link there into the user's other projects: `cat ~/.nvm/…/node_modules/other/
// config/production.json` printed another project's database password. A path outside the workspace that a
// link leads elsewhere is judged where it lands: the rules must allow reading that place too.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { judgeEveryday } from "../../../../src/companion/profiles/preview.ts";
import { compilePolicy } from "../../../../src/policy/index.ts";
import { BALANCED, HOME, judgeCommand } from "./judge-command.ts";

const root = mkdtempSync(join(tmpdir(), "airlock-r21-links-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ws = join(root, "ws");
const tree = join(root, "lib", "node_modules");
const other = join(root, "code", "other");
mkdirSync(ws, { recursive: true });
mkdirSync(join(tree, "plain"), { recursive: true });
mkdirSync(join(other, "config"), { recursive: true });
writeFileSync(join(tree, "plain", "index.js"), "module.exports = 1;\n");
writeFileSync(join(other, "config", "production.json"), '{"db":{"password":"PgProdPassw0rd!"}}\n');
writeFileSync(join(ws, "a.json"), "{}\n");
symlinkSync(other, join(tree, "other"));
symlinkSync(root, join(tree, "up"));
symlinkSync(join(ws, "a.json"), join(tree, "plain", "back.json"));

/** A rule like the starter's "Read system sources": one file at a time below the tree, by name. */
const compiled = compilePolicy([
  {
    layer: "user",
    path: "linked-sources",
    text: `version: 1
default_action: ask
rules:
  - name: Read the tree
    condition: 'tool == "read" && !recursive && !glob && path.startsWith(${JSON.stringify(`${tree}/`)})'
    action: allow
  - name: Read the workspace
    condition: 'tool in ["read", "grep", "find", "ls"] && (path == cwd || path.startsWith(cwd + "/"))'
    action: allow
  - name: Read-only commands
    condition: 'tool == "bash" && effect == "read" && risk == "low"'
    action: allow
`,
  },
]);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
const POLICY = compiled.policy;

function readTool(file_path: string) {
  const [j] = judgeEveryday(POLICY, ws, HOME, diskCheck({ env: {} }), [
    { kind: "read", tool: "Read", input: { file_path } },
  ]);
  return { action: j?.record.action, reason: j?.reason ?? "" };
}

describe("a link below a tree a rule allows is judged where it lands (r21-01)", () => {
  const linked = join(tree, "other", "config", "production.json");
  it("cat through an npm-link symlink into another project asks", () => {
    const j = judgeCommand(ws, `cat ${linked}`, { policy: POLICY });
    expect(j.action).toBe("ask");
    expect(j.reason).toContain("which the rules did not judge");
  });
  it("so does the Read tool, and a link to a directory above", () => {
    expect(readTool(linked).action).toBe("ask");
    expect(readTool(join(tree, "up", "code", "other", "config", "production.json")).action).toBe("ask");
  });
  it("a file of the tree itself, and a link landing in the workspace, are read without asking", () => {
    expect(readTool(join(tree, "plain", "index.js")).action).toBe("allow");
    expect(judgeCommand(ws, `cat ${join(tree, "plain", "index.js")}`, { policy: POLICY }).action).toBe(
      "allow",
    );
    expect(readTool(join(tree, "plain", "back.json")).action).toBe("allow");
  });
});

describe("property: a read through links below the tree is allowed only where it lands in the tree or the workspace", () => {
  // Places a link may lead: in the tree, in the workspace, or out (another project, the directory above all).
  const targets = [
    { to: join(tree, "plain"), allowed: true },
    { to: ws, allowed: true },
    { to: other, allowed: false },
    { to: root, allowed: false },
    { to: join(root, "code"), allowed: false },
  ];
  let n = 0;
  it("for links to each place, one or two hops deep", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...targets.keys()),
        fc.boolean(),
        fc.constantFrom("Read", "cat", "head -n 3"),
        (t, twoHops, how) => {
          const target = targets[t] as (typeof targets)[number];
          const name = join(tree, `l${n++}`);
          if (twoHops) {
            const mid = join(tree, `m${n++}`);
            symlinkSync(target.to, mid);
            symlinkSync(mid, name);
          } else symlinkSync(target.to, name);
          mkdirSync(join(target.to, "sub"), { recursive: true });
          writeFileSync(join(target.to, "sub", "f.json"), "{}\n");
          const file = join(name, "sub", "f.json");
          const action =
            how === "Read"
              ? readTool(file).action
              : judgeCommand(ws, `${how} ${file}`, { policy: POLICY }).action;
          expect(action).toBe(target.allowed ? "allow" : "ask");
        },
      ),
      { numRuns: 60 },
    );
  });
});

// The starter's own rule, with the red team's layout, where this machine lets the test make a home directory.
const canMakeHome = process.getuid?.() === 0;
describe.skipIf(!canMakeHome)("the starter's Read system sources rule (r21-01 as found)", () => {
  const home = mkdtempSync("/home/airlock-r21-");
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const global = join(home, ".nvm/versions/node/v20.1.0/lib/node_modules");
  mkdirSync(join(global, "typescript"), { recursive: true });
  writeFileSync(join(global, "typescript", "package.json"), '{"name":"typescript"}\n');
  mkdirSync(join(home, "code/other/config"), { recursive: true });
  writeFileSync(join(home, "code/other/config/production.json"), '{"db":{"password":"x"}}\n');
  symlinkSync(join(home, "code/other"), join(global, "other"));
  it("asks for the linked project's file and allows the installed package's", () => {
    expect(judgeCommand(ws, `cat ${join(global, "other/config/production.json")}`).action).toBe("ask");
    expect(
      judgeCommand(ws, `cat ${join(global, "typescript/package.json")}`, { policy: BALANCED }).action,
    ).toBe("allow");
  });
});
