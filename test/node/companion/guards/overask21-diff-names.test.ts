// Over-ask, round 21 (fix21d): `git diff --name-only | xargs cat` and `for f in $(git diff --name-only); do
// echo $f; done` asked, the names only known at run time. git diff with no revision and no --cached prints
// tracked files whose work tree differs from the index: some of the index's names, which the disk reads as
// it does for `git ls-files` (guards/tracked-reads.ts), a tracked link to a secret included. git prints them
// from the work tree's top, so only there are they the index's names. Real git and bash show each attack.
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, KEY } from "./disk-fixture.ts";
import { judgeCommand } from "./judge-command.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa21n-")));
const secret = join(base, "id_key");
writeFileSync(secret, KEY);
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A repository with README.md, src/a.ts and docs.txt committed, then src/a.ts changed; `after` changes more. */
function repo(after: (ws: string) => void = () => {}): string {
  const ws = join(base, `ws${n++}`);
  mkdirSync(join(ws, "src"), { recursive: true });
  writeFileSync(join(ws, "README.md"), "# readme\n");
  writeFileSync(join(ws, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(ws, "docs.txt"), "docs\n");
  git(ws, "init", "-q");
  git(ws, "add", "-A");
  git(ws, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "init");
  writeFileSync(join(ws, "src", "a.ts"), "export const a = 2;\n");
  after(ws);
  return ws;
}

const run = (command: string, cwd: string) => spawnSync("bash", ["-c", command], { cwd, encoding: "utf8" });
const allows = (ws: string, command: string) => {
  const j = judgeCommand(ws, command);
  expect(j.action, j.reason).toBe("allow");
};
const asks = (ws: string, command: string) => {
  const j = judgeCommand(ws, command);
  expect(j.action, j.reason).not.toBe("allow");
};

describe("the changed names, read at the work tree's top", () => {
  it.each([
    "git diff --name-only | xargs cat",
    "git diff --name-only -z | xargs -0 cat",
    "git diff --name-only | xargs wc -l",
    "for f in $(git diff --name-only); do echo $f; done",
    'for f in $(git diff --name-only); do echo "$f"; done',
    "cat $(git diff --name-only)",
  ])("allows %s", (command) => {
    const ws = repo();
    allows(ws, command);
    expect(run(command, ws).status).toBe(0);
  });
});

describe("names that are not plain workspace reads", () => {
  it("a tracked file turned into a link to a key outside", () => {
    const ws = repo((w) => {
      unlinkSync(join(w, "docs.txt"));
      symlinkSync(secret, join(w, "docs.txt"));
    });
    expect(run("git diff --name-only | xargs cat", ws).stdout).toContain("PRIVATE KEY");
    asks(ws, "git diff --name-only | xargs cat");
    asks(ws, "cat $(git diff --name-only)");
  });

  it("from a directory below the top, the names open other files", () => {
    const ws = repo((w) => symlinkSync(secret, join(w, "src", "src")));
    const sub = join(ws, "src");
    // git prints `src/a.ts`; from src/ that is src/src/a.ts, through the untracked link.
    expect(run("git diff --name-only", sub).stdout.trim()).toBe("src/a.ts");
    asks(sub, "git diff --name-only | xargs cat");
    asks(sub, "cat $(git diff --name-only)");
  });

  it("--cached prints a name only HEAD has: an untracked file now", () => {
    const ws = repo((w) => {
      git(w, "rm", "-q", "--cached", "docs.txt");
      unlinkSync(join(w, "docs.txt"));
      symlinkSync(secret, join(w, "docs.txt"));
    });
    expect(run("git diff --cached --name-only | xargs cat", ws).stdout).toContain("PRIVATE KEY");
    asks(ws, "git diff --cached --name-only | xargs cat");
  });

  it.each([
    "git diff HEAD~0 --name-only | xargs cat",
    "git diff --name-only -z | xargs cat",
    "git diff --name-only | xargs -0 cat",
    "git diff --name-only --relative | xargs cat",
    "git diff --name-only | xargs rm",
    "git diff --name-only | xargs sh -c 'cat \"$@\"'",
  ])("never allows %s", (command) => asks(repo(), command));
});
