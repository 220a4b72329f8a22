// Never (red team, round 10): an allow for an npm command whose project `.npmrc` changes where npm writes
// or what it runs. npm reads it on every command: `logs-dir=DIR` makes `npm ls` write its debug log
// (quoting the command line) into DIR, outside the project. Proven with the real npm; a project .npmrc
// that only picks a registry or an install style stays allowed.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { npmrcKey } from "../../../../src/companion/guards/npmrc.ts";
import { starterPolicy } from "../../../../src/companion/local-policy/starter.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { compilePolicy } from "../../../../src/policy/index.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";

const compiled = compilePolicy([{ layer: "user", path: "balanced", text: starterPolicy("balanced") }]);
if (!compiled.ok) throw new Error("the balanced starter policy does not compile");
const balanced = compiled.policy;
const disk = diskCheck({ env: {} });
let base: string;
let ws: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt10n-")));
  ws = join(base, "ws");
  mkdirSync(join(ws, "sub"), { recursive: true });
  writeFileSync(join(ws, "package.json"), '{"name":"x","version":"1.0.0"}\n');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(command: string, cwd = ws) {
  const j = judgeCall(
    balanced,
    { tool: "bash", input: { command }, cwd, home: join(base, "home") },
    { hasUI: true },
    disk,
  );
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}

describe("a project .npmrc that moves npm's writes", () => {
  it("npm ls writes its log where logs-dir says (the real npm), and the judge asks", () => {
    const logs = join(base, "elsewhere");
    writeFileSync(join(ws, ".npmrc"), `logs-dir=${logs}\n`);
    spawnSync("npm", ["ls"], { cwd: ws, stdio: "ignore", timeout: 60_000 });
    expect(existsSync(logs) && readdirSync(logs).length > 0, "npm wrote its log outside the project").toBe(
      true,
    );
    for (const command of ["npm ls", "npm --version", "npx tsc --version", "cd sub && npm ls"]) {
      const r = judge(command);
      expect(r.action, `${command}: ${r.why}`).not.toBe("allow");
      expect(r.why).toMatch(/logs-dir/);
    }
  });

  it("a registry-only .npmrc stays allowed", () => {
    writeFileSync(
      join(ws, ".npmrc"),
      "registry=https://registry.npmjs.org/\nsave-exact=true\n@me:registry=https://npm.pkg.github.com\n",
    );
    expect(judge("npm ls").action).toBe("allow");
  });

  it("property: any key outside the harmless set is reported, whatever its spelling of case and blanks", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          "logs-dir",
          "cache",
          "prefix",
          "userconfig",
          "globalconfig",
          "script-shell",
          "node-options",
          "init-module",
          "shell",
          "editor",
        ),
        fc.constantFrom("", " ", "\t"),
        fc.boolean(),
        (key, pad, upper) => {
          const k = upper ? key.toUpperCase() : key;
          expect(npmrcKey(`registry=https://r/\n${pad}${k}${pad}=${pad}/tmp/x\n`)).toBe(key);
        },
      ),
    );
  });
});
