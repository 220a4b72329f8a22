// Never (issue 20, open class d): an allow for a git command that prints a secret committed under a
// harmless name — a PEM block or an AWS key in config.js in an old commit, printed by `git log -p`,
// `git show REV`, `git show <blob id>` (a dangling blob too), `git diff --cached`. The engine checks the
// objects the command may print by content (each once, kept by id); the same commands over a clean
// history stay allowed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, judgeOnDisk, KEY, readOnlyPolicy, write } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const AWS = "AKIAQWERTYUIOPASDFGH";
let base: string;

function repo(name: string, history: (dir: string) => void): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", ".");
  write(join(dir, "src", "a.ts"), "export const a = 1;\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "a");
  history(dir);
  return dir;
}
function judge(cwd: string, command: string) {
  return judgeOnDisk(policy, { tool: "bash", input: { command }, cwd, home: join(base, "home") });
}

let pem: string;
let aws: string;
let dangling: string;
let staged: string;
let clean: string;
let danglingId: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-gitobj-")));
  const once = (text: string) => (dir: string) => {
    write(join(dir, "config.js"), text);
    git(dir, "add", "config.js");
    git(dir, "commit", "-qm", "config");
    write(join(dir, "config.js"), "module.exports = {};\n");
    git(dir, "commit", "-qam", "scrubbed");
  };
  pem = repo("pem", once(`module.exports = { key: \`${KEY}\` };\n`));
  aws = repo("aws", once(`module.exports = { id: "${AWS}" };\n`));
  dangling = repo("dangling", (dir) => {
    write(join(dir, "tmp.txt"), KEY);
    danglingId = git(dir, "hash-object", "-w", "tmp.txt");
    rmSync(join(dir, "tmp.txt"));
  });
  staged = repo("staged", (dir) => {
    write(join(dir, "notes.txt"), `id ${AWS}\n`);
    git(dir, "add", "notes.txt");
  });
  clean = repo("clean", (dir) => {
    write(join(dir, "src", "b.ts"), "export const b = 2;\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "b");
  });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("git commands that print objects holding a secret by content", () => {
  it.each([
    ["pem", "git log -p"],
    ["pem", "git show HEAD~1"],
    ["pem", "git log -p -- src"],
    ["aws", "git log -p"],
    ["aws", "git show HEAD~1:config.js"],
  ])("%s: %s asks", (which, command) => {
    const r = judge(which === "pem" ? pem : aws, command);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/with a private key or a credential, which git may print/);
  });

  it("a dangling blob printed by its id asks", () => {
    const r = judge(dangling, `git show ${danglingId}`);
    expect(r.action).toBe("ask");
    expect(r.why).toContain(danglingId.slice(0, 12));
  });

  it("a staged file printed by git diff --cached asks", () => {
    expect(judge(staged, "git diff --cached").action).toBe("ask");
  });

  it.each(["git log -p", "git show HEAD", "git diff --cached", "git log -p -3 -- src"])(
    "a clean history: %s stays allowed, twice",
    (command) => {
      expect(judge(clean, command).action).toBe("allow");
      expect(judge(clean, command).action).toBe("allow");
    },
  );
});

describe("git commands that print the work tree", () => {
  let work: string;
  beforeAll(() => {
    work = repo("work", (dir) => {
      write(join(dir, "config.js"), "module.exports = {};\n");
      git(dir, "add", "config.js");
      git(dir, "commit", "-qm", "config");
      write(join(dir, "config.js"), `module.exports = { id: "${AWS}" };\n`);
    });
  });
  it.each(["git diff", "git diff HEAD", "git grep AKIA", "git diff -- config.js"])("%s asks", (command) => {
    const r = judge(work, command);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/config\.js`.*holds a private key or a credential/);
  });
  it("a pathspec that does not cover the file stays allowed", () => {
    expect(judge(work, "git diff -- src").action).toBe("allow");
  });
});

// Red team round 4, finding 7: a secret committed then deleted, printed by naming its path — a pathspec,
// `git blame REV FILE`, `git log -L…:FILE` (the file outside the pathspecs).
describe("a deleted secret's history, named by its path", () => {
  let deleted: string;
  beforeAll(() => {
    deleted = repo("deleted", (dir) => {
      write(join(dir, "README.md"), "# r\n");
      write(join(dir, "config.secret.js"), "API_TOKEN=PLANTED\n");
      git(dir, "add", "-A");
      git(dir, "commit", "-qm", "cfg");
      git(dir, "rm", "-q", "config.secret.js");
      git(dir, "commit", "-qm", "rm");
    });
  });
  it.each([
    "git log -p -- config.secret.js",
    "git diff HEAD~1 -- config.secret.js",
    "git blame HEAD~1 config.secret.js",
    "git log -L1,1:config.secret.js HEAD~1",
  ])("%s asks", (command) => {
    const r = judge(deleted, command);
    expect(r.action).toBe("ask");
    expect(r.why).toContain("config.secret.js");
  });
  it("git blame README.md stays allowed", () => {
    expect(judge(deleted, "git blame README.md").action).toBe("allow");
  });
  // `-L` follows its lines through renames (red team, round 7): any secret in the history counts.
  it("git log -L1,1:README.md asks while the history holds a secret", () => {
    expect(judge(deleted, "git log -L1,1:README.md").action).toBe("ask");
  });
});
