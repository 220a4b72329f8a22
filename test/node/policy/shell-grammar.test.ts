// Tests generated from every program grammar (src/policy/shell/grammar/programs): each option in
// each spelling is understood and its value lands as the effect its kind says; each long option
// is understood by a unique prefix where the program abbreviates (getopt_long) and refused where
// it does not; `--flag=value`, unknown options, missing values and values outside the choices are
// not understood; and each operand kind becomes its effect.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROGRAM_GRAMMARS } from "../../../src/policy/shell/grammar/index.ts";
import { defaultEffects, parseWords, understand } from "../../../src/policy/shell/grammar/parse.ts";
import { CONFIG_READ_OPTIONS } from "../../../src/policy/shell/grammar/programs/git-options.ts";
import type { OptionSpec, ProgramGrammar, WordKind } from "../../../src/policy/shell/grammar/spec.ts";
import type { Arg } from "../../../src/policy/shell/wrappers.ts";

const arg = (value: string): Arg => ({ value, raw: value, glob: false, tilde: false });
const argv = (...words: string[]): Arg[] => words.map(arg);

/** Options whose use the program's own step refuses (they run programs, set the clock, write everywhere). */
const REFUSING_MODES = new Set([
  "runs",
  "set",
  "script-file",
  "program-file",
  "filter-file",
  "rerun",
  "base",
  "no-preserve-root",
  "info-files",
  "sysroot",
  "empties",
  "clock",
]);
const PATH_KINDS = new Set<WordKind>(["read", "write", "exec", "list", "walk"]);

/** Operands that make a command complete for its program (a pattern, a program, a subcommand). */
function operandsFor(g: ProgramGrammar): string[] {
  const name = g.names[0] as string;
  const byName: Record<string, string[]> = {
    grep: ["needle", "f.txt"],
    rg: ["needle", "f.txt"],
    fd: ["needle", "src"],
    sed: ["p", "f.txt"],
    awk: ["{print}", "f.txt"],
    jq: [".", "f.json"],
    date: ["+%s"],
    tr: ["a", "b"],
    echo: ["hi"],
    printf: ["%s", "x"],
    env: [],
    // -g is understood only with a listing (ls, root, prefix); every other option with any subcommand.
    npm: ["ls"],
    cargo: ["build"],
    go: ["build"],
    biome: ["check"],
    vitest: ["run"],
    node: ["x.js"],
    python: ["x.py"],
    uniq: ["f.txt"],
    xxd: ["f.txt"],
    cp: ["f.txt", "g.txt"],
    mv: ["f.txt", "g.txt"],
    chmod: ["+x", "f.txt"],
    seq: ["3"],
    sleep: ["1"],
    // rustc is understood only printing about itself; the option makes the command complete.
    rustc: ["--version"],
    // top is understood only in batch mode (interactive top takes keys that kill processes).
    top: ["-b"],
    // rustup is understood only showing the toolchains; yarn and pnpm only printing their version.
    rustup: ["show"],
    yarn: ["--version"],
    pnpm: ["--version"],
    // gzip and gunzip replace their files unless -c (or -l, -t); unzip is understood in its listing forms.
    gzip: ["-c", "f.txt"],
    gunzip: ["-c", "f.txt"],
    unzip: ["-l", "a.zip"],
    getent: ["passwd"],
    // Interpreters understood only printing their version.
    perl: ["-v"],
    java: ["-version"],
    // gcc and docker are understood only printing their version.
    gcc: ["--version"],
    docker: ["--version"],
    // kill is understood only listing signal names; every other form sends a signal.
    kill: ["-l"],
    // ss's operands are its filter: a word that is none of its keywords is a host name it looks up.
    ss: ["state", "listening"],
    // ruff is understood in its check forms only (format without --check rewrites).
    ruff: ["format", "--check", "f.txt"],
    // ping is understood only to a loopback address written as numbers.
    ping: ["127.0.0.1"],
    // python -m venv is understood only printing its help (any other form creates an environment).
    "python -m venv": ["--help"],
  };
  return byName[name] ?? (g.operands.length === 0 ? [] : ["f.txt"]);
}

function sampleValue(o: OptionSpec): string {
  if (o.choices !== undefined) return o.choices[0] as string;
  if (o.kind === "number") return "3";
  // python's -X takes an implementation option of a fixed set, checked by its grammar's `check`.
  if (o.names.includes("-X") && o.kind === "string") return "importtime";
  // A module a program loads is named as a path (`./v.txt`): a bare name is a package to node.
  if (o.kind === "exec") return "./v.txt";
  if (o.kind !== undefined && PATH_KINDS.has(o.kind)) return "v.txt";
  return "vv";
}

