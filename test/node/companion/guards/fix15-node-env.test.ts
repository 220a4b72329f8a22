// NODE_OPTIONS and NODE_PATH for every node process (fix15e): the preload check covered the runners in a
// list (node, npm, tsc, eslint…), but any program that is a node script starts node with the agent's
// environment: a program the judge understands found on PATH as a node script (`npm i -g tree-cli` puts a
// `tree` whose `#!` is node in npm's bin directory), a pnpm shim in node_modules/.bin (a shell script that
// starts node). And node reads more than preloads from NODE_OPTIONS (`--openssl-config` loads the
// engines an OpenSSL config names; node's "options that are allowed" list), and resolves a module it does not
// find in node_modules from NODE_PATH. Each of them, leading into the workspace, asks.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk } from "./disk-fixture.ts";

const { base, ws, home } = gitWorkspace("airlock-f15-node-", {
  "package.json": "{}\n",
  "hook.cjs": "module.exports = {};\n",
  "openssl.cnf": "openssl_conf = x\n",
  "src/a.ts": "export const a = 1;\n",
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A program in the person's bin directory, out of the workspace. */
const bin = join(base, "bin");
function program(name: string, text: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, name), text);
  chmodSync(join(bin, name), 0o755);
}
program("tree", "#!/usr/bin/env node\nrequire('x');\n");
program("jq", "#!/usr/bin/env -S node --no-warnings\n");
program("rg", "#!/usr/local/bin/node\n");
program("wc", "#!/bin/sh\necho not node\n");
const PATH = `${bin}:/usr/bin:/bin`;

const bash = (command: string, env: NodeJS.ProcessEnv) =>
  judgeOnDisk(
    BALANCED,
    { tool: "bash", input: { command }, cwd: ws, home },
    { disk: diskCheck({ env: { PATH, HOME: home, ...env } }) },
  );

describe("a node process the list does not name (written first)", () => {
  it.each(["tree src", "jq . package.json", "rg foo src", `${bin}/tree src`])(
    "%s asks with a project file preloaded by NODE_OPTIONS",
    (command) => {
      const r = bash(command, { NODE_OPTIONS: `--require ${ws}/hook.cjs` });
      expect(r.action, `${command}\n${r.why}`).toBe("ask");
      expect(r.why).toMatch(/NODE_OPTIONS/);
    },
  );

  it("a program in node_modules/.bin found on PATH (a pnpm shim is a shell script) asks", () => {
    mkdirSync(join(ws, "node_modules", ".bin"), { recursive: true });
    writeFileSync(
      join(ws, "node_modules", ".bin", "tree"),
      '#!/bin/sh\nexec node "$basedir/../tree-cli/bin/tree" "$@"\n',
      { mode: 0o755 },
    );
    const r = bash("tree src", {
      NODE_OPTIONS: `--require ${ws}/hook.cjs`,
      PATH: `${join(ws, "node_modules", ".bin")}:${PATH}`,
    });
    expect(r.action, r.why).toBe("ask");
  });
});

describe("what else node reads from its environment (written first)", () => {
  it.each([
    ["NODE_OPTIONS --openssl-config", { NODE_OPTIONS: `--openssl-config=${ws}/openssl.cnf` }],
    ["NODE_OPTIONS --openssl-config, relative", { NODE_OPTIONS: "--openssl-config ./openssl.cnf" }],
    ["NODE_PATH", { NODE_PATH: `/usr/lib/node_modules:${ws}/src` }],
    ["NODE_PATH, relative", { NODE_PATH: "lib" }],
  ])("%s into the workspace asks for node and a node script", (_, env) => {
    for (const command of ["node --version", "tree src"]) {
      const r = bash(command, env);
      expect(r.action, `${command}\n${r.why}`).toBe("ask");
      expect(r.why).toMatch(/NODE_OPTIONS|NODE_PATH/);
    }
  });
});

describe("everyday", () => {
  it("a program that is not node, and node with nothing of the project in its environment, stay allowed", () => {
    for (const [command, env] of [
      ["wc -l package.json", { NODE_OPTIONS: `--require ${ws}/hook.cjs` }],
      ["ls src", { NODE_OPTIONS: `--require ${ws}/hook.cjs`, NODE_PATH: `${ws}/src` }],
      ["tree src", { NODE_OPTIONS: "--max-old-space-size=4096 --require dotenv/config" }],
      ["tree src", { NODE_PATH: "/usr/lib/node_modules" }],
      ["node --version", { NODE_OPTIONS: "--openssl-config=/etc/ssl/openssl.cnf" }],
    ] as const) {
      const r = bash(command, env);
      expect(r.action, `${command} ${JSON.stringify(env)}\n${r.why}`).toBe("allow");
    }
  });
});
