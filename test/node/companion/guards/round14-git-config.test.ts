// Red team, round 14 (r14-05): `git config list` (git ≥ 2.46) printed every variable of every file, a
// password in the user's ~/.gitconfig among them, and was allowed: the grammar took `list` for a key. On the
// disk, the subcommand forms are now judged as their old forms: `list` as `--list`, `get KEY` by KEY's own
// values as `git config KEY` is (so a token in a remote URL still does not make `get user.name` ask).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, testGitConfig } from "./disk-fixture.ts";

const TOKEN = "ghp_FAKEtoken0123456789abcdefABCDEF01234";
let base: string;
let ws: string;
let restoreGitConfig: () => void;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt14g-")));
  // The red team's ~/.gitconfig: passwords under keys no name check knows.
  restoreGitConfig = testGitConfig(
    base,
    "[user]\n\tname = U\n[sendemail]\n\tsmtpPass = hunter2-smtp-password\n[github]\n\ttoken = abcd1234plaintoken\n",
  );
  ws = join(base, "ws");
  mkdirSync(ws);
  git(ws, "init", "-q", ".");
  git(ws, "config", "user.email", "dev@example.com");
  git(ws, "remote", "add", "origin", `https://dev:${TOKEN}@github.com/a/b.git`);
});
afterAll(() => {
  restoreGitConfig();
  rmSync(base, { recursive: true, force: true });
});

const STARTERS = [BALANCED, AUTONOMOUS];
const judge = (command: string, policy = BALANCED, hasUI = true) =>
  judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: ws, home: base }, { hasUI });

describe("git config's subcommands on the disk", () => {
  it("never allows a listing, with no URL token to find: the user's file holds passwords (written first)", () => {
    git(ws, "remote", "set-url", "origin", "https://github.com/a/b.git");
    try {
      for (const c of ["git config list", "git config list --global", "git config list --show-origin"])
        for (const policy of STARTERS) {
          const r = judge(c, policy);
          expect(r.action, `${c}\n${r.why}\n${r.reasons.join("\n")}`).not.toBe("allow");
          expect(judge(c, policy, false).action, c).toBe("deny");
        }
    } finally {
      git(ws, "remote", "set-url", "origin", `https://dev:${TOKEN}@github.com/a/b.git`);
    }
  });

  it("never allows reading the token's key, or keys by a pattern", () => {
    for (const c of [
      "git config get remote.origin.url",
      "git config get --all REMOTE.origin.URL",
      "git config get --local remote.origin.url",
      "git config get --regexp sendemail",
    ])
      for (const policy of STARTERS) {
        const r = judge(c, policy);
        expect(r.action, `${c}\n${r.why}\n${r.reasons.join("\n")}`).not.toBe("allow");
        expect(judge(c, policy, false).action, c).toBe("deny");
      }
  });

  it("allows reading one key whose values hold no credential, as its old form is", () => {
    for (const [c, legacy] of [
      ["git config get user.name", "git config user.name"],
      ["git config get --all user.name", "git config --get-all user.name"],
      ["git config get --local user.email", "git config --local user.email"],
    ] as const)
      for (const policy of STARTERS) {
        const r = judge(c, policy);
        expect(r.action, `${c}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
        expect(judge(legacy, policy).action, legacy).toBe("allow");
      }
  });
});
