// Class: text mvdan/sh and bash read differently, and words bash evaluates again as code. Each
// case runs in real bash (its payload appears) and is never allowed by the engine.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import { cleanBashRuns } from "./bash-proof.ts";
import { judge, READ_ONLY } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const P = "touch PWNED";

provenCases("the parser and bash read the text differently", [
  { name: "a comment ending in a backslash", command: `git status # \\\n${P}`, proof: "PWNED" },
  {
    name: "a comment ending in a backslash, after a read-only command",
    command: `ls # see below \\\n${P}`,
    proof: "PWNED",
  },
  { name: "backslash + CRLF", command: `ls \\\r\n${P}`, proof: "PWNED" },
  { name: "a bare CR before a command", command: `echo hi\r\n${P}`, proof: "PWNED" },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    name: "single quotes inside a double-quoted ${x:-…}",
    command: `echo "\${x:-'$(${P})'}"`,
    proof: "PWNED",
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    name: "single quotes inside a double-quoted ${x:+…}",
    command: `x=1; echo "\${x:+'$(${P})'}"`,
    proof: "PWNED",
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    name: "single quotes inside ${x:-…} in an unquoted here-document",
    command: `cat <<EOF\n\${x:-'$(${P})'}\nEOF`,
    proof: "PWNED",
  },
  // bash removes a backslash-newline before it reads words, quotes and here-document lines; mvdan/sh
  // keeps it in a double-quoted string and a here-document's body (red team, round 8).
  { name: "$ backslash-newline ( in double quotes", command: `echo "$\\\n(${P})"`, proof: "PWNED" },
  { name: "$ backslash-newline ( in a here-string", command: `cat <<< "$\\\n(${P})"`, proof: "PWNED" },
  {
    name: "$ backslash-newline ( in a here-document",
    command: `cat <<EOF\n$\\\n(${P})\nEOF`,
    proof: "PWNED",
  },
  {
    name: "a here-document's delimiter split by a backslash-newline",
    command: `cat <<EOF\nEO\\\nF\n${P}\nEOF`,
    proof: "PWNED",
  },
  {
    name: "a backslash line joined with the delimiter",
    command: `cat <<EOF\n\\\nEOF\n${P}\nEOF`,
    proof: "PWNED",
  },
  {
    name: "a blank then backslash-newline in a here-document, then a second one",
    command: `cat <<EOF\nfoo \\\nEOF\ncat <<Z\nEOF\n${P}\nZ`,
    proof: "PWNED",
  },
  { name: "$ backslash-newline '…' (ANSI-C quoting)", command: `$\\\n'\\x74ouch' PWNED`, proof: "PWNED" },
  { name: "a no-break space is part of a word to bash", command: `ls\u00a0-la; ${P}`, proof: "PWNED" },
  {
    name: "a right-to-left override hides text from the person",
    command: `echo '\u202e'; ${P}`,
    proof: "PWNED",
  },
  {
    name: "history expansion rewrites a later line",
    command: `set -o history -H\necho touch PWNED\n!!:s/echo //`,
    proof: "PWNED",
  },
  {
    name: "aliases change what a later line runs",
    command: `shopt -s expand_aliases\nalias ls='${P}'\nls`,
    proof: "PWNED",
  },
]);

