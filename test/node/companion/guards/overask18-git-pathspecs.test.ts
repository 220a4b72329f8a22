// Over-ask, round 18: a quoted git pathspec glob (`git grep TODO -- '*.ts'`) asked as "a glob with quoted
// parts, which Airlock does not expand". bash passes it as written and git matches it against its index and
// history, not the disk: what git prints is judged over every tracked path (git-contents.ts), so a tracked
// .env or a history holding one still asks. Attacks first, each shown with real git.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa18p-")));
const home = join(base, "home");
mkdirSync(home);
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A committed repository with src/a.ts and README.md, and a .env committed too when `env`. */
function repo(env: boolean): string {
  const ws = join(base, `ws${n++}`);
  mkdirSync(join(ws, "src"), { recursive: true });
  writeFileSync(join(ws, "src", "a.ts"), "export const a = 1; // TODO\n");
  writeFileSync(join(ws, "README.md"), "# r\n");
  if (env) writeFileSync(join(ws, ".env"), "TOKEN=PATHSPECSECRET18\n");
  git(ws, "init", "-q");
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "init");
  return ws;
}

const disk = diskCheck({ env: {} });
const actions = (command: string, ws: string) =>
  [BALANCED, AUTONOMOUS].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
const run = (command: string, ws: string) =>
  spawnSync("bash", ["-c", command], { cwd: ws, encoding: "utf8" }).stdout;

describe("a pathspec glob that reaches a tracked secret still asks", () => {
  const ws = repo(true);
  it.each([
    "git grep -n TOKEN -- '*env'",
    "git show HEAD -- '.env*'",
    "git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD -- '*'",
    'git log -p -- "*env"',
  ])("%s", (command) => {
    expect(run(command, ws)).toContain("PATHSPECSECRET18");
    for (const r of actions(command, ws)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("a narrow glob asks too where the history holds a secret (git's wildcards are not placed on the disk)", () => {
    for (const r of actions("git show HEAD -- '*.ts'", ws)) expect(r.action).not.toBe("allow");
  });

  it("a pathspec leaving the workspace asks", () => {
    for (const r of actions("git grep -n TODO -- '../*'", ws)) expect(r.action).not.toBe("allow");
  });
});

describe("a quoted pathspec glob over a clean repository is allowed", () => {
  const ws = repo(false);
  it.each([
    "git grep -n TODO -- '*.ts'",
    "git log --oneline -- '*.ts'",
    "git diff HEAD -- 'src/*.ts'",
    "git show HEAD -- '*.ts'",
    'git diff --name-only -- "*.ts"',
    "git grep -n TODO -- \\*.ts",
  ])("%s", (command) => {
    for (const r of actions(command, ws)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
  });

  it("git matches the pattern itself, across directories (not as bash would on the disk)", () => {
    expect(run("git grep -l TODO -- '*.ts'", ws).trim()).toBe("src/a.ts");
  });
});

describe("the names `git ls-files PATHSPEC` prints, read by xargs or a substitution", () => {
  it.each(["cat $(git ls-files '*env')", "git ls-files -z -- '*env' | xargs -0 cat"])(
    "%s asks where a secret is tracked",
    (command) => {
      const ws = repo(true);
      expect(run(command, ws)).toContain("PATHSPECSECRET18");
      for (const r of actions(command, ws)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
    },
  );

  it.each(["cat $(git ls-files '../*')", "cat $(git ls-files ':/')", "cat $(git ls-files -o '*.ts')"])(
    "%s (names above, from the top, or untracked) asks",
    (command) => {
      for (const r of actions(command, repo(false))) expect(r.action, command).not.toBe("allow");
    },
  );

  it.each(["cat $(git ls-files '*.md')", "git ls-files '*.ts' | xargs wc -l"])(
    "%s is allowed over tracked workspace files",
    (command) => {
      const ws = repo(false);
      for (const r of actions(command, ws)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
    },
  );
});
