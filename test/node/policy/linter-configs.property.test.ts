// linterConfigNames, as a property: whatever shape a biome.json or ruff.toml has, a string anywhere in it
// that names a path out of the config's directory tree comes back as a path out of it (or the config is
// not known), and a config holding only plain words and relative names below names nothing outside.
import fc from "fast-check";
import { stringify } from "smol-toml";
import { describe, expect, it } from "vitest";
import { linterConfigNames } from "../../../src/policy/linter-configs.ts";

const DIR = "/ws/proj";
const HOME = "/home/dev";
const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
const below = fc.array(word, { minLength: 1, maxLength: 3 }).map((s) => `./${s.join("/")}`);
const outside = fc.oneof(
  fc.constant("../../home/.netrc"),
  fc.constant("/etc/passwd"),
  fc.constant("~/.aws/credentials"),
  word.map((w) => `../${w}`),
  word.map((w) => `./a/../../${w}`),
);
/** A config tree: nested tables and arrays of plain words and names below, with `leaf` somewhere in it. */
const tree = (leaf: fc.Arbitrary<string>) =>
  fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.oneof(word, below, leaf),
      fc.array(tie("node"), { maxLength: 3 }),
      fc.dictionary(word, tie("node"), { maxKeys: 3 }),
    ),
  })).node;
const configOf = (leaf: fc.Arbitrary<string>) =>
  fc.tuple(fc.dictionary(word, tree(leaf), { maxKeys: 3 }), word, leaf).map(([doc, key, value]) => ({
    ...doc,
    [key]: [value],
  }));

const isOutside = (p: string) => !p.startsWith(`${DIR}/`) && p !== DIR;

describe("linterConfigNames over any config", () => {
  it("a string naming a path out of the config's directory is reported (biome's JSON, ruff's TOML)", () => {
    fc.assert(
      fc.property(configOf(outside), (doc) => {
        for (const [linter, name, text] of [
          ["biome", "biome.json", JSON.stringify(doc)],
          ["ruff", "ruff.toml", stringify(doc)],
        ] as const) {
          const r = linterConfigNames(linter, name, text, DIR, HOME);
          expect("unknown" in r || r.paths.some(isOutside)).toBe(true);
        }
      }),
    );
  });

  it("a config of plain words and names below its directory names nothing outside", () => {
    fc.assert(
      fc.property(configOf(fc.oneof(word, below)), (doc) => {
        const r = linterConfigNames("ruff", "ruff.toml", stringify(doc), DIR, HOME);
        expect("unknown" in r ? r.unknown : r.paths.filter(isOutside)).toEqual([]);
      }),
    );
  });

  it("pyproject.toml's other tables are not ruff's; its [tool.ruff] is", () => {
    const text = stringify({ project: { readme: "../x" }, tool: { ruff: { extend: "../y.toml" } } });
    expect(linterConfigNames("ruff", "pyproject.toml", text, DIR, HOME)).toEqual({
      paths: ["/ws/y.toml"],
      chained: ["/ws/y.toml"],
    });
  });
});
