// Over-ask, round 19 (fix20e): `shopt -s globstar; ls src/**/*.ts` asked. With globstar a `**` segment
// matches any depth (bash itself shows it below), so a read of such a glob is judged as a recursive read of
// the directory before it, and names-only listings print names; a write or another program's `**` word
// stays not understood.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa20s-")));
const home = join(base, "home");
mkdirSync(home);
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** src/a.ts and src/deep/er/b.ts, and what `extra` adds. */
function project(extra: (ws: string) => void = () => {}): string {
  const ws = join(base, `ws${n++}`);
  mkdirSync(join(ws, "src", "deep", "er"), { recursive: true });
  writeFileSync(join(ws, "src", "a.ts"), "a\n");
  writeFileSync(join(ws, "src", "deep", "er", "b.ts"), "b\n");
  extra(ws);
  return ws;
}

const disk = diskCheck({ env: {} });
const action = (command: string, ws: string) =>
  judgeOnDisk(BALANCED, { tool: "bash", input: { command }, cwd: ws, home }, { disk }).action;

describe("shopt -s globstar", () => {
  it("makes ** match any depth (bash 5.2)", () => {
    const ws = project();
    const run = (c: string) => spawnSync("bash", ["-c", c], { cwd: ws, encoding: "utf8" }).stdout.trim();
    // By default `**` is `*`: one directory level, where no .ts file is (the pattern stays as written).
    expect(run("echo src/**/*.ts")).toBe("src/**/*.ts");
    expect(run("shopt -s globstar; echo src/**/*.ts")).toBe("src/a.ts src/deep/er/b.ts");
  });

  it.each([
    "shopt -s globstar; ls src/**/*.ts",
    "shopt -s globstar; cat src/**/*.ts",
    "shopt -s globstar; wc -l src/**/*.ts",
  ])("%s is allowed in a plain project", (command) => {
    expect(action(command, project())).toBe("allow");
  });

  it.each([
    ["a private key at any depth", (ws: string) => writeFileSync(join(ws, "src", "deep", "k.ts"), KEY)],
    ["a .env at any depth", (ws: string) => writeFileSync(join(ws, "src", "deep", "er", ".env"), "K=1\n")],
    ["a link out", (ws: string) => symlinkSync("/etc/passwd", join(ws, "src", "deep", "p.ts"))],
  ])("a read of src/**/*.ts asks with %s below src", (_, extra) => {
    expect(action("shopt -s globstar; cat src/**/*.ts", project(extra))).not.toBe("allow");
  });

  it("a write, another option or another program's ** word stays asking", () => {
    const ws = project();
    expect(action("shopt -s globstar; rm -f src/**/*.ts", ws)).not.toBe("allow");
    expect(action("shopt -s globstar nullglob; ls src/**/*.ts", ws)).not.toBe("allow");
    expect(action("shopt -s globstar; find src/** -name x", ws)).not.toBe("allow");
  });
});

const KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----\n";
