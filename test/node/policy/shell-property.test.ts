// Property: joining a denied command to allowed ones with any shell construct never yields allow.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALLOWLIST, bash, compile, user } from "./helpers.ts";

const policy = compile(user(ALLOWLIST));

const allowed = fc.constantFrom(
  "ls",
  "ls -la",
  "git status",
  "echo hi",
  "cat README.md",
  "grep x README.md",
  "true",
);
const denied = fc.constantFrom("rm -rf /", "rm x", "/bin/rm -f y", "\\rm z", "r''m -r d", '"rm" q');

type Wrap = (inner: string) => string;
const wrappers: Wrap[] = [
  (c) => c,
  (c) => `(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `echo $(${c})`,
  // Inside backticks, \ and ` must be escaped to nest (unescaped nesting closes the first pair).
  (c) => `echo \`${c.replace(/[\\`$]/g, "\\$&")}\``,
  (c) => `cat <(${c})`,
  (c) => `bash -c '${c.replace(/'/g, "'\\''")}'`,
  (c) => `sh -c "${c.replace(/["\\$`]/g, "\\$&")}"`,
  (c) => `eval '${c.replace(/'/g, "'\\''")}'`,
  (c) => `if true; then ${c}; fi`,
  (c) => `for i in 1; do ${c}; done`,
  (c) => `while false; do ${c}; done`,
  (c) => `case a in a) ${c};; esac`,
  (c) => `sudo ${c}`,
  (c) => `env A=1 ${c}`,
  (c) => `nohup ${c}`,
  (c) => `timeout 5 ${c}`,
  (c) => `nice -n 5 ${c}`,
  (c) => `time ${c}`,
  (c) => `command ${c}`,
  (c) => `bash <<'EOF'\n${c}\nEOF`,
  (c) => `f() { ${c}; }; f`,
];
const joiners = [" && ", " || ", "; ", " | ", " & ", "\n"];

const wrap = fc.constantFrom(...wrappers);
const join = fc.constantFrom(...joiners);

describe("shell composition never launders a denied command", () => {
  it("allowed… ⊕ wrap(denied) ⊕ allowed… is never allow", () => {
    fc.assert(
      fc.property(
        fc.array(allowed, { maxLength: 3 }),
        denied,
        fc.array(allowed, { maxLength: 3 }),
        fc.array(wrap, { minLength: 1, maxLength: 3 }),
        fc.array(join, { minLength: 6, maxLength: 6 }),
        (before, bad, after, wraps, joins) => {
          const inner = wraps.reduce<string>((c, w) => w(c), bad);
          const parts: string[] = [...before, inner, ...after];
          const command = parts.reduce(
            (acc, p, i) => (i === 0 ? p : `${acc}${joins[i % joins.length]}${p}`),
            "",
          );
          const r = bash(policy, command);
          expect(r.action, command).not.toBe("allow");
        },
      ),
      { numRuns: 400 },
    );
  });

  it("joining only allowed commands with plain operators stays allowed (the property is not vacuous)", () => {
    fc.assert(
      fc.property(fc.array(allowed, { minLength: 1, maxLength: 4 }), join, (parts, j) => {
        expect(bash(policy, parts.join(j)).action).toBe("allow");
      }),
      { numRuns: 100 },
    );
  });

  it("arbitrary text never crashes the analyser and never allows a string containing a denied call", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), denied, (noise, bad) => {
        const r = bash(policy, `${noise}\n${bad}`);
        expect(r.action).not.toBe("allow");
      }),
      { numRuns: 300 },
    );
  });
});
