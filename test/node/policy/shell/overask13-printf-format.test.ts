// Over-ask, round 13: `fmt='%s\n'; printf "$fmt" x` asked. Two things stood in the way: an opening
// assignment bound only plain words (a whole single-quoted string is as literal, and `"$fmt"` is it, not
// split or globbed), and the names every statement may set were read before the bindings, so `printf "$fmt"`
// counted as one that may be `printf -vNAME`. They are now read with the held bindings in place, again
// until none is dropped. Attacks first.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const ls = { files: { ls: "#!/bin/sh\n/usr/bin/touch PWNED\n#!x" } };

provenCases("a format that is an option (written first)", [
  { name: "-v sets PATH", command: 'fmt=-vPATH; printf "$fmt" .; ls', setup: ls, proof: "PWNED" },
  {
    name: "-v sets a bound name",
    command: 'x=README.md; fmt=-vx; printf "$fmt" ~/k; cat "$x"',
    setup: { files: { "~/k": "SECRET-K\n" } },
    proof: (run) => run.stdout.includes("SECRET-K"),
  },
  {
    name: "a name read later is no literal",
    command: 'b=x; fmt=%s; read b; printf "$b" .; printf "$fmt" ls; ls',
    setup: { ...ls, stdin: "-vPATH\n" },
    proof: "PWNED",
  },
  { name: "unquoted, bash splits it", command: "fmt='-vPATH .'; printf $fmt; ls", setup: ls, proof: "PWNED" },
  { name: "double quotes expand", command: 'fmt="$(touch PWNED)"; printf "$fmt" x', proof: "PWNED" },
  { name: "a tilde in a plain assignment", command: 'f=a:~/k; printf "$f"' },
]);

describe("a format assigned earlier as a literal", () => {
  it.each([
    ["fmt='%s\\n'; printf \"$fmt\" x", "x\n"],
    ['fmt=%s-; printf "$fmt" a b', "a-b-"],
    ["fmt='%5s|%-3d|\\n'; printf \"$fmt\" ab 7", "   ab|7  |\n"],
    ["sep=' | '; printf '%s' \"$sep\"", " | "],
  ])("allows %s, printing what the literal format prints", (command, printed) => {
    const r = judge(BALANCED, command);
    expect(r.action, r.reasons.join("\n")).toBe("allow");
    expect(runInBash(command).stdout).toBe(printed);
  });

  it("any single-quoted format without an option or a quote in it: allowed, and printf prints as with the literal", () => {
    const format = fc
      .array(fc.constantFrom("%s", "%d", "%5s", "\\n", "\\t", "a", " ", "|", ":", "%%", "-", "x y"), {
        minLength: 1,
        maxLength: 6,
      })
      .map((parts) => parts.join(""))
      .filter((f) => !f.startsWith("-"));
    fc.assert(
      fc.property(format, (f) => {
        const command = `fmt='${f}'; printf "$fmt" 1 2`;
        const r = judge(BALANCED, command);
        expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
        expect(runInBash(command).stdout).toBe(runInBash(`printf '${f}' 1 2`).stdout);
      }),
      { numRuns: 25 },
    );
  });
});
