// Issue 20, over-asks: `bash --version`/`sh --version` asked ("the shell runs a program read from standard
// input"), and reads of /etc/hosts, /usr/include/stdio.h, /usr/lib/python3.11/os.py asked. A shell given
// only --version or --help runs no program (proven in real bash and dash below); the starter profiles'
// positive lists of system files name those files (never /etc/shadow). Attacks first.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "../../policy/shell/bash-proof.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { judgeOnDisk, KEY } from "./disk-fixture.ts";

const STARTER = BALANCED;
const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa12s-")));
const ws = join(base, "ws");
mkdirSync(ws);
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  cleanBashRuns();
});

const judge = (tool: string, input: Record<string, unknown>, hasUI = true) =>
  judgeOnDisk(STARTER, { tool, input, cwd: ws, home: join(base, "home") }, { hasUI });
function notAllowed(tool: string, input: Record<string, unknown>): void {
  const r = judge(tool, input);
  expect(r.action, `${JSON.stringify(input)}\n${r.reasons.join("\n")}`).not.toBe("allow");
  expect(judge(tool, input, false).action, JSON.stringify(input)).toBe("deny");
}
const bash = (command: string) => ({ command });

describe("a shell asked for its version: the attacks (written first)", () => {
  it.each([
    "bash",
    "sh",
    "bash --version x.sh",
    "bash -l --version",
    "bash --version -c 'touch PWNED'",
    "bash --rcfile x --version",
    "bash --versio",
    "bash --version --norc",
    "zsh --version",
    "BASH_ENV=x.sh bash --version",
    "bash --version; bash",
    "bash < x.sh",
  ])("never allows %s", (command) => notAllowed("bash", bash(command)));

  it("bash and dash print or refuse, and run nothing read from standard input", () => {
    for (const shell of ["bash", "sh", "dash"])
      for (const option of ["--version", "--help"]) {
        const run = runInBash(`${shell} ${option}`, { stdin: "touch PWNED\n" });
        expect(run.exists("PWNED"), `${shell} ${option}`).toBe(false);
      }
    // Not vacuous: the same shell without the option runs what standard input holds.
    expect(runInBash("bash", { stdin: "touch PWNED\n" }).exists("PWNED")).toBe(true);
  });
});

describe("system files: the attacks (written first)", () => {
  it.each([
    "cat /etc/shadow",
    "cat /etc/gshadow",
    "cat /etc/sudoers",
    "cat /etc/ssh/ssh_host_ed25519_key",
    "cat /etc/hosts /etc/shadow",
    "cat /etc/host*",
    "cat /etc/hosts/../shadow",
    "grep -r x /usr/include",
    "cat /usr/include/*.h",
    "cat /usr/lib/python3.11/../../../etc/shadow",
    "cat /usr/lib/python3x/a.py",
    "cat /usr/share/docs/x",
    "cat /usr/share/doc/../../../etc/shadow",
    "cat /proc/self/environ",
  ])("never allows %s", (command) => notAllowed("bash", bash(command)));

  it.each(["/etc/shadow", "/usr/lib/python3/../../../etc/shadow", "/etc/ssl/private/k.pem"])(
    "never allows Read of %s",
    (file_path) => notAllowed("Read", { file_path }),
  );
});

describe("everyday", () => {
  it.each([
    "bash --version",
    "sh --version",
    "bash --help",
    "cat /etc/hosts",
    "cat /etc/hostname",
    "head /etc/shells",
  ])("allows %s", (command) => {
    const r = judge("bash", bash(command));
    expect(r.action, `${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
  });

  it.each([
    "/etc/hosts",
    "/etc/resolv.conf",
    "/usr/include/stdio.h",
    "/usr/lib/python3.11/os.py",
    "/usr/share/doc/git/README.md",
  ])("allows Read of %s", (file_path) => {
    const r = judge("Read", { file_path });
    expect(r.action, `${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
  });
});

describe("templates of secret files (round 12: `cat config/secrets.example.yml` was denied)", () => {
  it("never allows the secret itself, another of its family, or a template holding a key (written first)", () => {
    mkdirSync(join(ws, "config"), { recursive: true });
    writeFileSync(join(ws, "config", "secrets.yml"), "password: x\n");
    writeFileSync(join(ws, "config", "key.example.yml"), `${KEY}`);
    for (const c of [
      "cat config/secrets.yml",
      "cat config/secrets.example.yml.bak",
      "cat .env.local",
      "cat config/key.example.yml",
    ])
      notAllowed("bash", bash(c));
  });

  it("allows a template by name, as .env.example is", () => {
    writeFileSync(join(ws, "config", "secrets.example.yml"), "password: CHANGE_ME\n");
    for (const c of [
      "cat config/secrets.example.yml",
      "cat config/secrets.yml.example",
      "head app.env.dist",
    ]) {
      const r = judge("bash", bash(c));
      expect(r.action, `${c}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });
});
