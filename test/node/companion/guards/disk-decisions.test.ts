// Never: an allow for a call whose text looks harmless but whose paths, as the filesystem resolves them
// at decision time, reach a secret or run code. Each attack of issue 20 on the companion's side is
// judged twice: text only (the edge's view, which allows it — the bypass is real) and with the disk
// (the companion's view, which asks and names the path). Everyday reads stay allowed.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapCodexTool } from "../../../../src/companion/adapters/codex/tools.ts";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { DISK, type DiskFixture, diskFixture, judgeOnDisk, readOnlyPolicy } from "./disk-fixture.ts";

let fx: DiskFixture;
const policy = readOnlyPolicy();

beforeAll(() => {
  fx = diskFixture();
});
afterAll(() => fx.cleanup());

function judge(tool: string, input: Record<string, unknown>, opts: { disk?: boolean; hasUI?: boolean } = {}) {
  return judgeOnDisk(
    policy,
    { tool, input, cwd: fx.ws, home: fx.home },
    { ...opts, disk: opts.disk !== false && DISK },
  );
}
const bash = (command: string, opts?: { disk?: boolean; hasUI?: boolean }) =>
  judge("bash", { command }, opts);

describe("attacks the text hides", () => {
  it("cd into a bare repository whose config sets core.fsmonitor, then git status", () => {
    expect(bash("cd fixtures/repo && git status", { disk: false }).action).toBe("allow");
    const r = bash("cd fixtures/repo && git status");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/fixtures\/repo.*not the workspace's own/);
  });
  it("git -C and GIT_DIR into that repository", () => {
    expect(bash("git -C fixtures/repo log").action).toBe("ask");
    expect(bash("GIT_DIR=fixtures/repo git log").action).toBe("ask");
    expect(bash("git --git-dir=fixtures/repo log").action).toBe("ask");
  });
  it("cat of a symlink to ~/.ssh/id_rsa", () => {
    expect(bash("cat docs-key.txt", { disk: false }).action).toBe("allow");
    const r = bash("cat docs-key.txt");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/docs-key\.txt.*link to .*id_rsa.*secret/);
  });
  it("cat and Read of a hard link to ~/.aws/credentials", () => {
    expect(bash("cat notes.txt", { disk: false }).action).toBe("allow");
    expect(bash("cat notes.txt").why).toMatch(/notes\.txt.*hard link/);
    expect(judge("Read", { file_path: `${fx.ws}/notes.txt` }).action).toBe("ask");
    expect(judge("Read", { file_path: `${fx.ws}/notes.txt` }, { hasUI: false }).action).toBe("deny");
  });
  it("a small file holding a private key, whatever its name", () => {
    expect(bash("cat deploy.txt").why).toMatch(/holds a private key/);
  });
  it("a glob with an equivalence class that matches .env", () => {
    const r = bash("cat .[[=e=]]nv");
    expect(r.action).not.toBe("allow");
  });
  it("a glob matching a dotenv of the new families", () => {
    const r = bash("cat docker/*");
    expect(r.action).toBe("ask");
    expect(r.why + r.reasons.join("\n")).toMatch(/app\.env/);
  });
  it("a write through a link into .git/hooks", () => {
    expect(bash("echo x > hook-link", { disk: false }).action).toBe("allow");
    expect(bash("echo x > hook-link").why).toMatch(/hook-link.*pre-commit/);
  });
  it("grep -r over the workspace reaches .env and .git/config", () => {
    expect(bash("grep -rn KEY .").action).toBe("ask");
    expect(bash("grep -rn KEY .").why).toMatch(/recursive read reaches/);
  });
  it("rg with --hidden or a glob override reaches .env; rg alone skips hidden and ignored files", () => {
    expect(bash("rg foo").action).toBe("ask"); // docker/app.env is neither hidden nor ignored
    expect(bash("rg foo src").action).toBe("allow");
    expect(bash("rg --hidden foo src").action).toBe("allow");
    expect(bash("rg -g .env KEY").action).toBe("ask");
    expect(bash("rg -uu KEY .").why).toMatch(/\.env|\.git\/config/);
  });
  it("the Grep tool over the workspace with glob .env", () => {
    const r = judge("Grep", { pattern: "KEY", glob: ".env" });
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/\.env/);
    expect(judge("Grep", { pattern: "foo", path: "src" }).action).toBe("allow");
    expect(
      judge("Grep", { pattern: "foo", path: "src", glob: "*.ts", output_mode: "content", "-n": true }).action,
    ).toBe("allow");
  });
  it("cd -- goes home: what follows is not judged in the workspace", () => {
    expect(bash("cd --; cat .bashrc").action).toBe("ask");
  });
  it("cd into a glob: the directory bash picks is not known from the text", () => {
    expect(bash("cd s*; cat config").action).toBe("ask");
  });
  it("CDPATH in the agent's environment may send cd elsewhere", () => {
    const j = judgeCall(
      policy,
      { tool: "bash", input: { command: "cd sub && cat x" }, cwd: fx.ws },
      { hasUI: true },
      diskCheck({ env: { CDPATH: "/etc" } }),
    );
    expect(j.record.action).toBe("ask");
    expect(bash("cd sub && cat x").action).toBe("allow");
  });
  it("a walk bigger than the bound asks", () => {
    const small = diskCheck({ env: {}, walkBound: 1 });
    const j = judgeCall(
      policy,
      { tool: "bash", input: { command: "grep -rn foo src" }, cwd: fx.ws },
      { hasUI: true },
      small,
    );
    expect(j.record.action).toBe("ask");
    expect(factLine(j.facts[0] as never)).toMatch(/more than 1 entries/);
  });
});

