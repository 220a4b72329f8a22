// Never (red team, round 10): a project's `.npmrc` steers where an allowed npm command writes or what it
// runs. A repo-shipped `.npmrc`
// `logs-dir=~/.bashrc.d` made `npm ls 'x$(cmd)'` write its debug log, `verbose argv "ls" "x$(cmd)"`,
// where the next shell sources it. Every .npmrc npm may read as the project's is read; any key not known
// to leave writes and programs alone makes every npm unit ask. The person's own settings do not. yarn and pnpm have no grammar: never allowed.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { starterPolicy } from "../../../../src/companion/local-policy/starter.ts";
import { compile, user } from "../../policy/helpers.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

mkdirSync("/tmp/rt10rg", { recursive: true });
const base = mkdtempSync("/tmp/rt10rg/npmrc-");
const home = join(base, "home");
const ws = join(base, "proj");
mkdirSync(home, { recursive: true });
mkdirSync(join(ws, "src"), { recursive: true });
writeFileSync(join(ws, "package.json"), '{"name":"p","version":"1.0.0"}\n');
afterAll(() => rmSync(base, { recursive: true, force: true }));

// The profile that also runs the project's scripts and tools (npm test, npx tsc).
const AUTONOMOUS = compile(user(starterPolicy("autonomous")));

function judge(command: string, env: Record<string, string> = {}, cwd = ws) {
  const disk = diskCheck({ env: { HOME: home, ...env } });
  return [CAUTIOUS, BALANCED, AUTONOMOUS].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd, home }, { disk }),
  );
}

function withFile(path: string, body: string, fn: () => void): void {
  writeFileSync(path, body);
  try {
    fn();
  } finally {
    rmSync(path, { force: true });
  }
}

