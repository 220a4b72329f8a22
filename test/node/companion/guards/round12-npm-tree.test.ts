// Never (red team, rounds 11 and 12): npm loads every package.json of the project's tree — workspace
// members, installed packages under node_modules — and quotes one it cannot parse (EJSONPARSE `while
// parsing 'https://u:SECRET@github.com'`), or prints every field with `npm ls --long --json`. A committed
// manifest that links onto a secret (or out of the workspace) made `npm ls` print it. Real npm shows it;
// on the disk the walk finds the link, and an ordinary tree (links inside it) stays allowed.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12-npm-")));
const home = join(base, "home");
mkdirSync(home, { recursive: true });
const cred = join(home, ".git-credentials");
writeFileSync(cred, "https://u:GITCREDSECRET@github.com\n");
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A workspace with a root manifest (workspaces: packages/*), one member and one installed package. */
function project(name: string): string {
  const ws = join(base, name);
  mkdirSync(join(ws, "packages", "a"), { recursive: true });
  mkdirSync(join(ws, "node_modules", "@s", "dep"), { recursive: true });
  writeFileSync(join(ws, "package.json"), '{"name":"root","version":"1.0.0","workspaces":["packages/*"]}\n');
  writeFileSync(join(ws, "packages", "a", "package.json"), '{"name":"a","version":"1.0.0"}\n');
  writeFileSync(
    join(ws, "node_modules", "@s", "dep", "package.json"),
    '{"name":"@s/dep","version":"1.0.0"}\n',
  );
  // npm links a workspace member into node_modules: a link inside the workspace.
  symlinkSync("../packages/a", join(ws, "node_modules", "a"));
  git(ws, "init", "-q");
  return ws;
}

function judge(command: string, ws: string) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
}

describe("the package.json files npm reads", () => {
  const hasNpm = spawnSync("npm", ["--version"], { encoding: "utf8" }).status === 0;

  it.skipIf(!hasNpm)("real npm quotes a workspace member's linked manifest", () => {
    const ws = project("real");
    rmSync(join(ws, "packages", "a", "package.json"));
    symlinkSync(cred, join(ws, "packages", "a", "package.json"));
    const r = spawnSync("npm", ["ls"], {
      cwd: ws,
      encoding: "utf8",
      env: { HOME: home, PATH: process.env.PATH },
    });
    expect(r.stdout + r.stderr).toContain("GITCREDSECRET");
  });

  it("an ordinary tree stays allowed", () => {
    const ws = project("plain");
    for (const command of ["npm ls", "npm ls --depth=0", "npm --version"])
      for (const r of judge(command, ws)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
  });

  it.each([
    ["a workspace member's", ["packages", "a", "package.json"]],
    ["an installed package's", ["node_modules", "@s", "dep", "package.json"]],
  ])("%s manifest linked onto a secret, or out of the workspace, asks", (_what, at) => {
    const ws = project(`linked-${at[0]}`);
    const file = join(ws, ...at);
    const outside = join(base, "outside.json");
    writeFileSync(outside, '{"name":"x"}\n');
    for (const target of [cred, outside]) {
      rmSync(file, { force: true });
      symlinkSync(target, file);
      for (const command of [
        "npm ls",
        "npm ls --all",
        "npm ls --json --long",
        "npm explain x",
        "npm outdated",
      ])
        for (const r of judge(command, ws)) {
          expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
          expect(r.why).toContain("package.json");
        }
      for (const r of judge("npm --version", ws)) expect(r.action, r.why).toBe("allow");
    }
  });
});