provenCases("words bash evaluates again as code", [
  { name: "[[ -v ]] with a subscript", command: `[[ -v 'a[$(${P})]' ]]`, proof: "PWNED" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  { name: "${a[...]} with a quoted subscript", command: `echo \${a['$(${P})']}`, proof: "PWNED" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  { name: "${x@P} prompt expansion", command: `x='$(${P})'; echo \${x@P}`, proof: "PWNED" },
  { name: "$((x)) with a subscript in x", command: `x='a[$(${P})]'; echo $((x))`, proof: "PWNED" },
  { name: "$[x] (old arithmetic)", command: `x='a[$(${P})]'; echo $[x]`, proof: "PWNED" },
  { name: "(( x ))", command: `x='a[$(${P})]'; (( x ))`, proof: "PWNED" },
  { name: "an indexed assignment a[x]=1", command: `x='a[$(${P})]'; a[x]=1`, proof: "PWNED" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  { name: "${!x} indirect expansion", command: `x='a[$(${P})]'; echo \${!x}`, proof: "PWNED" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  { name: "${y:x} slice offset", command: `y=abc; x='a[$(${P})]'; echo \${y:x}`, proof: "PWNED" },
  { name: "[[ $x -eq 1 ]] arithmetic test", command: `x='a[$(${P})]'; [[ $x -eq 1 ]]`, proof: "PWNED" },
  { name: "declare with a subscript", command: `declare 'a[$(${P})]=1'`, proof: "PWNED" },
  {
    name: "declare -i makes later assignments arithmetic",
    command: `x='a[$(${P})]'; declare -i y; y=x`,
    proof: "PWNED",
  },
  { name: "printf -v with a subscript", command: `printf -v 'a[$(${P})]' x`, proof: "PWNED" },
  { name: "read with a subscript", command: `read 'a[$(${P})]' <<< x`, proof: "PWNED" },
  { name: "let", command: `let 'x=a[$(${P})]'`, proof: "PWNED" },
  { name: "test -v with a subscript", command: `x='a[$(${P})]'; test -v "$x"`, proof: "PWNED" },
  { name: "[ -v ] with a subscript", command: `[ -v 'a[$(${P})]' ]`, proof: "PWNED" },
  { name: "unset with a subscript", command: `a=(1 2); unset 'a[$(${P})]'`, proof: "PWNED" },
  { name: "mapfile -C runs its callback", command: `mapfile -C '${P} #' -c 1 <<< x`, proof: "PWNED" },
  { name: "for ((…)) with a name", command: `x='a[$(${P})]'; for ((i=x; 0; )); do :; done`, proof: "PWNED" },
  {
    name: "$(( $(cmd) )): the output is an expression",
    command: "echo $(( $(cat n) + 1 ))",
    setup: { files: { n: `a[$(${P})]\n` } },
    proof: "PWNED",
  },
  {
    name: "$(( $(cmd) )) naming a variable",
    command: `y='a[$(${P})]'; echo $(( \`echo y\` ))`,
    proof: "PWNED",
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    name: "${s:$(cmd)} slice from a command's output",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    command: "s=abc; echo ${s:$(cat n)}",
    setup: { files: { n: `a[$(${P})]\n` } },
    proof: "PWNED",
  },
  { name: "a[$(cmd)]=1", command: "a[$(cat n)]=1", setup: { files: { n: `b[$(${P})]\n` } }, proof: "PWNED" },
]);

describe("what is not over-blocked", () => {
  it("`[` is the test builtin, not a glob: `[ -d src ] && ls src` is allowed", () => {
    expect(judge(READ_ONLY, "[ -d src ] && ls src").action).toBe("allow");
    expect(judge(READ_ONLY, "[[ -f README.md ]] && cat README.md").action).toBe("allow");
  });
  it("plain-name tests and numeric arithmetic are judged and allowed", () => {
    expect(judge(READ_ONLY, "[[ -v HOME ]] && echo set").action).toBe("allow");
    expect(judge(READ_ONLY, "echo $((1 + 2))").action).toBe("allow");
    expect(judge(READ_ONLY, "(( 3 > 2 )) && echo yes").action).toBe("allow");
    expect(judge(READ_ONLY, "[[ 1 -eq 1 ]]").action).toBe("allow");
  });
  it("[[ ]], (( )) and let are units of their own, judged by the rules", () => {
    const kinds = analyzeShell("[[ -f x ]] && (( 1 )) && let 2").units.map((u) =>
      u.kind === "exec" ? u.argv[0] : u.kind,
    );
    expect(kinds).toEqual(["[[", "((", "let"]);
  });
  it("a continuation after a blank, outside here-documents, is fine: `git log \\<nl>  --stat`", () => {
    expect(judge(READ_ONLY, "git log \\\n  --stat").action).toBe("allow");
    expect(judge(READ_ONLY, "ls -la \\\n\tsrc \\\n  docs").action).toBe("allow");
  });
  it("property: a backslash-newline inside a word, a string or after a here-document is never allowed", () => {
    const word = fc.stringMatching(/^[a-z$"'(]{1,6}$/);
    fc.assert(
      fc.property(word, word, fc.constantFrom("", "cat <<EOF\n", 'echo "'), (a, b, lead) => {
        const command = `${lead}echo ${a}\\\n${b}`;
        expect(judge(READ_ONLY, command).action).not.toBe("allow");
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(word, (a) => {
        expect(judge(READ_ONLY, `cat <<EOF\n${a} \\\nEOF\nEOF`).action).not.toBe("allow");
      }),
      { numRuns: 50 },
    );
  });
  it("a comment without a trailing backslash is fine", () => {
    expect(judge(READ_ONLY, "ls # list the files\ncat README.md").action).toBe("allow");
  });
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  it("single quotes inside an unquoted ${x:-…} are quotes to both, and fine", () => {
    // Assigned: `echo` of it unquoted would glob the value again (unquoted-globs.test.ts).
    expect(judge(READ_ONLY, `x=; y=\${x:-'$(rm -rf ~)'}; echo "$y"`).action).toBe("allow");
  });
});
