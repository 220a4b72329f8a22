// Issue 20, over-asks (the everyday bench with a committed key fixture): `git diff --cached` asked because
// the index holds a private key, though it prints only the staged changes (each as HEAD and the index have
// it). It is now judged by those entries: their names and both blobs. Attacks first; real git shows what
// each form prints.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BALANCED } from "../../policy/shell/policies.ts";
import { git, gitWorkspace, judgeOnDisk, KEY, write } from "./disk-fixture.ts";

const STARTER = BALANCED;
const ENV = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

let base: string;
let ws: string;
const put = (rel: string, text: string) => write(join(ws, rel), text);
beforeEach(() => {
  ({ base, ws } = gitWorkspace("airlock-oa12d-", {
    "src/a.ts": "export const a = 1;\n",
    "tests/fixtures/server.pem": KEY,
    "config.js": "module.exports = {};\n",
  }));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const judge = (command: string, hasUI = true) =>
  judgeOnDisk(STARTER, { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") }, { hasUI });
const realGit = (command: string) =>
  spawnSync("bash", ["-c", command], { cwd: ws, encoding: "utf8", env: ENV }).stdout;
function notAllowed(command: string): string {
  const r = judge(command);
  expect(r.action, `${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
  expect(judge(command, false).action, command).toBe("deny");
  return `${r.why}\n${r.reasons.join("\n")}`;
}

describe("git diff --cached: the attacks (written first)", () => {
  it("asks when a staged change adds, removes or edits a file holding a key", () => {
    put("deploy/key.txt", `notes\n${KEY}`);
    git(ws, "add", "deploy/key.txt");
    expect(realGit("git diff --cached")).toContain("PRIVATE KEY");
    expect(notAllowed("git diff --cached")).toMatch(/key/i);
    git(ws, "reset", "-q");
    git(ws, "rm", "-q", "--cached", "tests/fixtures/server.pem");
    expect(realGit("git diff --staged")).toContain("PRIVATE KEY");
    notAllowed("git diff --staged");
    git(ws, "reset", "-q");
    // Only HEAD's side holds the key: a staged removal of a file whose name says nothing.
    put("notes/deploy.txt", `notes\n${KEY}`);
    git(ws, "add", "notes/deploy.txt");
    git(ws, "commit", "-qm", "notes");
    git(ws, "rm", "-q", "--cached", "notes/deploy.txt");
    expect(realGit("git diff --cached")).toContain("PRIVATE KEY");
    notAllowed("git diff --cached");
    git(ws, "reset", "-q");
    writeFileSync(join(ws, "config.js"), `module.exports = { key: \`${KEY}\` };\n`);
    git(ws, "add", "config.js");
    notAllowed("git diff --cached");
  });

  it("asks for a staged secret by name", () => {
    put(".env", "API_KEY=x\n");
    git(ws, "add", "-f", ".env");
    expect(notAllowed("git diff --cached")).toMatch(/\.env/);
  });

  it("keeps every form that compares with another commit judged by the history", () => {
    put("b.ts", "b\n");
    git(ws, "add", "b.ts");
    git(ws, "commit", "-qm", "b");
    for (const c of [
      "git diff --cached HEAD~1",
      "git diff --cached --merge-base HEAD~1",
      "git diff --cached HEAD~1 -- tests",
      'git diff --cached "$REV"',
    ])
      notAllowed(c);
  });
});

describe("git diff --cached", () => {
  it("allows it when nothing staged holds a secret, with a key elsewhere in the index", () => {
    expect(judge("git diff --cached").action).toBe("allow");
    writeFileSync(join(ws, "src", "a.ts"), "export const a = 2;\n");
    git(ws, "add", "src/a.ts");
    for (const c of ["git diff --cached", "git diff --staged", "git diff --cached -- src"]) {
      const r = judge(c);
      expect(r.action, `${c}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
      expect(realGit(c)).not.toContain("PRIVATE KEY");
    }
    expect(realGit("git diff --cached")).toContain("a = 2");
  });
});
