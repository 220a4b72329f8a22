// Never (red team, round 12): a git repository directory under another name than `.git` — a separate git
// dir the work tree's `.git` file names (`gitdir: gitstore`), a bare mirror shipped as a fixture — keeps
// its remotes' credentials in `config` and the URLs fetched in `logs/`, as `.git/` does, but only the
// `.git/…` names were judged: `head gitstore/config` and `rg -n hunter2` printed the token. Its files are
// now judged as the same files under `.git/` are, for a read and on a recursive walk.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12-gitdir-")));
const home = join(base, "home");
const ws = join(base, "proj");
mkdirSync(home, { recursive: true });
mkdirSync(join(ws, "src"), { recursive: true });
writeFileSync(join(ws, "README.md"), "hello\n");
writeFileSync(join(ws, "src", "a.js"), "export const a = 1;\n");
const run = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd, encoding: "utf8" });
run(ws, "init", "-q", `--separate-git-dir=${join(ws, "gitstore")}`);
appendFileSync(
  join(ws, "gitstore", "config"),
  '[remote "origin"]\n\turl = https://bob:hunter2pass@example.com/r.git\n',
);
run(ws, "add", "README.md", "src");
run(ws, "commit", "-q", "-m", "init");
// A bare mirror shipped as a test fixture, whose reflog kept the URL it was fetched from.
mkdirSync(join(ws, "fixtures"), { recursive: true });
run(join(ws, "fixtures"), "init", "-q", "--bare", "mirror.git");
mkdirSync(join(ws, "fixtures", "mirror.git", "logs"), { recursive: true });
writeFileSync(
  join(ws, "fixtures", "mirror.git", "logs", "HEAD"),
  "0 1 a <a@b> 1 +0000\tfetch: https://u:fetchedTOKEN@example.com/r\n",
);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(command: string) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
}

describe("a git repository directory under another name", () => {
  it("real git keeps the remote's credential in gitstore/config", () => {
    expect(execFileSync("head", ["gitstore/config"], { cwd: ws, encoding: "utf8" })).toContain("hunter2pass");
  });

  it("its config and its reflogs are judged as .git's are, read alone or on a walk", () => {
    for (const command of [
      "head gitstore/config",
      "cat fixtures/mirror.git/config",
      "cat fixtures/mirror.git/logs/HEAD",
      "rg -n hunter2",
      "grep -rn hunter2 .",
    ])
      for (const r of judge(command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("the project's other files, and a search that does not reach the repository directories, stay allowed", () => {
    for (const command of ["cat README.md", "rg -n export src", "cat gitstore/HEAD"]) {
      const [, recursive] = judge(command);
      expect(recursive?.action, `${command}\n${recursive?.why}\n${recursive?.reasons.join("\n")}`).toBe(
        "allow",
      );
    }
  });
});
