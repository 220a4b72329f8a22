// Never (red team, round 8): a `--version` that runs code the words do not show. `npx NAME --version`
// runs the project's node_modules/.bin/NAME (workspace content), the project's own package.json bin, a
// bin linked out of the workspace, or, when none is installed, the registry package called NAME, which
// npx downloads; `go version` under a go.mod `toolchain` line downloads and runs that release. Judged with
// the disk as the companion judges them, under the starter profiles; an installed bin stays allowed.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompiledPolicy } from "../../../../src/policy/compiled.ts";
import { BALANCED, STRICT_PROFILES } from "../../policy/shell/policies.ts";
import { type DiskFixture, diskFixture, judgeOnDisk, runnersPolicy, write } from "./disk-fixture.ts";

let fx: DiskFixture;
const PROFILES = STRICT_PROFILES;

beforeAll(() => {
  fx = diskFixture();
  // An installed TypeScript, as npm lays it out: the bin is a link into the package.
  write(join(fx.ws, "node_modules", "typescript", "bin", "tsc"), "#!/usr/bin/env node\n");
  mkdirSync(join(fx.ws, "node_modules", ".bin"), { recursive: true });
  symlinkSync("../typescript/bin/tsc", join(fx.ws, "node_modules", ".bin", "tsc"));
  // A bin linked to a program out of the workspace.
  write(join(fx.base, "outside", "evil.js"), "#!/usr/bin/env node\n");
  symlinkSync(join(fx.base, "outside", "evil.js"), join(fx.ws, "node_modules", ".bin", "eslint"));
  // A sub-project whose own package.json names a bin `vitest`.
  write(join(fx.ws, "tool", "package.json"), JSON.stringify({ name: "tool", bin: { vitest: "./run.js" } }));
  write(join(fx.ws, "tool", "run.js"), "require('fs').writeFileSync('PWNED', '')\n");
  // A Go module pinned to a toolchain release, and one that is not.
  write(join(fx.ws, "gomod", "go.mod"), "module example.com/x\n\ngo 1.21\n\ntoolchain go1.99.0\n");
  write(join(fx.ws, "goplain", "go.mod"), "module example.com/y\n\ngo 1.21\n");
});
afterAll(() => fx.cleanup());

function judge(policy: CompiledPolicy, command: string, cwd = fx.ws, hasUI = true) {
  return judgeOnDisk(policy, { tool: "bash", input: { command }, cwd, home: fx.home }, { hasUI });
}

