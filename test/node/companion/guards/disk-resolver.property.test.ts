// Property: over random workspaces of files, symlinks (to secrets, out of the workspace, within it) and
// hard links, a decision that allows a read never lets the command reach a secret, a file with another
// name, a private key or a file outside the workspace. The oracle is independent of the resolver: bash
// itself expands the globs, and the files a command reads are listed by a plain walk of the real tree.
import { execFileSync } from "node:child_process";
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { holdsPrivateKey } from "../../../../src/policy/secret-families.ts";
import { isDenylistedPath } from "../../../../src/policy/secret-paths.ts";
import { KEY, readOnlyPolicy } from "./disk-fixture.ts";

let base: string;
let home: string;
let outside: string;
let run = 0;
const policy = readOnlyPolicy();
const disk = diskCheck({ env: {} });

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-disk-prop-")));
  home = join(base, "home");
  outside = join(base, "outside");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(home, ".aws"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(home, ".ssh", "id_rsa"), KEY);
  writeFileSync(join(home, ".aws", "credentials"), "secret\n");
  writeFileSync(join(outside, "plain.txt"), "plain\n");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const NAMES = ["a.txt", "b.md", "src/x.ts", "src/y.txt", "d/e/f.txt", ".env", "docs/notes.txt", "d/link"];
type Kind = "file" | "key" | "symSecret" | "symOut" | "symIn" | "symDirOut" | "hardSecret" | "hardOut";
const KINDS: Kind[] = [
  "file",
  "file",
  "file",
  "key",
  "symSecret",
  "symOut",
  "symIn",
  "symDirOut",
  "hardSecret",
  "hardOut",
];

function build(ws: string, entries: [string, Kind][]): void {
  for (const [name, kind] of entries) {
    const p = join(ws, name);
    try {
      lstatSync(p);
      continue; // first writer wins
    } catch {}
    mkdirSync(dirname(p), { recursive: true });
    if (kind === "file") writeFileSync(p, "foo\n");
    else if (kind === "key") writeFileSync(p, KEY);
    else if (kind === "symSecret") symlinkSync(join(home, ".ssh", "id_rsa"), p);
    else if (kind === "symOut") symlinkSync(join(outside, "plain.txt"), p);
    else if (kind === "symIn") symlinkSync(join(ws, "a.txt"), p);
    else if (kind === "symDirOut") symlinkSync(home, p);
    else if (kind === "hardSecret") linkSync(join(home, ".aws", "credentials"), p);
    else linkSync(join(outside, "plain.txt"), p);
  }
}

/** A file the command reads: violation when it is a secret, has another name, holds a key or is outside. */
function violates(ws: string, file: string, _walked: boolean): string | null {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return null;
  }
  const st = statSync(real);
  if (!st.isFile()) return null;
  const inside = real === ws || real.startsWith(`${ws}/`);
  if (!inside) return `${file} is outside (${real})`;
  if (isDenylistedPath(relative(ws, real))) return `${file} is a secret`;
  if (st.nlink > 1) return `${file} has another name`;
  // A walk reads every file it reaches for a key, source files included (a PEM block in config.js).
  if (holdsPrivateKey(readFileSync(real, "latin1"))) return `${file} holds a key`;
  return null;
}

/** What `grep -r` reads under a root: the root followed, symlinks below it skipped. */
function grepFiles(root: string): string[] {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(root);
  } catch {
    return [];
  }
  if (!st.isDirectory()) return [root];
  const out: string[] = [];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    const p = join(root, e.name);
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) out.push(...grepFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Bash's own expansion of a glob in the workspace. */
function bashGlob(ws: string, glob: string): string[] {
  const out = execFileSync("bash", ["-c", `for f in ${glob}; do printf '%s\\0' "$f"; done`], {
    cwd: ws,
  }).toString();
  return out
    .split("\0")
    .filter((f) => f !== "" && f !== glob)
    .map((f) => join(ws, f));
}

const command = fc.oneof(
  fc.constantFrom(...NAMES).map((n) => ({ kind: "cat" as const, arg: n })),
  fc.constantFrom(".", "src", "d", "docs").map((n) => ({ kind: "grep" as const, arg: n })),
  fc
    .constantFrom("*", "src/*", "d/*", "*.txt", "docs/*", "d/*/*", ".[[=e=]]nv", "[a-d]*")
    .map((n) => ({ kind: "glob" as const, arg: n })),
);

describe("decision-time resolution, property", () => {
  it("never allows a read that reaches a secret, a hard link, a key or the outside", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...KINDS)), {
          minLength: 1,
          maxLength: 8,
        }),
        command,
        (entries, cmd) => {
          const ws = join(base, `ws${run++}`);
          mkdirSync(ws);
          try {
            build(ws, entries);
            const text = cmd.kind === "grep" ? `grep -r foo ${cmd.arg}` : `cat ${cmd.arg}`;
            const j = judgeCall(
              policy,
              { tool: "bash", input: { command: text }, cwd: ws, home },
              { hasUI: true },
              disk,
            );
            if (j.record.action !== "allow") return true;
            const files =
              cmd.kind === "grep"
                ? grepFiles(join(ws, cmd.arg))
                : cmd.kind === "glob"
                  ? bashGlob(ws, cmd.arg)
                  : [join(ws, cmd.arg)];
            for (const f of files) {
              const v = violates(ws, f, cmd.kind === "grep");
              if (v !== null) throw new Error(`${text} was allowed but ${v}`);
            }
            return true;
          } finally {
            rmSync(ws, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
