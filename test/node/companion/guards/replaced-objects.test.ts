// The message and content scans keep each object's answer by its id, since an id is the hash of the object's
// content. A replace ref breaks that for the guards' own git unless it reads with --no-replace-objects:
// `cat-file --batch` of a replaced commit printed its replacement under the replaced id, so the answer kept
// for that id was another object's. Found when history-walk-messages' allow case asked (stop 38's CI, and
// again here when files ran together): a clean commit of one repository, read while a replace ref of another
// test's repository (the same commit, made in the same second) pointed it at a commit holding a token, was
// kept as holding one. The other direction lets a token through: a commit holding one, read while replaced by
// a clean commit, was kept clean, and `git log` printed it once the replace ref was gone; and the history's
// path listing never entered a replaced commit's tree, so `git --no-replace-objects log -p` printed a `.env`
// only that commit held, unasked.

import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import {
  firstCommitRepo,
  plainGit as git,
  judgeOnDisk,
  NO_CONFIG_ENV,
  readOnlyPolicy,
  write,
} from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const disk = diskCheck({ env: {} });
// Built at run time so no token shape sits in this file.
const TOKEN = `ghp_${"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}`;
const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-replaced-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A repository whose HEAD is a commit with `message`, its reflog forgotten. */
function repo(message: string): { dir: string; head: string } {
  const dir = firstCommitRepo(join(base, `r${n++}`));
  git(dir, "commit", "-q", "--allow-empty", "-m", message);
  git(dir, "reflog", "expire", "--expire=now", "--all");
  return { dir, head: git(dir, "rev-parse", "HEAD") };
}

/** HEAD's stand-in: a commit with `message`, HEAD's tree and parent. */
function standIn(dir: string, message: string): string {
  return git(dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD~1", "-m", message);
}

const judge = (dir: string, command: string) =>
  judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: dir }, { disk });

/** What git prints for the command (its words split on spaces). */
function prints(dir: string, command: string): string {
  return execFileSync("git", ["--no-pager", ...command.split(" ").slice(1)], {
    cwd: dir,
    encoding: "utf8",
    env: NO_CONFIG_ENV,
  });
}

describe("a replaced commit is read as itself, not as its replacement", () => {
  it("a commit holding a token, replaced by a clean one, still asks once the replace ref is gone", () => {
    const { dir, head } = repo(`deploy ${TOKEN}`);
    git(dir, "replace", head, standIn(dir, "deploy"));
    expect(prints(dir, "git log")).not.toContain(TOKEN);
    judge(dir, "git log");
    // `git --no-replace-objects log`, or a fetch that prunes refs/replace: git prints the commit itself.
    expect(prints(dir, "git --no-replace-objects log")).toContain(TOKEN);
    expect(judge(dir, "git --no-replace-objects log").action).toBe("ask");
    git(dir, "replace", "-d", head);
    expect(prints(dir, "git log")).toContain(TOKEN);
    const r = judge(dir, "git log");
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toContain(head.slice(0, 12));
  });

  it("a clean commit, replaced by one holding a token, runs once the replace ref is gone", () => {
    // Messages of their own: the same message, tree, parent and second make the same commit as above.
    const { dir, head } = repo("release");
    git(dir, "replace", head, standIn(dir, `release ${TOKEN}`));
    expect(prints(dir, "git log")).toContain(TOKEN);
    expect(judge(dir, "git log").action).toBe("ask");
    git(dir, "replace", "-d", head);
    expect(prints(dir, "git log")).not.toContain(TOKEN);
    const r = judge(dir, "git log");
    expect(r.action, r.why).toBe("allow");
  });
});

describe("a replaced commit's own files are among the history's paths", () => {
  it("a dotenv file only the replaced commit holds asks for git --no-replace-objects log -p", () => {
    const { dir } = repo("three");
    write(join(dir, "config", ".env.production"), "API_KEY=abc123\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "add config");
    const added = git(dir, "rev-parse", "HEAD");
    git(dir, "rm", "-q", "--cached", "config/.env.production");
    git(dir, "commit", "-qm", "drop config");
    git(dir, "replace", added, git(dir, "commit-tree", `${added}~1^{tree}`, "-p", `${added}~1`, "-m", "add"));
    git(dir, "reflog", "expire", "--expire=now", "--all");
    expect(prints(dir, "git --no-replace-objects log -p")).toContain("API_KEY=abc123");
    // `git log -p` prints the replacement's (empty) change; both read the history, so both ask.
    for (const command of ["git --no-replace-objects log -p", "git log -p"]) {
      const r = judge(dir, command);
      expect(r.action, command).toBe("ask");
      expect(r.why, command).toContain("config/.env.production");
    }
  });
});