function withOption(g: ProgramGrammar, spelling: string, o: OptionSpec): string[] {
  const words = [g.names[0] as string];
  if (o.command !== undefined) words.push(spelling, "echo", "{}", o.command[0] ?? ";");
  else if (o.value === "required" || o.value === "lastDefault") words.push(spelling, sampleValue(o));
  else if (o.value === "optional" && spelling.startsWith("--")) words.push(`${spelling}=${sampleValue(o)}`);
  else if (o.value === "optional") words.push(`${spelling}${sampleValue(o)}`);
  else words.push(spelling);
  if (o.second !== undefined) words.push("w.txt");
  return [...words, ...operandsFor(g)];
}

const getopt = PROGRAM_GRAMMARS.filter((g) => g.custom === undefined);

describe("every option of every grammar", () => {
  for (const g of getopt) {
    describe(g.names[0] as string, () => {
      it("is understood with its sample operands and no option", () => {
        const u = understand(g, argv(...[g.names[0] as string, ...operandsFor(g)]));
        expect(u.understood, JSON.stringify(u.understood ? null : u.why)).toBe(true);
      });
      for (const o of g.options) {
        for (const spelling of o.names) {
          if (!spelling.startsWith("-") || spelling.includes("=")) continue;
          it(`${spelling}${o.value ? ` (${o.value} ${o.kind ?? "string"})` : ""}`, () => {
            const words = withOption(g, spelling, o);
            const u = understand(g, argv(...words));
            const refused = o.mode !== undefined && REFUSING_MODES.has(o.mode);
            expect(u.understood, `${words.join(" ")}: ${u.understood ? "" : JSON.stringify(u.why)}`).toBe(
              !refused,
            );
            if (refused || !u.understood) return;
            if (
              o.value === "required" &&
              o.kind !== undefined &&
              PATH_KINDS.has(o.kind) &&
              o.command === undefined
            ) {
              // The value is a path: some effect names it (its program may turn a read into a walk).
              expect(
                u.effects.paths.some((e) => e.arg.value === "v.txt" || e.arg.value === "./v.txt"),
                words.join(" "),
              ).toBe(true);
            }
          });
        }
      }
    });
  }
});

/** The shortest prefix of a long name that no other option of the grammar starts with. */
function uniquePrefix(g: ProgramGrammar, o: OptionSpec, name: string): string | null {
  const others = g.options.filter((x) => x !== o).flatMap((x) => x.names);
  for (let n = 4; n < name.length; n++) {
    const p = name.slice(0, n);
    if (!others.some((x) => x.startsWith(p)) && !o.names.some((x) => x !== name && x === p)) return p;
  }
  return null;
}

describe("long options by unique prefix (getopt_long) only where the program abbreviates", () => {
  for (const g of getopt) {
    const cases = g.options.flatMap((o) =>
      o.names
        .filter((n) => n.startsWith("--") && o.command === undefined)
        .map((n) => ({ o, n, prefix: uniquePrefix(g, o, n) }))
        .filter((c): c is { o: OptionSpec; n: string; prefix: string } => c.prefix !== null),
    );
    if (cases.length === 0) continue;
    it(`${g.names[0]}: ${cases.length} prefixes`, () => {
      for (const { o, n, prefix } of cases) {
        const words = withOption(g, prefix, o);
        const { parsed, failure } = parseWords(g, argv(...words));
        if (g.abbreviate) {
          expect(failure, `${words.join(" ")} for ${n}`).toBeNull();
          expect(parsed.options[0]?.spec, `${words.join(" ")} for ${n}`).toBe(o);
        } else expect(failure?.word.startsWith(prefix), words.join(" ")).toBe(true);
      }
    });
  }
});

describe("words a grammar cannot place", () => {
  for (const g of getopt) {
    const name = g.names[0] as string;
    it(`${name}: unknown long and short options, a flag given a value, a missing value`, () => {
      const unknown = understand(g, argv(name, "--zz-not-an-option", ...operandsFor(g)));
      expect(unknown.understood).toBe(false);
      if (!unknown.understood) expect(unknown.why.word).toBe("--zz-not-an-option");
      const flagWithValue = g.options.find(
        (o) => o.value === undefined && o.names.some((n) => n.startsWith("--")),
      );
      const long = flagWithValue?.names.find((n) => n.startsWith("--"));
      if (long !== undefined)
        expect(understand(g, argv(name, `${long}=x`, ...operandsFor(g))).understood).toBe(false);
      const required = g.options.find((o) => o.value === "required" && o.command === undefined);
      if (required !== undefined)
        expect(understand(g, argv(name, ...operandsFor(g), required.names[0] as string)).understood).toBe(
          !g.permute && operandsFor(g).length > 0,
        );
      const choice = g.options.find((o) => o.choices !== undefined && o.value === "required");
      if (choice !== undefined)
        expect(
          understand(g, argv(name, choice.names[0] as string, "zz-no-such-choice", ...operandsFor(g)))
            .understood,
        ).toBe(false);
    });
  }

  it("a word only known at run time where an option could be", () => {
    for (const g of getopt) {
      const name = g.names[0] as string;
      const u = understand(g, [arg(name), { value: null, raw: "$X", glob: false, tilde: false }]);
      // echo and printf have no option that matters: a run-time word is a string to them.
      expect(u.understood, name).toBe(g.dynamicWords === true);
    }
  });
});

