// Never (red team, round 7): an allow for a git read that prints a secret file's contents out of history
// the history check never listed. `git rev-list --objects` names each blob once, under the first path it
// meets, so a dotenv whose blob also sits under a harmless name (or is first reached through a tag) was
// never seen as `.env`; a dropped stash's commit is reachable from no ref; `--follow`, `--full-diff`,
// `--pickaxe-all` and `-L` print more than their pathspec. Each attack is judged with the disk as the
// companion judges it; the same commands over a clean history stay allowed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { readOnlyPolicy } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const disk = diskCheck({ env: {} });
const SECRET = "STRIPE_KEY=sk_live_FAKE_round7\n";
let base: string;
let renamed: string;
let sameBlob: string;
let tagged: string;
let dropped: string;
let droppedId: string;
let clean: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();
}
function repo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", ".");
  write(join(dir, "README.md"), "# r\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "a");
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt7h-")));
  // A .env committed beside README.md, then renamed to a harmless name.
  renamed = join(base, "renamed");
  repo(renamed);
  write(join(renamed, ".env"), SECRET);
  write(join(renamed, "README.md"), "# r\nmore\n");
  git(renamed, "add", "-A");
  git(renamed, "commit", "-qm", "env");
  mkdirSync(join(renamed, "config"));
  git(renamed, "mv", ".env", "config/settings.txt");
  git(renamed, "commit", "-qm", "rename");
  // The same blob under a harmless name in a later commit than the .env (rev-list meets it there first).
  sameBlob = join(base, "same");
  repo(sameBlob);
  write(join(sameBlob, ".env"), SECRET);
  git(sameBlob, "add", "-A");
  git(sameBlob, "commit", "-qm", "env");
  git(sameBlob, "rm", "-q", ".env");
  git(sameBlob, "commit", "-qm", "rm env");
  write(join(sameBlob, "old", "settings.txt"), SECRET);
  git(sameBlob, "add", "-A");
  git(sameBlob, "commit", "-qm", "settings");
  // A lightweight tag naming the blob itself, listed before any commit's tree.
  tagged = join(base, "tagged");
  repo(tagged);
  write(join(tagged, ".env"), SECRET);
  git(tagged, "add", "-A");
  git(tagged, "commit", "-qm", "env");
  git(tagged, "tag", "aaa-blob", git(tagged, "rev-parse", "HEAD:.env"));
  git(tagged, "rm", "-q", ".env");
  git(tagged, "commit", "-qm", "rm env");
  // A tree no commit holds (`git write-tree` of a staged .env), named by a tag.
  write(join(tagged, "cfg", ".env.local"), SECRET);
  git(tagged, "add", "cfg/.env.local");
  git(tagged, "tag", "aaa-tree", git(tagged, "write-tree"));
  git(tagged, "rm", "-q", "--cached", "cfg/.env.local");
  // A commit holding a .env on a branch since deleted, its reflog expired: reachable from no ref and no
  // reflog, still in the object database (as a dropped stash or a rewritten commit is until gc).
  dropped = join(base, "dropped");
  repo(dropped);
  git(dropped, "checkout", "-q", "-b", "tmp");
  write(join(dropped, ".env"), SECRET);
  git(dropped, "add", "-A");
  git(dropped, "commit", "-qm", "env");
  droppedId = git(dropped, "rev-parse", "HEAD");
  git(dropped, "checkout", "-q", "-");
  git(dropped, "branch", "-q", "-D", "tmp");
  git(dropped, "reflog", "expire", "--expire=now", "--all");
  clean = join(base, "clean");
  repo(clean);
  write(join(clean, "config", "settings.txt"), "a=1\n");
  git(clean, "add", "-A");
  git(clean, "commit", "-qm", "settings");
  git(clean, "mv", "config/settings.txt", "config/s.txt");
  git(clean, "commit", "-qm", "rename");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function bash(cwd: string, command: string) {
  const j = judgeCall(
    policy,
    { tool: "bash", input: { command }, cwd, home: join(base, "home") },
    { hasUI: true },
    disk,
  );
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}

describe("history printers that reach a secret the path listing missed", () => {
  it.each([
    ["renamed", "git log -p --follow -- config/settings.txt"],
    ["renamed", "git log -p --full-diff -- README.md"],
    ["renamed", "git show --full-diff HEAD~1 -- README.md"],
    ["renamed", "git log -L1,1:config/settings.txt"],
    ["renamed", "git log -p -S more --pickaxe-all -- README.md"],
    ["same", "git log -p"],
    ["same", "git show HEAD~1"],
    ["tagged", "git log -p"],
    ["tagged", "git show aaa-blob"],
    ["tagged", "git show aaa-tree:cfg/.env.local"],
  ])("%s: %s asks", (which, command) => {
    const dir = { renamed, same: sameBlob, tagged }[which] as string;
    const r = bash(dir, command);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/\.env|history/);
  });

  it("a dropped stash's commit, shown by id, asks", () => {
    expect(git(dropped, "show", droppedId, "--stat")).toContain(".env");
    const r = bash(dropped, `git show ${droppedId}`);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/\.env/);
  });
});

describe("the same readers over a history without secrets stay allowed", () => {
  it.each([
    "git log -p",
    "git log -p --follow -- config/s.txt",
    "git log -p --full-diff -- README.md",
    "git log -L1,1:config/s.txt",
    "git show HEAD~1",
  ])("%s", (command) => {
    expect(bash(clean, command).action).toBe("allow");
  });
});

describe("property: any option that widens a pathspec-narrowed history print", () => {
  it("never allows over the renamed .env, whatever pathspec narrows it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("--follow", "--full-diff", "--pickaxe-all -S more"),
        fc.constantFrom("log -p", "log --patch", "whatchanged -p", "show HEAD~1"),
        fc.constantFrom("README.md", "config/settings.txt", "config"),
        (widen, printer, spec) => {
          const command = `git ${printer} ${widen} -- ${spec}`;
          expect(bash(renamed, command).action).not.toBe("allow");
        },
      ),
      { numRuns: 40 },
    );
  });
});
