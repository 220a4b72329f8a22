// A slice of the file-effects oracle (the full corpus runs in bench/policy/effects-oracle.mjs):
// real programs under strace, every file touched in the sandbox among the effects the judge
// reported, every program executed a judged unit. Skipped only where strace is not installed.
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { check, generateCorpus, makeSandbox, straceAvailable } from "./effects-oracle.ts";

const CORPUS = generateCorpus(2000);
/** Every 13th command: about 150, spread over every program. */
const SLICE = CORPUS.filter((_, i) => i % 13 === 0);

describe.skipIf(!straceAvailable())("file-effects oracle (a CI slice)", () => {
  it("generates at least 2,000 distinct commands from the grammars", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(2000);
    expect(SLICE.length).toBeGreaterThan(100);
  });

  it(`${SLICE.length} commands touch only files the judge reported`, () => {
    const failures: string[] = [];
    for (const command of SLICE) {
      const sandbox = makeSandbox(command);
      try {
        const r = check(command, sandbox);
        if (r.unreported.length > 0 || r.unjudgedExecs.length > 0) failures.push(JSON.stringify(r));
        if (!r.understood) failures.push(`not understood: ${command}`);
      } finally {
        rmSync(sandbox, { recursive: true, force: true });
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it("notices an unreported read and an unjudged program (the oracle is not vacuous)", () => {
    const sandbox = makeSandbox();
    try {
      expect(check("cat .env", sandbox, "cat notes.txt").unreported).toEqual(["read .env"]);
      expect(check("sort -o out.txt f.txt", sandbox, "sort f.txt").unreported).toContain("write out.txt");
      expect(
        check("cat notes.txt | wc -l", sandbox, "cat notes.txt").unjudgedExecs.map((e) => e.split("/").pop()),
      ).toEqual(["wc"]);
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
