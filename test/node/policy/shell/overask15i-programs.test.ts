// Over-ask, round 15 (second list, fix15i): the real programs are the oracle for what the new grammars and
// forms lean on — bash -n runs nothing, git clean deletes unless -n is in effect, git help runs the viewer
// the configuration names, perl -v never reads PERL5OPT while -V does, java -version loads the agents of
// JAVA_TOOL_OPTIONS, shellcheck -a prints a followed file's lines, unzip reads ARCHIVE.zip for ARCHIVE, node
// runs -r's preload before --help. (The disk judgements are test/node/companion/guards/overask15i-programs.)
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { has } from "./proven-case.ts";

afterAll(cleanBashRuns);

/** The first unit's effects as `access path`, or null when not understood. */
function effects(command: string): string[] | null {
  const [unit] = analyzeShell(command).units.filter((u): u is ExecUnit => u.kind === "exec");
  if (unit === undefined || unit.notUnderstood !== undefined) return null;
  return (unit.effects?.paths ?? []).map((e) => `${e.access} ${e.arg.value}`);
}

const PAYLOAD = { "x.sh": "touch PWNED\n" };

describe("what the programs do, and what the judge reports", () => {
  it("bash -n and sh -n parse the file and run nothing, not even BASH_ENV", () => {
    const env = { ...PAYLOAD, "e.sh": "touch ENV_RAN\n" };
    for (const shell of ["bash", "sh"]) {
      const run = runInBash(`BASH_ENV=./e.sh ${shell} -n x.sh`, { files: env });
      expect(run.exists("PWNED") || run.exists("ENV_RAN")).toBe(false);
    }
    expect(runInBash("bash x.sh", { files: PAYLOAD }).exists("PWNED")).toBe(true);
  });

  it.runIf(has("git"))("git clean deletes unless -n is in effect, so a negated -n is not understood", () => {
    const setup = "git init -q && git config clean.requireForce false && touch u && ";
    expect(runInBash(`${setup}git clean -n`).exists("u")).toBe(true);
    expect(runInBash(`${setup}git clean -n --no-dry-run`).exists("u")).toBe(false);
    expect(effects("git clean -n --no-dry-run")).toBeNull();
    expect(effects("git clean")).toBeNull();
    expect(effects("git clean -nd")).toContain("walk .");
    // -f (once or twice) only lifts clean.requireForce: with -n git still removes nothing (round 22).
    expect(runInBash("git init -q && mkdir d && touch u d/x && git clean -nffd").exists("u")).toBe(true);
    expect(runInBash("git init -q && mkdir d && touch u d/x && git clean -fdx -n").exists("d/x")).toBe(true);
    expect(effects("git clean -nf")).toContain("walk .");
    expect(effects("git clean -fdX -n")).toContain("walk .");
  });

  it.runIf(has("git"))("git help runs the viewer a configuration names, even with no terminal", () => {
    const run = runInBash(
      "git init -q && git config man.viewer x && git config man.x.cmd 'touch PWNED;:' && git help log",
    );
    expect(run.exists("PWNED")).toBe(true);
    // Its everyday form is man on the page, judged as that unit (a page name with a slash is a file to man).
    const units = analyzeShell("git help log").units.filter((u): u is ExecUnit => u.kind === "exec");
    expect(units.map((u) => u.text)).toContain("man git-log");
    const inner = analyzeShell("git help ../x").units.filter((u): u is ExecUnit => u.kind === "exec");
    expect(inner.find((u) => u.program === "man")?.notUnderstood).toBeDefined();
  });

  it.runIf(has("perl"))("perl -v never reads PERL5OPT; -V loads its modules", () => {
    const env = { env: { PERL5OPT: "-MNoSuchModule15i" } };
    expect(runInBash("perl -v", env).status).toBe(0);
    expect(runInBash("perl -V:version", env).stderr).toContain("NoSuchModule15i");
    expect(effects("perl -v")).toEqual([]);
    expect(effects("perl -V")).toBeNull();
  });

  it.runIf(has("java"))("java -version loads the agents JAVA_TOOL_OPTIONS and JDK_JAVA_OPTIONS name", () => {
    for (const name of ["JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"]) {
      const run = runInBash("java -version", { env: { [name]: "-javaagent:missing-agent.jar" } });
      expect(run.stderr).toContain("missing-agent.jar");
    }
    expect(effects("java -version")).toEqual([]);
  });

  it.runIf(has("shellcheck"))("shellcheck -a prints the lines of a file a script sources", () => {
    const files = {
      ".shellcheckrc": "external-sources=true\n",
      "s.sh": "#!/bin/sh\n. ./secret.env\n",
      "secret.env": "TOKEN=$leakedvalue15i\n",
    };
    expect(runInBash("shellcheck -a s.sh", { files }).stdout).toContain("leakedvalue15i");
    expect(runInBash("shellcheck s.sh", { files }).stdout).not.toContain("leakedvalue15i");
    expect(effects("shellcheck -a s.sh")).toBeNull();
    expect(effects("shellcheck s.sh")).toEqual(["read s.sh"]);
    expect(effects("shellcheck -x s.sh")).toContain("read null");
  });

  it.runIf(has("unzip") && has("zip"))("unzip ARCHIVE reads ARCHIVE.zip when there is no ARCHIVE", () => {
    expect(runInBash("echo s > member15i && zip -q x.zip member15i && unzip -l x").stdout).toContain(
      "member15i",
    );
    expect(effects("unzip -l x")).toEqual(["read x", "read x.zip", "read x.ZIP"]);
    expect(effects("unzip x.zip")).toBeNull();
  });

  it.runIf(has("node"))(
    "node runs a -r preload before it prints --help, and nothing with --help alone",
    () => {
      const files = { "p.js": "require('fs').writeFileSync('PWNED', '')\n" };
      expect(runInBash("node -r ./p.js --help", { files }).exists("PWNED")).toBe(true);
      expect(runInBash("node --test --help", { files }).exists("PWNED")).toBe(false);
      expect(effects("node --test --help")).toEqual([]);
    },
  );

  it.runIf(has("gzip"))("zcat and gunzip are scripts that run gzip, judged as a unit of its own", () => {
    const units = analyzeShell("zcat a.gz").units.filter((u): u is ExecUnit => u.kind === "exec");
    expect(units.map((u) => u.program)).toEqual(["zcat", "gzip"]);
    expect(effects("zcat a.gz")).toEqual(["read a.gz"]);
    expect(effects("gzip a.txt")).toBeNull();
  });
});
