// Never (red team, round 12): git reads `REV:PATH` (and `:PATH`, `:N:PATH`) from the top of the work tree,
// not from where it runs. In a workspace below the repository's top (a package of a monorepo),
// `git show HEAD:other/notes.txt` printed the repository's other/notes.txt, outside the workspace, while
// the judge placed it at <workspace>/other/notes.txt. On the disk the path is placed from the top.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12-top-")));
const home = join(base, "home");
const mono = join(base, "mono");
const ws = join(mono, "pkg");
mkdirSync(home, { recursive: true });
mkdirSync(join(mono, "other"), { recursive: true });
mkdirSync(ws, { recursive: true });
writeFileSync(join(mono, "other", "notes.txt"), "PRIVATE_NOTE\n");
writeFileSync(join(ws, "a.txt"), "hello\n");
git(mono, "init", "-q");
git(mono, "add", ".");
git(mono, "commit", "-q", "-m", "init");
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(command: string) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
}

describe("REV:PATH from the top of the work tree", () => {
  it("real git prints the top's file from the workspace below it", () => {
    const out = execFileSync("git", ["show", "HEAD:other/notes.txt"], { cwd: ws, encoding: "utf8" });
    expect(out).toContain("PRIVATE_NOTE");
  });

  it("never allows a path that the top places outside the workspace", () => {
    for (const command of [
      "git show HEAD:other/notes.txt",
      "git show :other/notes.txt",
      "git show HEAD:pkg/../other/notes.txt",
      "git diff HEAD:other/notes.txt HEAD:pkg/a.txt",
      "git show HEAD:./../other/notes.txt",
    ])
      for (const r of judge(command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("allows the workspace's own files, named from the top or from here", () => {
    for (const command of ["git show HEAD:pkg/a.txt", "git show HEAD:./a.txt", "git show :pkg/a.txt"])
      for (const r of judge(command)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
  });
});