describe("operand kinds become effects", () => {
  for (const g of getopt) {
    const kinds = g.operands;
    it(`${g.names[0]}: ${kinds.join(", ")}`, () => {
      const words = kinds.map((_, k) => `op${k}.txt`);
      const { parsed } = parseWords(g, argv(g.names[0] as string, ...words));
      const fx = defaultEffects(g, parsed);
      kinds.forEach((kind, k) => {
        const named = fx.paths.filter((e) => e.arg.value === `op${k}.txt`);
        if (PATH_KINDS.has(kind)) expect(named.map((e) => e.access)).toEqual([kind]);
        else expect(named).toEqual([]);
      });
    });
  }
});

describe("property: sequences of a grammar's own options stay understood", () => {
  for (const g of getopt) {
    const usable = g.options.filter(
      (o) =>
        (o.mode === undefined || !REFUSING_MODES.has(o.mode)) &&
        o.command === undefined &&
        o.second === undefined,
    );
    if (usable.length === 0) continue;
    it(g.names[0] as string, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...usable), { maxLength: 6 }), (opts) => {
          const words = [g.names[0] as string];
          for (const o of opts) {
            const spelling = o.names.find((n) => n.startsWith("-")) as string;
            if (o.value === "required" || o.value === "lastDefault") words.push(spelling, sampleValue(o));
            else if (o.value === "optional" && spelling.startsWith("--"))
              words.push(`${spelling}=${sampleValue(o)}`);
            else if (o.value !== "optional") words.push(spelling);
          }
          words.push(...operandsFor(g));
          const u = understand(g, argv(...words));
          expect(u.understood, `${words.join(" ")}: ${u.understood ? "" : JSON.stringify(u.why)}`).toBe(true);
        }),
        { numRuns: 40 },
      );
    });
  }
});

describe("property: less never takes a number value that hides more options, nor a + command", () => {
  const less = PROGRAM_GRAMMARS.find((g) => g.names[0] === "less") as ProgramGrammar;
  const numbers = less.options.filter((o) => o.value === "required").flatMap((o) => o.names);
  it("a number option's value with anything after its digits is not understood", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...numbers),
        fc.stringMatching(/^-?[0-9]{1,3}$/),
        fc.stringMatching(/^[A-Za-z~#"+ $][A-Za-z0-9/._ -]{0,8}$/),
        fc.boolean(),
        (name, digits, rest, glued) => {
          const words = !glued
            ? [name, `${digits}${rest}`]
            : name.startsWith("--")
              ? [`${name}=${digits}${rest}`]
              : [`${name}${digits}${rest}`];
          expect(understand(less, argv("less", ...words, "f.txt")).understood, words.join(" ")).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
  it("a first operand starting with + is not understood, after any understood options", () => {
    const flags = less.options.filter((o) => o.value === undefined).flatMap((o) => o.names);
    fc.assert(
      fc.property(
        fc.subarray(flags, { maxLength: 4 }),
        fc.stringMatching(/^\+[!:/A-Za-z+][ -~]{0,10}$/),
        (fl, plus) => {
          expect(understand(less, argv("less", ...fl, plus, "f.txt")).understood, plus).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("property: git config takes no option after its key (it would be the value it sets)", () => {
  const git = PROGRAM_GRAMMARS.find((g) => g.names[0] === "git") as ProgramGrammar;
  const spellings = CONFIG_READ_OPTIONS.flatMap((o) => o.names);
  it("git config KEY OPTION … is never understood", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z]{1,8}\.[a-zA-Z]{1,10}$/),
        fc.constantFrom(...spellings),
        fc.array(fc.stringMatching(/^[a-z.=-]{1,6}$/), { maxLength: 2 }),
        (key, option, rest) => {
          const words = ["git", "config", key, option, ...rest];
          expect(understand(git, argv(...words)).understood, words.join(" ")).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("property: npm's registry requests are never understood (red team, round 5)", () => {
  const npm = PROGRAM_GRAMMARS.find((g) => g.names[0] === "npm") as ProgramGrammar;
  it("view/info/show/outdated/audit/doctor with any flags and specs, and --registry anywhere", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("view", "info", "show", "outdated", "audit", "doctor", "ls", "test"),
        fc.subarray(["--json", "-s", "--long", "--all"]),
        fc.constantFrom("lodash", "git+http://h/x.git", "http://h/x.tgz", "react@18"),
        fc.boolean(),
        (sub, flags, spec, registry) => {
          const words = ["npm", sub, ...flags, spec, ...(registry ? ["--registry=http://h/"] : [])];
          const understood = understand(npm, argv(...words)).understood;
          if (registry || !["ls", "test"].includes(sub)) expect(understood, words.join(" ")).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});
