// Generators of compound bash commands for the property tests and the bash-oracle fuzz: safe
// read-only commands, dangerous ones, constructs that run what they wrap, and layout noise
// (continuations, blanks, quoting, prefixes, redirections, comments) that changes nothing.
import fc from "fast-check";

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
export const noisy = (cmd: fc.Arbitrary<string>) =>
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
      if (layout === "continuation" && space > 0 && !out.includes("'") && !out.includes("="))
        out = `${out.slice(0, space)} \\\n${out.slice(space + 1)}`;
      if (layout === "tabs") out = out.replace(/ /, "\t ");
      if (layout === "space") out = ` ${out}  `;
      if (layout === "quoted-name" && /^[a-z]+( |$)/.test(out))
        out = out.replace(/^([a-z])([a-z]*)/, "$1''$2");
      // A prefix and a redirection belong to one simple command; statements with `=` or `;` are left alone.
      if (/^[a-z[]/.test(out) && !out.includes(";")) out = `${prefix}${out}${redirect}`;
      return out;
    });

export type Wrap = (c: string) => string;

/** Constructs in which the wrapped command runs (so its danger stays). */
export const RUNNING: Wrap[] = [
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
export const ALLOWED_RUNNING: Wrap[] = [
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
  // bash, not sh: a script for sh is allowed only when dash reads it as bash does (dialect.ts), and the
  // other wraps here put bash-only syntax inside (`time`, `<( )`).
  (c) => `env bash -c ${sq(c)}`,
];

export const JOINS = ["; ", " && ", " || ", " | ", "\n", " & ", " # note\n", ";\n\n"];

export const compose = (wrapsPool: Wrap[], pieces: fc.Arbitrary<string>, inner: fc.Arbitrary<string>) =>
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
      return [...before, wrapped, ...after].reduce(
        (acc, p, i) => (i === 0 ? p : `${acc}${joins[i % joins.length]}${p}`),
        "",
      );
    });

export const safe = noisy(fc.constantFrom(...SAFE));

/**
 * Layout where mvdan/sh and bash have disagreed, or where text only looks like code: the engine
 * must either see what bash runs or refuse to allow (the bash-oracle fuzz).
 */
export const TRICKY: Wrap[] = [
  (c) => `git status # note \\\n${c}`,
  (c) => `ls \\\r\n${c}`,
  (c) => `echo hi\r\n${c}`,
  (c) => `echo "\${x:-'$( ${c} )'}"`,
  (c) => `echo \${x:-'$( ${c} )'}`,
  (c) => `ls\u00a0-la; ${c}`,
  (c) => `: <<'X'\n${c}\nX`,
  (c) => `cat <<X\n$( ${c} )\nX`,
  (c) => `x=${sq(c)}; eval "$x"`,
  (c) => `printf -v y %s ${sq(c)}; eval "$y"`,
  (c) => `bash -c "$(printf %s ${sq(c)})"`,
  (c) => `echo '${c.replace(/'/g, "")}'`,
  (c) => `# ${c.replace(/\n/g, " ")}\nls`,
  (c) => `echo \\\n${c}`,
  (c) => `echo $'\\x27'; ${c}`,
  (c) => `case "${c.replace(/"/g, "")}" in *) ls;; esac`,
  (c) => `${c} # trailing \\`,
  (c) => `f() {\n${c}\n}`,
  (c) => `[[ -n "$( ${c} )" ]] && ls`,
];
