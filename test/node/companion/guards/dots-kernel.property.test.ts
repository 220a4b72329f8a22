// Property (red team, round 12, class A): over random trees of directories and symlinks (in the project,
// out of it, onto each other), a directory word made of names, `.`, `..` and empty segments, taken by
// bash's `cd` (logical, with its fallback to chdir), `env -C` (chdir) or an agent's `workdir` (chdir):
// when the judge allows `<move> cat m.txt`, the directory the real bash / the kernel lands in is the one
// the judge placed the read in (its tidied path, on the disk). The oracle is bash itself (`pwd -P`).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { normalizePath } from "../../../../src/policy/paths.ts";
import { READ_ONLY } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-dots-prop-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const disk = diskCheck({ env: {} });

const DIRS = ["ws", "ws/a", "ws/b", "ws/a/c", "home", "home/x", "home/x/y"];
const LINKS = ["ws/L1", "ws/a/L2", "home/x/L3"];
const SEGMENTS = ["a", "b", "c", "x", "y", "L1", "L2", "L3", "..", "..", ".", ""];
let tree = 0;

/** A fresh tree: every directory holds m.txt; each link points at one of the directories. */
function makeTree(targets: readonly number[]): string {
  const root = join(base, `t${tree++}`);
  for (const d of DIRS) {
    mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, d, "m.txt"), `${d}\n`);
  }
  LINKS.forEach((l, i) => {
    symlinkSync(join(root, DIRS[targets[i] as number] as string), join(root, l));
  });
  return join(root, "ws");
}

/** Where the kernel puts `script`'s `pwd -P` when run from `cwd` as given (untidied); null if it fails. */
function lands(script: string, cwd: string): string | null {
  const r = spawnSync("bash", ["-c", script], { cwd, encoding: "utf8", env: { PATH: process.env.PATH } });
  return r.status === 0 ? r.stdout.trim() : null;
}

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

describe("a `..` after a name is placed as the kernel places it, or the judge asks", () => {
  it("cd, env -C and a workdir over random link trees", { timeout: 180_000 }, () => {
    let allowed = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: DIRS.length - 1 }), { minLength: 3, maxLength: 3 }),
        fc.oneof(
          fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 5 }),
          // Biased to the class: a link, a climb written in any spelling, then a name.
          fc
            .tuple(
              fc.constantFrom(["L1"], ["a", "L2"], [".", "L1"], ["a", "", "L2"]),
              fc.constantFrom([".."], ["", ".."], [".", ".."], ["..", ".."], ["", ".", "", ".."]),
              fc.constantFrom([], ["x"], ["y"], ["x", "y"], ["a"], ["c"], [""]),
            )
            .map(([l, up, rest]) => [...l, ...up, ...rest]),
        ),
        fc.constantFrom("cd", "env", "workdir"),
        (targets, segs, how) => {
          const ws = makeTree(targets);
          const word = segs.join("/") || ".";
          const q = `'${word}'`;
          let judged: ReturnType<typeof judgeOnDisk>;
          let landed: string | null;
          if (how === "workdir") {
            judged = judgeOnDisk(
              READ_ONLY,
              { tool: "exec_command", input: { cmd: "cat m.txt", workdir: word }, cwd: ws, agent: "codex" },
              { disk },
            );
            landed = real(`${ws}/${word}`);
          } else {
            const move = how === "cd" ? `cd ${q} &&` : `env -C ${q}`;
            judged = judgeOnDisk(
              READ_ONLY,
              { tool: "bash", input: { command: `${move} cat m.txt` }, cwd: ws },
              { disk },
            );
            landed = lands(how === "cd" ? `cd ${q} && pwd -P` : `env -C ${q} pwd -P`, ws);
          }
          if (judged.action !== "allow" || landed === null) return;
          allowed++;
          // Allowed: the read the judge placed in the tidied directory is the one the kernel reads.
          expect(landed, `${how} ${word}: ${judged.reasons.join("\n")}`).toBe(
            real(normalizePath(`${ws}/${word}`)),
          );
        },
      ),
      {
        numRuns: 60,
        // Plain moves inside the project run in every run, so the check below never rests on the draw.
        examples: [
          [[1, 1, 1], ["a"], "cd"],
          [[1, 1, 1], ["a", "c"], "env"],
          [[1, 1, 1], ["b"], "workdir"],
        ],
      },
    );
    // The property is not vacuous: plain moves inside the project are allowed.
    expect(allowed).toBeGreaterThan(0);
  });
});
