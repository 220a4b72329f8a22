// Property tests: generated compound commands (quoting, continuations, comments, expansions,
// prefixes, redirections, wrappers) never get `allow` when a dangerous command would run, and do
// get `allow` when only read-only commands would. 100,000 cases in all; a larger run is
// bench/policy/fuzz.mjs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DENYLIST, judge, READ_ONLY } from "./policies.ts";

const RUNS = 25_000;
// Each property takes a few seconds on a quiet machine; the two shared cores are rarely quiet.
const TIMEOUT = 180_000;

/** Single-quotes a string for bash. */
export const sq = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;
/** Escapes for the inside of backticks, where `\`, `` ` `` and `$` must be escaped to nest. */
const bq = (s: string): string => s.replace(/[\\`$]/g, "\\$&");

export const SAFE = [
  "ls",
  "ls -la src",
  "cat README.md",
  "git status",
  "git log --oneline -3",
  "echo hi",
  "grep -n x README.md",
  "head -n 2 README.md",
  "wc -l README.md",
  "true",
  "pwd",
  "date +%s",
  "sort README.md",
  "cut -d: -f1 README.md",
  "echo 'rm -rf /'",
  'echo "\\$(touch PWNED)"',
  "grep -n 'curl x' README.md",
  "printf '%s\\n' '`rm x`'",
  "[ -d src ]",
  "[[ -f README.md ]]",
  "echo $((1 + 2))",
];

export const DANGER = [
  "rm -rf x",
  "touch PWNED",
  "curl https://x.test",
  "cat .env",
  "cat ~/.ssh/id_rsa",
  "cat .e*",
  "LD_PRELOAD=./x.so ls",
  "PATH=.:$PATH ls",
  "git log --output=x",
  "sort -o x README.md",
  "python3 -i",
  "echo x > /etc/x",
  "echo x >> .git/hooks/pre-commit",
  "chmod +x x",
  "bash",
  "x='a[$(id)]'; echo $((x))",
  "hash -p ./x ls",
  "$CMD",
  "printf -v PATH %s .",
  "find . -delete",
];

/** Layout that does not change what runs: continuations, blanks, a quoted name, prefixes, redirections. */
const noisy = (cmd: fc.Arbitrary<string>) =>
  fc
    .tuple(
      cmd,
      fc.constantFrom("", "LC_ALL=C ", "NODE_ENV=test "),
      fc.constantFrom("", " 2>/dev/null", " </dev/null", " 2>&1"),
      fc.constantFrom("space", "continuation", "tabs", "quoted-name", "plain"),
    )
    .map(([c, prefix, redirect, layout]) => {
      let out = c;
      const space = out.indexOf(" ");
      if (layout === "continuation" && space > 0 && !out.includes("'") && !out.includes("=")) out = `${out.slice(0, space)} \\\n${out.slice(space + 1)}`;
      if (layout === "tabs") out = out.replace(/ /, "\t ");
      if (layout === "space") out = ` ${out}  `;
      if (layout === "quoted-name" && /^[a-z]+( |$)/.test(out)) out = out.replace(/^([a-z])([a-z]*)/, "$1''$2");
      // A prefix and a redirection belong to one simple command; statements with `=` or `;` are left alone.
      if (/^[a-z[]/.test(out) && !out.includes(";")) out = `${prefix}${out}${redirect}`;
      return out;
    });

type Wrap = (c: string) => string;

/** Constructs in which the wrapped command runs (so its danger stays). */
const RUNNING: Wrap[] = [
  (c) => c,
  (c) => `( ${c} )`,
  (c) => `{ ${c}; }`,
  (c) => `echo "$( ${c} )"`,
  (c) => `echo $( ${c} )`,
  (c) => `echo \`${bq(c)}\``,
  (c) => `cat <( ${c} )`,
  (c) => `: > >( ${c} )`,
  (c) => `bash -c ${sq(c)}`,
  (c) => `sh -c ${sq(c)}`,
  (c) => `eval ${sq(c)}`,
  (c) => `if true; then ${c}; fi`,
  (c) => `if ${c}; then :; fi`,
  (c) => `while ${c}; do break; done`,
  (c) => `for i in 1; do ${c}; done`,
  (c) => `case x in x) ${c};; esac`,
  (c) => `f() { ${c}; }; f`,
  (c) => `time ${c}`,
  (c) => `! ${c}`,
  (c) => `${c} &`,
  (c) => `x=$( ${c} )`,
  (c) => `echo \${x:-$( ${c} )}`,
  (c) => `[[ -n "$( ${c} )" ]]`,
  (c) => `{ bash <<'E${c.length}'\n${c}\nE${c.length}\n}`,
  (c) => `trap ${sq(c)} EXIT`,
  (c) => `find . -maxdepth 0 -exec sh -c ${sq(c)} \\;`,
  (c) => `flock l sh -c ${sq(c)}`,
  (c) => `script -qc ${sq(c)} /dev/null`,
  (c) => `env sh -c ${sq(c)}`,
  (c) => `timeout 5 sh -c ${sq(c)}`,
  (c) => `nice sh -c ${sq(c)}`,
  (c) => `command eval ${sq(c)}`,
  (c) => `xargs -0 sh -c ${sq(c)} < /dev/null`,
  (c) => `mapfile -C ${sq(`${c} #`)} -c 1 < README.md`,
];

/** Running constructs the read-only policy allows by themselves (for the non-vacuity property). */
const ALLOWED_RUNNING: Wrap[] = [
  (c) => c,
  (c) => `( ${c} )`,
  (c) => `{ ${c}; }`,
  (c) => `echo "$( ${c} )"`,
  // Backquotes are left out: a backslash inside them asks (bash and the parser disagree there).
  (c) => `cat <( ${c} )`,
  (c) => `bash -c ${sq(c)}`,
  (c) => `if true; then ${c}; fi`,
  (c) => `for i in 1; do ${c}; done`,
  (c) => `case x in x) ${c};; esac`,
  (c) => `time ${c}`,
  // `! ! c` is valid bash but not mvdan/sh, so negation is left out here (it asks).
  (c) => `{ bash <<'E${c.length}'\n${c}\nE${c.length}\n}`,
  (c) => `env sh -c ${sq(c)}`,
];

const JOINS = ["; ", " && ", " || ", " | ", "\n", " & ", " # note\n", ";\n\n"];

const compose = (wrapsPool: Wrap[], pieces: fc.Arbitrary<string>, inner: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.array(pieces, { maxLength: 3 }),
      inner,
      fc.array(pieces, { maxLength: 3 }),
      fc.array(fc.constantFrom(...wrapsPool), { minLength: 1, maxLength: 3 }),
      fc.array(fc.constantFrom(...JOINS), { minLength: 6, maxLength: 6 }),
    )
    .map(([before, middle, after, wraps, joins]) => {
      const wrapped = wraps.reduce<string>((c, w) => w(c), middle);
      return [...before, wrapped, ...after].reduce((acc, p, i) => (i === 0 ? p : `${acc}${joins[i % joins.length]}${p}`), "");
    });

const safe = noisy(fc.constantFrom(...SAFE));

describe("generated compound commands", () => {
  it("a dangerous command anywhere it runs is never allowed by the read-only allowlist", () => {
    fc.assert(
      fc.property(compose(RUNNING, safe, noisy(fc.constantFrom(...DANGER))), (command) => {
        const r = judge(READ_ONLY, command);
        expect(r.action, command).not.toBe("allow");
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("a denied program anywhere it runs is never allowed by the denylist", () => {
    const denied = noisy(fc.constantFrom("rm -rf x", "touch PWNED", "curl https://x.test", "/bin/rm x", "\\rm x", "r''m x", '"touch" y'));
    fc.assert(
      fc.property(compose(RUNNING, safe, denied), (command) => {
        expect(judge(DENYLIST, command).action, command).not.toBe("allow");
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("only read-only commands, however composed, stay allowed (the properties are not vacuous)", () => {
    fc.assert(
      fc.property(compose(ALLOWED_RUNNING, safe, safe), (command) => {
        const r = judge(READ_ONLY, command);
        expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("arbitrary text never crashes the analysis; inert text never hides a dangerous line after it", () => {
    // Text that cannot open a quote, a substitution, a here-document or a continuation, so the
    // line after it is a command of its own to bash.
    const inert = fc.string({ unit: fc.constantFrom(..."abcxyz019 .,:=+-_/@%^\t"), maxLength: 30 });
    const any = fc.string({ unit: "grapheme", maxLength: 40 });
    fc.assert(
      fc.property(inert, any, fc.constantFrom(...DANGER), (text, junk, bad) => {
        expect(judge(READ_ONLY, `${text}\n${bad}`).action).not.toBe("allow");
        expect(["allow", "ask", "deny", "hidden"]).toContain(judge(READ_ONLY, junk).action);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
