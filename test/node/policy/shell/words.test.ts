// Words as bash passes them: quote removal, `$'…'` escapes, brace expansion, `~`. Generated words
// are printed by real bash and compared with the engine's reading of them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseBashWithParser } from "../../../../src/policy/shell/parser.ts";
import { ansiC, expandWord } from "../../../../src/policy/shell/words.ts";

const plain = fc.stringMatching(/^[a-z0-9._=:,@%+-]{1,4}$/);
const single = fc.stringMatching(/^[a-z $"\\*{},~-]{0,5}$/).map((s) => `'${s}'`);
const double = fc
  .array(
    fc.oneof(fc.stringMatching(/^[a-z '*{},~-]{1,4}$/), fc.constantFrom('\\"', "\\\\", "\\$", "\\a", "\\`")),
    { maxLength: 3 },
  )
  .map((xs) => `"${xs.join("")}"`);
const ansi = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[a-z ]{1,3}$/),
      fc.constantFrom(
        "\\x41",
        "\\x7e",
        "\\n",
        "\\t",
        "\\'",
        "\\\\",
        "\\u0042",
        "\\101",
        "\\e",
        "\\q",
        "\\x4g",
        "\\cA",
        '\\"',
      ),
    ),
    { maxLength: 4 },
  )
  .map((xs) => `$'${xs.join("")}'`);
const escaped = fc.constantFrom("\\ ", "\\*", "\\{", "\\a", "\\'", '\\"', "\\\\", "\\$");
const braces = fc.constantFrom(
  "{a,b}",
  "{1..3}",
  "{x,}",
  "{a,b{c,d}}",
  "{a..c..2}",
  "{01..3}",
  "{,}",
  "{a}",
  "x{y,z}w",
);
const token = fc.oneof({ weight: 4, arbitrary: plain }, single, double, ansi, escaped, braces);
const word = fc
  .tuple(fc.constantFrom("", "", "", "~/", "~"), fc.array(token, { minLength: 1, maxLength: 4 }))
  .map(([t, ts]) => t + ts.join(""));

/** What bash passes for each word (in a directory with no files, HOME=/h), via printf. */
function bashWords(words: readonly string[]): string[][] {
  // A for loop sees exactly the words a command would get (printf with none still prints once).
  const script = words
    .map((w) => `for a in ${w}; do printf '%s\\0' "$a"; done; printf 'END-OF-WORD\\0'`)
    .join("\n");
  const dir = mkdtempSync(join(tmpdir(), "airlock-words-"));
  const file = join(dir, "words.sh");
  writeFileSync(file, script);
  const r = spawnSync("bash", [file], {
    cwd: dir,
    env: { HOME: "/h", PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(dir, { recursive: true, force: true });
  const out: string[][] = [[]];
  for (const item of r.stdout.split("\0").slice(0, -1)) {
    if (item === "END-OF-WORD") out.push([]);
    else out[out.length - 1]?.push(item);
  }
  return out.slice(0, -1);
}

/** The engine's reading of a word, with a bash-expanded `~` for comparison. */
function ourWords(w: string): string[] | null {
  const event = parseBashWithParser(`printf %s ${w}`).events[0];
  if (event?.kind !== "stmt" || event.cmd?.type !== "call") return null;
  const target = event.cmd.args[2];
  if (target === undefined || event.cmd.args.length !== 3) return null;
  const values = expandWord(target);
  if (values.some((v) => v.value === null || v.glob)) return null;
  // `~+`, `~-` and `~user` are left to path resolution (the working directory, or unknown).
  if (values.some((v) => v.tilde && !/^~($|[/:])/.test(v.value ?? ""))) return null;
  // bash ends the tilde prefix at `/` or `:`; the engine resolves only `~` and `~/…` (others are unknown paths).
  return values.map((v) =>
    v.tilde && /^~($|[/:])/.test(v.value ?? "") ? `/h${v.value?.slice(1)}` : (v.value as string),
  );
}

describe("words are read as bash reads them", () => {
  it("on generated words, the engine's values equal what bash passes", () => {
    const words = fc.sample(word, { numRuns: 3000, seed: 3 });
    const theirs = bashWords(words);
    expect(theirs).toHaveLength(words.length);
    let compared = 0;
    words.forEach((w, i) => {
      let ours: string[] | null;
      try {
        ours = ourWords(w);
      } catch {
        return; // the parser refuses the word: the command asks
      }
      if (ours === null) return;
      compared++;
      expect(ours, JSON.stringify(w)).toEqual(theirs[i]);
    });
    expect(compared).toBeGreaterThan(2000);
  });

  it.each([
    ["\\x72m", "rm"],
    ["\\162m", "rm"],
    ["a\\0b", "a"],
    ["\\u00e9", null],
    ["\\xff", null],
    ["\\cA", "\u0001"],
    ["\\q", "\\q"],
  ])("$'%s' is %j", (sequence, expected) => {
    expect(ansiC(sequence)).toBe(expected);
  });
});
