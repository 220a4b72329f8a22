// Over-ask (red team, round 17): one compressed fixture in the tree (testdata/sample.txt.xz, as Go, Python
// and Rust repositories keep them) made `rg TODO`, `grep -rn TODO .` and the Grep tool ask, with no
// "always": its contents are not checked for a key. But rg and grep print nothing of a file with a NUL in
// the first block they read, and do not unpack it; -a (--text), rg -z and grep -z do, and still ask. The
// real rg and grep are the oracle that a file judged so prints nothing.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt17-packed-")));
const home = join(base, "home");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const DISK = diskCheck({ env: { HOME: home } });

/** A workspace whose only compressed file is `name` holding `bytes`. */
function workspace(name: string, bytes: Buffer): string {
  const ws = join(base, name.replace(/\W/g, "_"));
  write(join(ws, "src", "index.ts"), "export const x = 1; // TODO\n");
  write(join(ws, "testdata", name), "");
  writeFileSync(join(ws, "testdata", name), bytes);
  git(ws, "init", "-q");
  return ws;
}

// The real xz of a line; and an "xz" whose bytes after the magic are text with a match, for the oracle.
const xz = execFileSync("xz", ["-c"], { input: "hello world\n" });
const xzText = Buffer.concat([Buffer.from("fd377a585a00", "hex"), Buffer.from("\nTODO leaked\n")]);
// A bzip2 stream need not hold a NUL early: rg would print its lines before a later NUL.
const bz2Text = Buffer.from(`BZh91AY&SY\nTODO leaked\n${"x".repeat(64)}\n`, "latin1");

const PROFILES = [BALANCED, AUTONOMOUS];
const judge = (ws: string, call: Omit<ToolCall, "cwd" | "home">) =>
  PROFILES.map((p) => judgeOnDisk(p, { ...call, cwd: ws, home }, { disk: DISK }));
const bash = (command: string) => ({ tool: "bash", input: { command } });

// grep -r reads .git/config, which asks on its own (it may carry a token); --exclude-dir=.git does not.
const SEARCHES = [
  bash("rg TODO"),
  bash("grep -rn --exclude-dir=.git TODO ."),
  { tool: "grep", input: { pattern: "TODO" } },
];

describe("a compressed fixture in a workspace-wide search (round 17)", () => {
  it("allows rg, grep -r and the Grep tool over an xz fixture", () => {
    const ws = workspace("sample.txt.xz", xz);
    for (const call of SEARCHES)
      for (const r of judge(ws, call)) expect(r.action, `${JSON.stringify(call)}\n${r.why}`).toBe("allow");
  });

  it("asks when the search prints binary files or unpacks them", () => {
    const ws = workspace("sample.txt.xz", xz);
    for (const command of [
      "rg -a TODO",
      "rg --text TODO",
      "rg -z TODO",
      "rg -uuu TODO",
      "grep -a -rn --exclude-dir=.git TODO .",
      "grep -rn --exclude-dir=.git --binary-files=text TODO .",
      "grep -rnz --exclude-dir=.git TODO .",
    ])
      for (const r of judge(ws, bash(command))) expect(r.action, command).toBe("ask");
  });

  it("asks for a compressed file with no NUL in its first bytes, whose lines a search can print", () => {
    const ws = workspace("sample.txt.bz2", bz2Text);
    for (const call of SEARCHES)
      for (const r of judge(ws, call)) {
        expect(r.action, JSON.stringify(call)).toBe("ask");
        expect(r.why).toContain("compressed");
      }
  });

  it("the real rg and grep print nothing of a file judged so, and -a prints it (the oracle)", () => {
    const ws = workspace("text.xz", xzText);
    for (const r of judge(ws, bash("rg TODO"))) expect(r.action, r.why).toBe("allow");
    const out = (program: string, ...args: string[]) =>
      spawnSync(program, args, { cwd: ws, encoding: "utf8" }).stdout;
    expect(out("rg", "TODO", ".")).not.toContain("leaked");
    expect(out("grep", "-rn", "TODO", ".")).not.toContain("leaked");
    expect(out("rg", "-a", "TODO", ".")).toContain("leaked");
    expect(out("grep", "-a", "-rn", "TODO", ".")).toContain("leaked");
  });
});
