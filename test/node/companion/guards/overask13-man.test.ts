// Over-ask, round 13: `man ls` and `man git-log` asked, man taken for an interactive session. Without a
// terminal (an agent's shell has none) man-db prints the page and runs no pager, as less copies its files.
// What stays dangerous: a page is groff input whose `.so` includes any other file, so a page file named by
// path (`man ./x.1`, `-l`) or a manual path into the project (MANPATH, or a PATH element there) prints any
// file; options and variables that run programs (`-P`, `-H`, `-p`, MANPAGER, MANOPT). Real man shows each.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { has } from "../../policy/shell/proven-case.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa13man-")));
const ws = join(base, "ws");
const secret = join(base, "home", "token.txt");
mkdirSync(join(ws, "man", "man1"), { recursive: true });
mkdirSync(join(base, "home"));
writeFileSync(secret, "MANSECRET13\n");
const PAGE = `.TH ZZ 1\n.SH NAME\nzz\n.so ${secret}\n`;
writeFileSync(join(ws, "man", "man1", "zz.1"), PAGE);
writeFileSync(join(ws, "x.1"), PAGE);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(command: string, env: NodeJS.ProcessEnv = { PATH: "/usr/bin:/bin" }) {
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(
      p,
      { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") },
      { disk: diskCheck({ env }) },
    ),
  );
}
const asks = (command: string, env?: NodeJS.ProcessEnv) => {
  for (const r of judge(command, env)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
};
/** Real man in the workspace, with no terminal (its output a pipe). */
const man = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync("man", args, { cwd: ws, encoding: "utf8", env: { PATH: process.env.PATH ?? "", ...env } });

describe("man printing a file or running a program (written first)", () => {
  it("a page file named by path includes any file", () => {
    asks("man ./x.1");
    asks("man -l x.1");
    if (has("man")) expect(man(["./x.1"]).stdout).toContain("MANSECRET13");
  });

  it("a manual path into the project, from the command or the agent's environment", () => {
    asks("MANPATH=./man man zz");
    asks("man zz", { MANPATH: join(ws, "man") });
    asks("man zz", { PATH: `${join(ws, "bin")}:/usr/bin` });
    if (has("man")) expect(man(["zz"], { MANPATH: join(ws, "man") }).stdout).toContain("MANSECRET13");
  });

  it.each([
    "man -P 'sh -c \"touch PWNED\"' ls",
    "man --pager=cat ls",
    "MANPAGER='sh -c x' man ls",
    "PAGER='sh -c x' man ls",
    "MANOPT=-Hfirefox man ls",
    "man -H ls",
    "man -p r ls",
    "man -C x.conf ls",
    "man -M ./man zz",
    "man -t ls",
    'man "$x"',
    "MANROFFOPT=-U man ls",
  ])("never allows %s", (command) => asks(command));

  it("MANOPT in the agent's environment asks", () =>
    asks("man ls", { MANOPT: "-Hfirefox", PATH: "/usr/bin" }));
});

describe("everyday", () => {
  it.each([
    "man ls",
    "man git-log",
    "man 1 ls",
    "man -k grep",
    "man -w ls",
    "man -a printf",
    "man 5 crontab",
  ])("allows %s", (command) => {
    for (const r of judge(command))
      expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
  });

  it.runIf(has("man"))(
    "real man without a terminal runs no pager, MANPAGER or PAGER in its environment",
    () => {
      const marker = join(base, "PAGER-RAN");
      const run = man(["ls"], { MANPAGER: `touch ${marker}`, PAGER: `touch ${marker}` });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/\bls\b/);
      expect(spawnSync("test", ["-e", marker]).status).not.toBe(0);
    },
  );
});
