// Codex's apply_patch, read as Codex reads it (codex-patch.ts). Red team round 11: Codex trims each hunk
// header, so ` *** Add File: ../home/.bashrc` after an Add File body was a second hunk that Codex wrote
// and the judge never saw. Round 12: Rust's trim also takes U+0085 and U+3000, which JavaScript's does
// not. The property runs the real Codex binary (the project's @openai/codex, argv0 `apply_patch`) on
// generated patches and checks that every file it touches is a target the judge reported.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { codexPatchTargets, headerLines, rustTrim } from "../../../src/policy/codex-patch.ts";
import { decide } from "../../../src/policy/index.ts";
import { canonicalCalls } from "../../../src/policy/tool-names.ts";
import { compile, user } from "./helpers.ts";

const base = mkdtempSync(join(tmpdir(), "airlock-codex-patch-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function codexBinary(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve("@openai/codex-linux-x64/package.json");
    const bin = join(dirname(pkg), "vendor", "x86_64-unknown-linux-musl", "bin", "codex");
    return process.platform === "linux" && process.arch === "x64" && existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}
const codex = codexBinary();
const applyPatch = join(base, "bin", "apply_patch");
if (codex !== null) {
  mkdirSync(dirname(applyPatch), { recursive: true });
  symlinkSync(codex, applyPatch);
}

/** Every file under `root` with a hash of its content. */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(p, createHash("sha1").update(readFileSync(p)).digest("hex"));
    }
  };
  walk(root);
  return out;
}

