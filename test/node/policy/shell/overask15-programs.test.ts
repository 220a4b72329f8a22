// Over-ask, round 15: grammars for uptime, top, lsb_release, lsof, ss, netstat, comm, join, rev, cksum,
// expand/unexpand and iconv. The real programs are the oracle for what the grammars lean on: lsb_release
// runs the file LSB_OS_RELEASE names, rev opens `-` as a file (the others read standard input), lsof takes
// the word after `-i` as its address and every word after the first name as a name, and top reads the word
// after a bare `-w` as its width. (The disk judgements are test/node/companion/guards/overask15-programs.)
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { has, provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

provenCases("lsb_release sources the file LSB_OS_RELEASE names", [
  {
    name: "as a prefix",
    command: "LSB_OS_RELEASE=./x lsb_release -a",
    setup: { files: { x: "touch PWNED\n" } },
    needs: "lsb_release",
    proof: "PWNED",
  },
  {
    name: "exported first",
    command: "export LSB_OS_RELEASE=./x; lsb_release -i",
    setup: { files: { x: "touch PWNED\n" } },
    needs: "lsb_release",
    proof: "PWNED",
  },
]);

/** The effects the judge reports for a one-program command, as `access path`; null when not understood. */
function effects(command: string): string[] | null {
  const [unit] = analyzeShell(command).units.filter((u): u is ExecUnit => u.kind === "exec");
  if (unit === undefined || unit.notUnderstood !== undefined) return null;
  return (unit.effects?.paths ?? []).map(
    (e) => `${e.access} ${e.arg.value}${e.depth ? ` depth ${e.depth}` : ""}`,
  );
}

describe("what the programs open, and what the judge reports", () => {
  const secret = { files: { "-": "SECRET-DASH-15\n" }, stdin: "from stdin\n" };

  it.runIf(has("rev"))("rev opens `-` as a file, and the judge reports that read", () => {
    expect(runInBash("rev -", secret).stdout).toContain("51-HSAD-TERCES");
    expect(effects("rev -")).toEqual(["read -"]);
    expect(effects("rev -- -")).toEqual(["read -"]);
  });

  it.each(["expand -", "unexpand -", "cksum -", "iconv -f utf-8 -t utf-8 -"])(
    "%s reads standard input, not a file named `-`",
    (command) => {
      const program = command.split(" ")[0] as string;
      if (has(program)) expect(runInBash(command, secret).stdout).not.toContain("SECRET-DASH-15");
      expect(effects(command)).toEqual([]);
    },
  );

  it.runIf(has("lsof"))("lsof takes the word after -i as an address, never a file", () => {
    expect(runInBash("lsof -i README.md", { files: { "README.md": "x\n" } }).stderr).toContain(
      "unknown protocol name (README.md)",
    );
    expect(effects("lsof -i README.md")).toEqual([]);
    // After the first name, every word is a name (`-n` too), looked at with stat.
    expect(runInBash("lsof a -n", { files: { a: "x\n" } }).stderr).toContain("status error on -n");
    expect(effects("lsof a -n")).toEqual(["list a", "list -n"]);
    expect(effects("lsof +D src +d docs")).toEqual(["walk src", "walk docs depth 1"]);
    // A value that looks like an option: lsof refuses some and takes others, so none is understood.
    expect(runInBash("lsof -p -t").stderr).toContain("illegal process ID: -t");
    expect(effects("lsof -p -t")).toBeNull();
    expect(effects("lsof +D -D")).toBeNull();
  });

  it.runIf(has("top"))("top reads the word after a bare -w as its width, and refuses other operands", () => {
    expect(runInBash("top -bn1 -w x").stderr).toContain("bad width arg 'x'");
    expect(runInBash("top -bn1 extra").stderr).toContain("unknown option 'extra'");
    expect(effects("top -bn1 -w 120")).toEqual([]);
    expect(effects("top -bn1 -w x")).toBeNull();
    expect(effects("top -bn1 extra")).toBeNull();
  });

  it("iconv -o and ss -D write, ss -F reads, the rest only read their operands", () => {
    expect(effects("iconv -f latin1 -t utf-8 -o out.txt in.txt")).toEqual(["write out.txt", "read in.txt"]);
    expect(effects("ss -tn -D dump.bin -F filter.txt")).toEqual(["write dump.bin", "read filter.txt"]);
    expect(effects("comm -12 a b")).toEqual(["read a", "read b"]);
    expect(effects("join -o 1.1 a b")).toEqual(["read a", "read b"]);
    expect(effects("cksum -a sha256 a")).toEqual(["read a"]);
    expect(effects("ss -ltn sport = :3000")).toEqual([]);
  });
});
