// Issue 20, over-asks: `git config user.name` asked whenever the repository's configuration held a token
// in a remote URL, though it prints one key's values only. `git config [--get|--get-all] KEY` is now
// judged by KEY's own values in every file git reads (git-config-values.ts). Attacks first: the key that
// holds the token, a token hidden in the named key, forms that print more, an include; then real git
// shows what each allowed form prints.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { configKey, configValues } from "../../../../src/companion/guards/git-config-values.ts";
import { straceAvailable, trace } from "../../policy/shell/effects-oracle.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, testGitConfig } from "./disk-fixture.ts";

const STARTER = BALANCED;
const TOKEN = "ghp_FAKEtoken0123456789abcdefABCDEF01234";

let base: string;
let ws: string;
let restoreGitConfig: () => void;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa12g-")));
  // The companion reads the user's and the system's files too: here empty ones of the test's own.
  restoreGitConfig = testGitConfig(base, "[user]\n\tname = Dev\n");
});
afterAll(() => {
  restoreGitConfig();
  rmSync(base, { recursive: true, force: true });
});
beforeEach(() => {
  ws = join(base, `ws-${Math.random().toString(36).slice(2)}`);
  mkdirSync(ws);
  git(ws, "init", "-q", ".");
  git(ws, "config", "user.email", "dev@example.com");
  git(ws, "remote", "add", "origin", `https://dev:${TOKEN}@github.com/a/b.git`);
});

const judge = (command: string, hasUI = true) =>
  judgeOnDisk(STARTER, { tool: "bash", input: { command }, cwd: ws, home: base }, { hasUI });
function notAllowed(command: string): string {
  const r = judge(command);
  expect(r.action, `${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
  expect(judge(command, false).action, command).toBe("deny");
  return `${r.why}\n${r.reasons.join("\n")}`;
}
/** What real git prints for the command in the workspace, with the test's own global and system files. */
function realGit(args: string[]): string {
  return spawnSync("git", args, {
    cwd: ws,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "" },
  }).stdout;
}

describe("git config KEY: the attacks (written first)", () => {
  it("asks for the key that holds the token, in any spelling git takes", () => {
    for (const c of [
      "git config remote.origin.url",
      "git config --get remote.origin.url",
      "git config --get-all remote.origin.url",
      "git config REMOTE.origin.URL",
      "git config --local remote.origin.url",
    ])
      expect(notAllowed(c), c).toMatch(/credential/);
    expect(realGit(["config", "REMOTE.origin.URL"])).toContain(TOKEN);
  });

  it("asks when the named key itself holds a token, in a continued line, an old-style header or the user's file", () => {
    git(ws, "config", "branch.main.remote", `https://dev:${TOKEN}@github.com/a/b.git`);
    notAllowed("git config branch.main.remote");
    writeFileSync(
      join(ws, ".git", "config"),
      `[user "x"]\n\tname = a\\\nhttps://u:${TOKEN}@h\n[Core.Sub]\n\tkey = ${TOKEN}\n`,
      {
        flag: "a",
      },
    );
    notAllowed("git config user.x.name");
    notAllowed("git config core.sub.key");
    writeFileSync(join(base, "global"), `[user]\n\tname = https://u:${TOKEN}@h\n`);
    try {
      notAllowed("git config user.name");
    } finally {
      writeFileSync(join(base, "global"), "[user]\n\tname = Dev\n");
    }
  });

  it("keeps every form that prints more, or reads another file, judged as a listing", () => {
    for (const c of [
      "git config -l",
      "git config --list",
      "git config --get-regexp user",
      "git config --get-regexp '.*'",
      "git config --get user.name x",
      "git config --show-origin user.name",
      "git config -f .git/config remote.origin.url",
      "git config --get-urlmatch http https://github.com",
      "git config user.name remote.origin.url",
      'git config "$K"',
    ])
      notAllowed(c);
  });

  it("asks when a file includes another (its values are not read here) or cannot be placed line by line", () => {
    writeFileSync(join(base, "inc"), `[user]\n\tname = ${TOKEN}\n`);
    git(ws, "config", "include.path", join(base, "inc"));
    expect(notAllowed("git config user.name")).toMatch(/include/i);
    expect(realGit(["config", "user.name"])).toContain(TOKEN);
  });

  it("the reader places values as git does (a property of the parser against real git)", () => {
    const text = `[user]\n\tname = first\n[remote "origin"]\n\turl = https://x\n[user] email = e@x\n[user]\n\tname = a\\\nb\n`;
    const key = configKey("user.name");
    expect(key).not.toBeNull();
    expect(configValues(text, key as NonNullable<typeof key>)).toEqual(["first", "ab"]);
    writeFileSync(join(ws, ".git", "config"), text);
    expect(realGit(["config", "--local", "--get-all", "user.name"]).trim().split("\n")).toEqual([
      "first",
      "ab",
    ]);
    expect(configValues("name = x\n", key as NonNullable<typeof key>)).toBeNull();
    expect(configValues("[user\n", key as NonNullable<typeof key>)).toBeNull();
  });
});

describe("git config KEY", () => {
  it("allows reading a key whose values hold no credential, with a token elsewhere in the configuration", () => {
    for (const c of [
      "git config user.name",
      "git config --get user.email",
      "git config --get-all user.name",
      "git config core.bare",
    ]) {
      const r = judge(c);
      expect(r.action, `${c}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });

  it("real git prints only the key's values (no token)", () => {
    for (const args of [
      ["config", "user.name"],
      ["config", "--get", "user.email"],
      ["config", "core.bare"],
    ]) {
      const out = realGit(args);
      expect(out.length, args.join(" ")).toBeGreaterThan(0);
      expect(out, args.join(" ")).not.toContain(TOKEN);
    }
  });
});

describe("git -c KEY=VALUE for one run", () => {
  it("never allows a setting that runs a program, reads another file, or is not a plain display value (written first)", () => {
    for (const c of [
      "git -c core.pager=less log -1",
      "git -c core.fsmonitor=./x status",
      "git -c alias.l='!touch PWNED' l",
      "git -c log.showSignature=true log -1",
      "git -c diff.external=./x diff",
      "git -c core.sshCommand=x fetch",
      "git -c color.ui=never -c core.hooksPath=x status",
      "git -c pager.log=./x log -1",
      "git -c color.ui='never;touch x' log -1",
      'git -c "color.ui=$X" log -1',
      "git -c include.path=/tmp/x log -1",
    ])
      notAllowed(c);
  });

  it("allows a display setting, and git runs and opens the same as without it (strace)", () => {
    git(ws, "commit", "-q", "--allow-empty", "-m", "one");
    for (const c of [
      "git -c color.ui=never log -1",
      "git -c core.quotepath=off status",
      "git -c color.ui=always diff",
    ]) {
      const r = judge(c);
      expect(r.action, `${c}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    }
    if (!straceAvailable()) return;
    const plain = trace("git log -1", ws);
    const display = trace("git -c color.ui=never log -1", ws);
    expect(new Set(display.execs.map((e) => basename(e)))).toEqual(
      new Set(plain.execs.map((e) => basename(e))),
    );
    const files = (t: typeof plain) =>
      new Set(t.accesses.filter((a) => !a.directory).map((a) => `${a.write}:${a.path}`));
    expect(files(display)).toEqual(files(plain));
  });
});