describe("npx runs what the disk holds under the name", () => {
  it.each([
    ["npx airlock-rt8-absent --version", undefined, /download the registry package `airlock-rt8-absent`/],
    [
      "npx --no-install airlock-rt8-gone --help",
      undefined,
      /download the registry package `airlock-rt8-gone`/,
    ],
    ["npx eslint --version", undefined, /leads out of the workspace/],
    ["npx vitest --version", "tool", /package\.json names a bin `vitest`/],
  ])("%s asks", (command, sub, why) => {
    const cwd = sub === undefined ? fx.ws : join(fx.ws, sub);
    for (const [name, policy] of PROFILES) {
      const r = judge(policy, command, cwd);
      expect(r.action, `${name}: ${r.why}`).toBe("ask");
      expect(r.why).toMatch(why);
      expect(judge(policy, command, cwd, false).action, name).toBe("deny");
    }
  });

  it("an installed bin in the project's node_modules stays allowed", () => {
    for (const [name, policy] of PROFILES) {
      const r = judge(policy, "npx tsc --version");
      expect(r.action, `${name}: ${r.why} ${r.reasons.join("\n")}`).toBe("allow");
    }
    // From a directory below, npx finds the same bin above.
    expect(judge(BALANCED, "npx tsc --version", join(fx.ws, "src")).action).toBe("allow");
  });

  it("a write into node_modules (where the bins npx runs live) asks", () => {
    for (const [name, policy] of PROFILES) {
      for (const call of [
        {
          tool: "Edit",
          input: {
            file_path: join(fx.ws, "node_modules/typescript/bin/tsc"),
            old_string: "a",
            new_string: "b",
          },
        },
        { tool: "Write", input: { file_path: join(fx.ws, "node_modules/.bin/tsc"), content: "x" } },
        { tool: "bash", input: { command: "echo x > node_modules/typescript/bin/tsc" } },
      ]) {
        const r = judgeOnDisk(policy, { ...call, cwd: fx.ws, home: fx.home });
        expect(r.action, `${name}: ${JSON.stringify(call)}`).not.toBe("allow");
      }
    }
  });

  it("property: a program with a grammar, not installed, never runs unasked through npx", () => {
    // Names whose grammar allows `--version` alone; one installed globally on this machine is left out.
    const names = ["prettier", "biome", "jest", "vitest", "tsc", "eslint"].filter(
      (n) => ![dirname(process.execPath), "/usr/local/bin"].some((d) => existsSync(join(d, n))),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.constantFrom("--version", "--help", "-v"),
        fc.boolean(),
        (name, flag, sub) => {
          const cwd = sub ? join(fx.ws, "goplain") : fx.base;
          const r = judge(BALANCED, `npx ${name} ${flag}`, cwd);
          if (!sub || (name !== "tsc" && name !== "eslint"))
            expect(r.action, `npx ${name} ${flag} in ${cwd}`).not.toBe("allow");
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("go under a go.mod toolchain line", () => {
  it("go version and go env in a module pinned to another release ask", () => {
    for (const [name, policy] of PROFILES)
      for (const c of ["go version", "go env GOPATH", "go list ./..."]) {
        const r = judge(policy, c, join(fx.ws, "gomod"));
        expect(r.action, `${name}: ${c}: ${r.why}`).toBe("ask");
        expect(r.why).toMatch(/go\.mod.*toolchain/);
      }
  });
  it("the same in a module without one stays allowed", () => {
    for (const c of ["go version", "go env GOPATH", "go list ./..."]) {
      const r = judge(BALANCED, c, join(fx.ws, "goplain"));
      expect(r.action, `${c}: ${r.why} ${r.reasons.join("\n")}`).toBe("allow");
    }
  });
});

describe("a runner whose defining file is found above the workspace", () => {
  // node --run (node 22+), npm, cargo, go and pytest look for package.json, Cargo.toml, go.mod or their
  // rootdir files in every directory above: a workspace without one runs what a directory above defines.
  const runners = runnersPolicy(["node", "npm", "cargo", "go", "pytest"]);
  it.each(["node --run build", "npm test", "npm run build", "cargo build", "go build ./...", "pytest -q"])(
    "%s in a workspace without its own file asks",
    (command) => {
      write(join(fx.base, "Cargo.toml"), "[package]\nname = 'x'\n");
      write(join(fx.base, "go.mod"), "module x\n");
      write(join(fx.base, "pytest.ini"), "[pytest]\n");
      write(
        join(fx.base, "package.json"),
        JSON.stringify({ scripts: { build: "touch PWNED", test: "touch PWNED" } }),
      );
      mkdirSync(join(fx.ws, "bare"), { recursive: true });
      const r = judgeOnDisk(runners, {
        tool: "bash",
        input: { command },
        cwd: join(fx.ws, "bare"),
        home: fx.home,
      });
      expect(r.action, r.why).toBe("ask");
      expect(r.why).toMatch(/out of the workspace: what runs is defined there/);
    },
  );
  it("the same with the workspace's own file stays allowed", () => {
    write(join(fx.ws, "Cargo.toml"), "[package]\nname = 'y'\n");
    write(join(fx.ws, "go.mod"), "module y\n");
    write(join(fx.ws, "pytest.ini"), "[pytest]\n");
    for (const command of ["node --run build", "npm test", "cargo build", "go build ./...", "pytest -q"]) {
      const r = judgeOnDisk(runners, { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home });
      expect(r.action, `${command}: ${r.why} ${r.reasons.join("\n")}`).toBe("allow");
    }
  });
});

describe("the project's conftest.py and pytest's help", () => {
  it("pytest --help, -h and -V run like any pytest (conftest.py is imported)", () => {
    writeFileSync(join(fx.ws, "conftest.py"), "open('PWNED', 'w')\n");
    for (const [name, policy] of PROFILES)
      for (const c of ["pytest --help", "pytest -h", "pytest -V", "pytest --version", "pytest -v"])
        expect(judge(policy, c).action, `${name}: ${c}`).not.toBe("allow");
  });
});