describe("npm's configuration may move its writes or run code", () => {
  it("real npm writes its debug log where a project .npmrc's logs-dir says", () => {
    const logs = join(base, "logs");
    withFile(join(ws, ".npmrc"), `logs-dir=${logs}\n`, () => {
      spawnSync("npm", ["ls", "x$(id)"], { cwd: ws, env: { PATH: process.env.PATH ?? "", HOME: home } });
    });
    const [log] = readdirSync(logs);
    expect(readFileSync(join(logs, log as string), "utf8")).toContain('argv "ls" "x$(id)"');
  });

  it("the same `npm ls` with no configuration is allowed (starter profiles)", () => {
    for (const r of judge("npm ls")) expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
  });

  const KEYS = [
    "logs-dir=~/.bashrc.d",
    "cache=/tmp/elsewhere",
    "prefix=~/.local",
    "userconfig=/tmp/u",
    "globalconfig=/tmp/g",
    "script-shell=/tmp/sh",
    "node-options=--require /tmp/x.js",
    "init-module=/tmp/init.js",
    "LOGS-DIR=/tmp/x",
    "logs_dir=/tmp/x",
    "[section]\nlogs-dir=/tmp/x",
  ];
  it.each(KEYS)("a project .npmrc with `%s` makes npm ls ask", (line) => {
    withFile(join(ws, ".npmrc"), `${line}\n`, () => {
      for (const r of judge("npm ls 'x$(id)'")) {
        expect(r.action, r.why).not.toBe("allow");
        expect(r.why + r.reasons.join("\n")).toContain(".npmrc");
      }
      // From a subdirectory too: npm reads the project's .npmrc at its local prefix.
      for (const r of judge("cd src && npm ls")) expect(r.action, r.why).not.toBe("allow");
    });
  });

  it("the person's own settings (~/.npmrc, npm_config_* as npm exports them) do not make it ask", () => {
    // npm exports its resolved configuration to what it starts (an agent launched by npx has these).
    const exported = {
      npm_config_cache: join(home, ".npm"),
      npm_config_prefix: "/usr",
      npm_config_init_module: join(home, ".npm-init.js"),
      npm_config_globalconfig: "/usr/etc/npmrc",
      npm_config_userconfig: join(home, ".npmrc"),
    };
    withFile(join(home, ".npmrc"), "prefix=~/.npm-global\ncache=~/.cache/npm\n", () => {
      for (const r of judge("npm ls", exported)) expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
      // The project's file is still judged, whatever the environment says.
      withFile(join(ws, ".npmrc"), "logs-dir=/tmp/x\n", () => {
        for (const r of judge("npm ls", exported)) expect(r.action, r.why).not.toBe("allow");
      });
    });
  });

  it("the person's user file is found as npm finds it: npm_config_userconfig in any case (round 12)", () => {
    // npm reads /^npm_config_/i, so `Npm_Config_Userconfig` names the user file as the lower-case name does.
    withFile(join(ws, ".npmrc"), "logs-dir=/tmp/x\n", () => {
      for (const name of ["npm_config_userconfig", "Npm_Config_Userconfig"])
        for (const r of judge("npm ls", { [name]: join(ws, ".npmrc") }))
          expect(r.action, `${name}: ${r.why}`).toBe("allow");
      for (const r of judge("npm ls", { Npm_Config_Userconfig: join(home, ".npmrc") }))
        expect(r.action, r.why).not.toBe("allow");
    });
  });

  it("a .npmrc above the project (a parent directory's) is judged as the project's", () => {
    const up = join(base, "up");
    mkdirSync(join(up, "app"), { recursive: true });
    writeFileSync(join(up, "app", "package.json"), "{}\n");
    withFile(join(up, ".npmrc"), "script-shell=/tmp/sh\n", () => {
      for (const r of judge("npm ls", {}, join(up, "app"))) expect(r.action, r.why).not.toBe("allow");
    });
  });

  it("everyday keys leave npm ls allowed", () => {
    const body =
      "registry=https://registry.npmjs.org/\n@acme:registry=https://npm.acme.dev/\n" +
      // npm expands the variable itself: the file holds its name, not a token.
      "//registry.npmjs.org/:_authToken=$" +
      "{NPM_TOKEN}\n" +
      "save-exact=true\nfund=false\naudit=false\n; a comment\n# another\nengine-strict=true\n";
    withFile(join(ws, ".npmrc"), body, () => {
      withFile(join(home, ".npmrc"), "loglevel=warn\nprogress=false\n", () => {
        for (const r of judge("npm ls", { npm_config_fund: "false" }))
          expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
      });
    });
  });

  it.each(["yarn list", "yarn why x", "pnpm ls", "pnpm list --depth 0", "yarn config list"])(
    "`%s` is not allowed (no grammar)",
    (command) => {
      for (const r of judge(command)) expect(r.action, r.why).not.toBe("allow");
    },
  );
});

describe("npx and npm exec read the same configuration", () => {
  it("npx with the same project and no such key runs (autonomous)", () => {
    mkdirSync(join(ws, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(ws, "node_modules", ".bin", "tsc"), "#!/bin/sh\n");
    const r = judge("npx tsc --version")[2];
    expect(r?.action, r?.why).toBe("allow");
  });
  it.each(["npx tsc --version", "npm exec tsc -- --version", "npm test"])(
    "`%s` asks under a project .npmrc that moves writes",
    (command) => {
      mkdirSync(join(ws, "node_modules", ".bin"), { recursive: true });
      writeFileSync(join(ws, "node_modules", ".bin", "tsc"), "#!/bin/sh\n");
      withFile(join(ws, ".npmrc"), "logs-dir=/tmp/x\n", () => {
        for (const r of judge(command)) expect(r.action, r.why).not.toBe("allow");
      });
    },
  );
});

describe("the reason never shows a line that may be a token", () => {
  it("names the file, not the line", () => {
    withFile(join(ws, ".npmrc"), "//registry.example/:_authTokn=npm_SEKRIT_RT10RG\n", () => {
      for (const r of judge("npm ls")) {
        expect(r.action).not.toBe("allow");
        expect(r.why + r.reasons.join("\n")).not.toContain("SEKRIT");
        expect(r.why).toContain(".npmrc");
      }
    });
  });
});