describe("tool inputs in full", () => {
  it("Codex exec_command is judged in its workdir", () => {
    const input = { cmd: "cat config", workdir: `${fx.home}/.aws` };
    expect(judge("bash", { command: "cat config" }, { disk: false }).action).toBe("allow");
    expect(judge("exec_command", input, { disk: false }).action).not.toBe("allow");
    expect(judge("exec_command", { cmd: "cat package.json", workdir: fx.ws }).action).toBe("allow");
  });
  it("the workdir survives the Codex adapter's mapping, so the hook judges it there too", () => {
    const [mapped] = mapCodexTool("exec_command", { cmd: "cat config", workdir: `${fx.home}/.aws` });
    expect(mapped?.input).toEqual({ command: "cat config", workdir: `${fx.home}/.aws` });
    expect(judge(mapped?.tool ?? "", mapped?.input ?? {}, { disk: false }).action).not.toBe("allow");
    const [unknown] = mapCodexTool("exec_command", { cmd: "ls", future_field: 1 });
    expect(judge(unknown?.tool ?? "", unknown?.input ?? {}).action).toBe("ask");
  });
  it("an unknown field is not understood: ask, and deny headless", () => {
    const r = judge("Read", { file_path: `${fx.ws}/package.json`, follow_links: true });
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/follow_links/);
    expect(judge("Read", { file_path: `${fx.ws}/package.json`, x: 1 }, { hasUI: false }).action).toBe("deny");
  });
  it("an unknown field survives the adapter's mapping (re-mapped canonical input)", () => {
    expect(judge("read", { path: `${fx.ws}/package.json`, unknown_fields: ["follow_links"] }).action).toBe(
      "ask",
    );
  });
  it("escalated permissions and a non-bash shell ask", () => {
    expect(judge("exec_command", { cmd: "ls", sandbox_permissions: "require_escalated" }).action).toBe("ask");
    expect(judge("exec_command", { cmd: "ls", with_escalated_permissions: true }).action).toBe("ask");
    expect(judge("exec_command", { cmd: "ls", shell: "python3" }).action).toBe("ask");
    expect(
      judge("exec_command", { cmd: "ls", shell: "/bin/bash", login: true, yield_time_ms: 1000 }).action,
    ).toBe("allow");
    expect(judge("Bash", { command: "ls", dangerouslyDisableSandbox: true }).action).toBe("ask");
  });
  it("Codex's own `bash -lc CMD` is judged as CMD, on the disk too", () => {
    const r = judge("shell", { command: ["bash", "-lc", "cat notes.txt"], workdir: fx.ws });
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/notes\.txt.*hard link/);
    expect(judge("shell", { command: ["bash", "-lc", "cat package.json"], workdir: fx.ws }).action).toBe(
      "allow",
    );
  });
});

