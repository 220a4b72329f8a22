// Never (red team, round 3): an allow because the call's working directory was taken for the workspace
// (Claude Code keeps its shell's cwd after a `cd` into a nested repository; a cwd outside the project),
// or because a search tool's glob was assumed to skip `.git`. Each is judged with the disk as the
// companion judges it; the same calls inside the workspace stay allowed.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiskFixture, diskFixture, judgeOnDisk, readOnlyPolicy, runnersPolicy } from "./disk-fixture.ts";

let fx: DiskFixture;
const policy = readOnlyPolicy();
/** Reads in the workspace, and running scripts with python3, node and sh. */
const runners = runnersPolicy(["python3", "node", "sh"]);

beforeAll(() => {
  fx = diskFixture();
  const evil = join(fx.ws, "vendor", "evil");
  execFileSync("mkdir", ["-p", evil]);
  execFileSync("git", ["init", "-q", "."], { cwd: evil, stdio: "ignore" });
  // Its configuration runs nothing: what makes it foreign is only that it is not the project's repository.
  execFileSync("git", ["config", "remote.origin.url", "https://x:ghp_FAKE@github.com/a/b"], { cwd: fx.ws });
});
afterAll(() => fx.cleanup());

function judge(tool: string, input: Record<string, unknown>, cwd: string, workspace?: string, p = policy) {
  return judgeOnDisk(p, { tool, input, cwd, home: fx.home, ...(workspace ? { workspace } : {}) });
}

describe("the workspace is the session's, not the shell's current directory", () => {
  it("git status with the shell left in a nested repository asks", () => {
    const evil = join(fx.ws, "vendor", "evil");
    // Without the session's workspace the nested repository looks like the project's own (the bypass).
    expect(judge("bash", { command: "git status" }, evil).action).toBe("allow");
    const r = judge("bash", { command: "git status" }, evil, fx.ws);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/vendor\/evil.*not the workspace's own/);
  });
  it("a shell left outside the workspace is not understood", () => {
    const r = judge("bash", { command: "cat .aws/credentials" }, fx.home, fx.ws);
    expect(r.action).not.toBe("allow");
    expect(judge("Read", { file_path: join(fx.home, "notes.md") }, fx.home, fx.ws).why).toMatch(
      /outside the session's workspace/,
    );
  });
  it("a shell in a plain subdirectory of the workspace stays allowed", () => {
    expect(judge("bash", { command: "ls" }, join(fx.ws, "src"), fx.ws).action).toBe("allow");
    expect(judge("bash", { command: "cat a.ts" }, join(fx.ws, "src"), fx.ws).action).toBe("allow");
  });
});

describe("a search tool's glob into .git", () => {
  it("Grep with glob .git/** walks .git and reaches its config", () => {
    const r = judge("Grep", { pattern: "url", path: fx.ws, glob: ".git/**" }, fx.ws);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/\.git\/config/);
  });
  it("Grep with a glob that cannot match a file there keeps skipping it", () => {
    expect(judge("Grep", { pattern: "foo", path: join(fx.ws, "src"), glob: "*.ts" }, fx.ws).action).toBe(
      "allow",
    );
  });
});

describe("the script a shell or an interpreter runs is a read of it", () => {
  it("a script that is a link to a key, or holds one, asks", () => {
    const linked = judge("bash", { command: "python3 docs-key.txt" }, fx.ws, undefined, runners);
    expect(linked.action).toBe("ask");
    expect(linked.why).toMatch(/docs-key\.txt.*id_rsa/);
    const holding = judge("bash", { command: "sh -v deploy.txt" }, fx.ws, undefined, runners);
    expect(holding.action).toBe("ask");
    expect(holding.why).toMatch(/holds a private key/);
  });
  it("a project script stays allowed", () => {
    expect(judge("bash", { command: "node src/a.ts" }, fx.ws, undefined, runners).action).toBe("allow");
  });
});

describe("the workspace's own repository configuration that runs programs", () => {
  it.each([
    ["core.fsmonitor", "touch PWNED; false", "core.fsmonitor"],
    ["core.pager", "sh -c 'touch PWNED'", "core.pager"],
    ["diff.external", "./x.sh", "diff.external"],
    ["filter.x.clean", "./x.sh", "filter.x.clean"],
    // An include the judge cannot follow (one it can is judged by what it pulls in: repo-config-includes.test.ts).
    ["include.path", "~nobody/shared.cfg", "include.path"],
  ])("%s in .git/config makes git status ask", (key, value, named) => {
    const ws = join(fx.base, `own-${key}`);
    execFileSync("mkdir", ["-p", ws]);
    execFileSync("git", ["init", "-q", "."], { cwd: ws, stdio: "ignore" });
    execFileSync("git", ["config", key, value], { cwd: ws });
    const r = judge("bash", { command: "git status" }, ws);
    expect(r.action).toBe("ask");
    expect(r.why).toContain(named);
  });
  it("git's own fsmonitor daemon (a boolean) runs nothing", () => {
    const ws = join(fx.base, "own-builtin");
    execFileSync("mkdir", ["-p", ws]);
    execFileSync("git", ["init", "-q", "."], { cwd: ws, stdio: "ignore" });
    execFileSync("git", ["config", "core.fsmonitor", "true"], { cwd: ws });
    expect(judge("bash", { command: "git status" }, ws).action).toBe("allow");
  });
});
