// `find … | xargs CMD` (found-paths.ts) as the words alone give it: the paths find prints reach CMD only
// when find just walks and prints names, xargs just splits them and CMD reads or lists them where each
// lands; everything else stays `<input>`, only known at run time. The disk side is in
// test/node/companion/guards/overask8-disk.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/shell/analysis.ts";
import { foundByFind, xargsOverFound } from "../../../../src/policy/shell/found-paths.ts";
import type { ExecUnit, PathUnit } from "../../../../src/policy/shell/units.ts";
import type { Arg } from "../../../../src/policy/shell/wrappers.ts";
import { judge, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

const words = (...w: string[]): Arg[] => w.map((value) => ({ value, raw: value, glob: false, tilde: false }));

describe("what find prints", () => {
  it("is its starting points' names for a plain walk", () => {
    const f = foundByFind(words("find", "src", "test", "-name", "*.ts"), "find");
    expect(f?.roots.map((r) => r.value)).toEqual(["src", "test"]);
    expect(f?.name).toBe("*.ts");
    expect(f?.nul).toBe(false);
    expect(foundByFind(words("find", "-name", "*.ts", "-print0"), "find")?.roots.map((r) => r.value)).toEqual(
      ["."],
    );
  });

  it("is nothing known when find runs, writes, formats or lists", () => {
    for (const w of [
      ["find", ".", "-exec", "cat", "{}", ";"],
      ["find", ".", "-delete"],
      ["find", ".", "-fprint", "out"],
      ["find", ".", "-printf", "%p\\n"],
      ["find", ".", "-ls"],
      ["find", ".", "-print", "-print0"],
      ["find", "-files0-from", "list"],
      ["find", "my dir"],
      ["fd", "x"],
    ])
      expect(foundByFind(words(...w), "x"), w.join(" ")).toBeNull();
  });

  it("narrows by -name only in a plain conjunction with no print before it", () => {
    expect(foundByFind(words("find", ".", "-type", "f", "-name", "*.js"), "f")?.name).toBe("*.js");
    // A primary's value is no test: `-newer -name` names a file, and the test is `-name .env`.
    expect(foundByFind(words("find", ".", "-newer", "-name", "-name", ".env"), "f")?.name).toBe(".env");
    expect(foundByFind(words("find", ".", "-path", "-name", "-name", ".env"), "f")?.name).toBe(".env");
    for (const w of [
      ["find", ".", "-name", "*.js", "-o", "-name", "*.env"],
      ["find", ".", "!", "-name", "*.js"],
      ["find", ".", "-print", "-name", "*.js"],
      ["find", ".", "(", "-name", "*.js", ")"],
    ])
      expect(foundByFind(words(...w), "f")?.name ?? null, w.join(" ")).toBeNull();
  });
});

describe("the shell analysis of find | xargs", () => {
  it("gives the consumer the found paths and a walk of find's starting points", () => {
    const units = analyzeShell('find . -name "*.js" | xargs grep -l console').units;
    const grep = units.find((u): u is ExecUnit => u.kind === "exec" && u.program === "grep");
    expect(grep?.notUnderstood).toBeUndefined();
    const read = units.find((u): u is PathUnit => u.kind === "read");
    expect(read).toMatchObject({ path: ".", recursive: true, walk: { only: ["*.js"], plainNames: true } });
  });

  it("is never allowed by the words alone (the walk needs the disk)", () => {
    for (const c of ['find . -name "*.js" | xargs grep -l console', "find src | xargs wc -l"])
      for (const [name, policy] of [["read-only", READ_ONLY], ...STRICT_PROFILES] as const)
        expect(judge(policy, c).action, `${name}: ${c}`).not.toBe("allow");
  });

  it("property: the found paths reach CMD only through xargs options that split them, and CMD only reads them", () => {
    const found = foundByFind(words("find", ".", "-name", "*.js"), "find") as NonNullable<
      ReturnType<typeof foundByFind>
    >;
    const safe = ["-n", "1", "-P", "4", "-r", "-t", "-x", "-L", "2", "-s", "4096"];
    const option = fc.constantFrom(
      ["-n", "1"],
      ["-P", "4"],
      ["-r"],
      ["-t"],
      ["-x"],
      ["-L", "2"],
      ["-s", "4096"],
      ["-0"],
      ["-a", "list.txt"],
      ["--arg-file=list.txt"],
      ["-d", "x"],
      ["-E", "END"],
      ["-eEND"],
      ["-p"],
      ["-o"],
      ["--process-slot-var=LD_PRELOAD"],
      ["--help"],
      ["--proc=LD_PRELOAD"],
    );
    const consumer = fc.constantFrom(
      ["grep", "-l", "console"],
      ["wc", "-l"],
      ["cat"],
      ["head", "-n", "3"],
      ["ls", "-l"],
      ["rm", "-f"],
      ["cp", "-t", "/tmp"],
      ["xxd"],
      ["grep"],
      ["grep", "-r", "x"],
      ["sed", "-i", "s/a/b/"],
      ["node"],
      ["sh", "-c", "cat"],
      ["tar", "-cf", "x.tar"],
      ["find"],
      ["git", "add"],
    );
    const readers = new Set(["grep -l console", "wc -l", "cat", "head -n 3", "ls -l"]);
    fc.assert(
      fc.property(fc.array(option, { maxLength: 3 }), consumer, (opts, cmd) => {
        const argv = words("xargs", ...opts.flat(), ...cmd);
        const placed = xargsOverFound(argv, found);
        if (placed === null) return;
        expect(
          opts.flat().every((w) => safe.includes(w)),
          argv.map((a) => a.value).join(" "),
        ).toBe(true);
        expect(readers.has(cmd.join(" ")), cmd.join(" ")).toBe(true);
        expect(placed.filter((a) => a.found !== undefined)).toHaveLength(1);
      }),
      { numRuns: 500 },
    );
  });
});