describe("a Codex workdir is no second workspace (red team)", () => {
  let wd: DiskFixture;
  beforeAll(() => {
    wd = diskFixture();
    // A link inside the workspace that leads to the home directory, and a nested repository whose
    // configuration runs a program (unpacked from an archive, never added).
    symlinkSync(wd.home, join(wd.ws, "home-link"));
    mkdirSync(join(wd.ws, "vendor", "evil"), { recursive: true });
    execFileSync("git", ["init", "-q", "."], { cwd: join(wd.ws, "vendor", "evil"), stdio: "ignore" });
    execFileSync("git", ["config", "core.fsmonitor", "touch PWNED"], {
      cwd: join(wd.ws, "vendor", "evil"),
      stdio: "ignore",
    });
  });
  afterAll(() => wd.cleanup());
  const codex = (cmd: string, workdir: string, opts: { disk?: boolean; hasUI?: boolean } = {}) => {
    return judgeOnDisk(
      policy,
      { tool: "exec_command", input: { cmd, workdir }, cwd: wd.ws, home: wd.home },
      { ...opts, disk: opts.disk !== false && DISK },
    );
  };

  it("a workdir outside the workspace is not understood, text alone (the edge) too", () => {
    for (const disk of [true, false]) {
      const r = codex("cat .gitconfig", wd.home, { disk });
      expect(r.action).toBe("ask");
      expect(r.why).toMatch(/home.*outside the session's workspace/);
      expect(codex("ls -la", join(wd.home, ".ssh"), { disk }).action).toBe("ask");
      expect(codex("cat .gitconfig", wd.home, { disk, hasUI: false }).action).toBe("deny");
    }
    expect(codex("cat x", "../home").action).toBe("ask");
  });
  it("a workdir that leads out of the workspace through a symlink asks", () => {
    expect(codex("cat .gitconfig", join(wd.ws, "home-link"), { disk: false }).action).toBe("allow");
    const r = codex("cat .gitconfig", join(wd.ws, "home-link"));
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/home-link.*leads out of the workspace/);
  });
  it("git in a workdir inside a nested repository asks: its configuration is not the workspace's", () => {
    const r = codex("git status", join(wd.ws, "vendor", "evil"));
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/vendor\/evil.*not the workspace's own/);
    expect(codex("git status", "vendor/evil").action).toBe("ask");
  });
  it("a workdir inside the workspace's own repository stays allowed", () => {
    expect(codex("git status", join(wd.ws, "src")).action).toBe("allow");
    expect(codex("cat a.ts", "src").action).toBe("allow");
    expect(codex("cat package.json", wd.ws).action).toBe("allow");
  });
});

describe("a nested repository git enters from the workspace (red team)", () => {
  let nx: DiskFixture;
  beforeAll(() => {
    nx = diskFixture();
    // vendor/evil: a repository unpacked into the workspace and added (a gitlink in the index), so
    // `git status` at the root runs git inside it, with its core.fsmonitor.
    const evil = join(nx.ws, "vendor", "evil");
    mkdirSync(evil, { recursive: true });
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore" });
    git(evil, "init", "-q", ".");
    git(evil, "commit", "-q", "--allow-empty", "-m", "x");
    git(evil, "config", "core.fsmonitor", "touch PWNED");
    git(nx.ws, "add", "vendor/evil");
  });
  afterAll(() => nx.cleanup());
  const at = (ws: string, command: string) => {
    return judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: ws, home: nx.home });
  };

  it("git status and git diff at the root ask, naming the nested repository", () => {
    for (const command of [
      "git status",
      "git diff",
      "git status --short",
      "git ls-files --recurse-submodules",
    ]) {
      const r = at(nx.ws, command);
      expect(r.action, command).toBe("ask");
      expect(r.why).toMatch(/vendor\/evil.*submodule|submodule.*vendor\/evil/);
    }
  });
  it("git commands that never enter a submodule stay allowed", () => {
    expect(at(nx.ws, "git log --oneline").action).toBe("allow");
    expect(at(nx.ws, "git log -p --submodule=diff").action).toBe("ask");
  });
  it("a .gitmodules file makes git grep ask, and the workspace without one stays allowed", () => {
    expect(at(fx.ws, "git status").action).toBe("allow");
    const plain = diskFixture();
    try {
      writeFileSync(join(plain.ws, ".gitmodules"), '[submodule "s"]\n\tpath = s\n\turl = ./s\n');
      const r = at(plain.ws, "git grep foo");
      expect(r.action).toBe("ask");
      expect(r.why).toMatch(/\.gitmodules/);
      // git status enters only a gitlink of the index that is checked out: none here (round 13).
      expect(at(plain.ws, "git status").action).toBe("allow");
    } finally {
      plain.cleanup();
    }
  });
});

describe("everyday reads stay allowed", () => {
  it.each([
    "cat package.json",
    "grep -rn foo src",
    "ls -la",
    "git status",
    "cat src/*.ts",
    "cd sub && ls",
    "cat src/env.ts",
    "git log --oneline -3",
  ])("%s", (command) => {
    const r = bash(command);
    expect(r.action, `${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
  });
  it("Read, Grep, Glob and LS in the workspace", () => {
    expect(judge("Read", { file_path: `${fx.ws}/package.json`, offset: 1, limit: 10 }).action).toBe("allow");
    expect(judge("Grep", { pattern: "foo", path: "src", type: "ts", "-i": true }).action).toBe("allow");
    expect(judge("Glob", { pattern: "**/*.ts" }).action).toBe("allow");
    expect(judge("LS", { path: fx.ws }).action).toBe("allow");
  });
});