let runs = 0;
/** Runs the real apply_patch on `patch` in a fresh project; the files it created, changed or removed. */
function runCodex(patch: string): { ok: boolean; touched: Set<string>; cwd: string } {
  const root = join(base, `run-${runs++}`);
  const cwd = join(root, "proj");
  mkdirSync(join(cwd, "sub"), { recursive: true });
  writeFileSync(join(cwd, "u.txt"), "a\nb\n");
  writeFileSync(join(cwd, "v.txt"), "a\n");
  const before = snapshot(root);
  const r = spawnSync(applyPatch, [patch], { cwd, encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
  const after = snapshot(root);
  const touched = new Set<string>();
  for (const [p, h] of after) if (before.get(p) !== h) touched.add(p);
  for (const p of before.keys()) if (!after.has(p)) touched.add(p);
  rmSync(root, { recursive: true, force: true });
  return { ok: r.status === 0, touched, cwd };
}

const ATTACK =
  "*** Begin Patch\n*** Add File: src/b.js\n+x\n *** Add File: ../home/.bashrc\n+echo PWNED\n*** End Patch";

describe("Codex's apply_patch as Codex parses it", () => {
  it.skipIf(codex === null)("real Codex writes the hunk whose header is indented (round 11)", () => {
    const r = runCodex(ATTACK);
    expect(r.ok).toBe(true);
    expect([...r.touched].map((p) => relative(r.cwd, p)).sort()).toEqual(["../home/.bashrc", "src/b.js"]);
  });

  it("reports the indented hunk, and the call is never allowed", () => {
    expect(codexPatchTargets(ATTACK)).toEqual([
      { op: "add", path: "src/b.js" },
      { op: "add", path: "../home/.bashrc" },
    ]);
    for (const ws of ["\t", " ", "\u0085", "\u3000", "\u00a0"]) {
      const patch = ATTACK.replace(" *** Add File", `${ws}*** Add File`);
      expect(
        codexPatchTargets(patch)?.map((t) => t.path),
        JSON.stringify(ws),
      ).toContain("../home/.bashrc");
      const calls = canonicalCalls("apply_patch", { input: patch });
      expect(calls.map((c) => c.input.path)).toContain("../home/.bashrc");
      for (const profile of ["cautious", "balanced", "autonomous"] as const) {
        const policy = compile(user(starterPolicy(profile)));
        const verdicts = calls.map(
          (c) =>
            decide(policy, { tool: c.tool, input: c.input, cwd: "/home/dev/project" }, { hasUI: true })
              .action,
        );
        expect(verdicts, `${profile} ${JSON.stringify(ws)}`).toContain("ask");
      }
    }
  });

  it("trims as Rust does: U+0085 yes, U+FEFF no", () => {
    expect(rustTrim("\u0085\u3000 x \t")).toBe("x");
    expect(rustTrim("\ufeffx")).toBe("\ufeffx");
    // A header behind a byte-order mark is no header to Codex: it refuses the whole patch.
    expect(codexPatchTargets("*** Begin Patch\n\ufeff*** Add File: a\n+x\n*** End Patch")).toBeNull();
  });

  it("keeps what Codex keeps: a Move to line and a path's own leading blank", () => {
    const patch =
      "*** Begin Patch\n*** Update File: u.txt\n*** Move to: w.txt \n@@\n-a\n+A\n*** Add File:  x.txt\n+x\n*** End Patch";
    expect(codexPatchTargets(patch)).toEqual([
      { op: "update", path: "u.txt" },
      { op: "move", path: "w.txt " },
      { op: "add", path: " x.txt" },
    ]);
  });

  it("a header-looking line that only OpenCode's parser might take is judged for OpenCode", () => {
    const patch = "*** Begin Patch\n*** Update File: u.txt\n@@\n *** Add File: ../x\n+y\n*** End Patch";
    expect(codexPatchTargets(patch)?.map((t) => t.path)).toEqual(["u.txt"]);
    expect(headerLines(patch).map((t) => t.path)).toEqual(["u.txt", "../x"]);
  });

  it.skipIf(codex === null)("property: every file real Codex touches is a target the judge reported", () => {
    const ws = fc.constantFrom("", "", " ", "\t", "\u0085", "\u3000", "\u00a0", "\ufeff");
    const name = fc.constantFrom(
      "n1.txt",
      "sub/n2.txt",
      "../out.txt",
      " sp.txt",
      "n3.txt ",
      "u.txt",
      "v.txt",
    );
    const add = fc
      .tuple(ws, name, ws, fc.integer({ min: 0, max: 2 }))
      .map(([a, n, b, k]) => [
        `${a}*** Add File: ${n}${b}`,
        ...Array.from({ length: k }, (_, i) => `+line${i}`),
      ]);
    const del = fc
      .tuple(ws, fc.constantFrom("u.txt", "v.txt", "gone.txt"))
      .map(([a, n]) => [`${a}*** Delete File: ${n}`]);
    const update = fc
      .tuple(
        ws,
        fc.constantFrom("u.txt", "v.txt"),
        fc.option(fc.tuple(ws, name)),
        fc.constantFrom("@@", "@@ a", ""),
        fc.boolean(),
      )
      .map(([a, n, move, ctx, blank]) => [
        `${a}*** Update File: ${n}`,
        ...(move === null ? [] : [`${move[0]}*** Move to: ${move[1]}`]),
        ...(blank ? [""] : []),
        ...(ctx === "" ? [] : [ctx]),
        "-a",
        "+A",
      ]);
    const hunks = fc.array(fc.oneof(add, del, update), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(hunks, ws, (hs, edge) => {
        const patch = [`${edge}*** Begin Patch`, ...hs.flat(), `*** End Patch${edge}`].join("\n");
        const run = runCodex(patch);
        // The calls the judge decides on, as the Codex adapter maps the tool.
        const paths = canonicalCalls("apply_patch", { input: patch }).map((c) => c.input.path);
        if (paths.some((p) => typeof p !== "string")) {
          // An edit of an unknown path (asked for): only where Codex refuses the patch and writes nothing.
          expect(run.ok, JSON.stringify(patch)).toBe(false);
          expect(run.touched.size, JSON.stringify(patch)).toBe(0);
          return;
        }
        const reported = new Set(paths.map((p) => resolve(run.cwd, p as string)));
        for (const p of run.touched)
          expect(reported.has(p), `${JSON.stringify(patch)} touched ${p}`).toBe(true);
      }),
      { numRuns: 120, seed: 20 },
    );
  });
});
