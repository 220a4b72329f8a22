// resolveWorkspacePath against a real directory tree: table cases and fast-check properties.
import { readFileSync, realpathSync } from "node:fs";
import { relative, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveWorkspacePath } from "../../../../src/companion/guards/index.ts";
import { makeWorkspaceTree, SEGMENTS, TREE_PATHS, type WorkspaceTree } from "./workspace-tree.ts";

let tree: WorkspaceTree;
beforeAll(() => {
  tree = makeWorkspaceTree();
});
afterAll(() => tree.cleanup());

// An oracle written independently of the guard: the denylist, matched on every segment of
// the real relative path in lower case and NFKC, invisible marks removed.
const SECRET_FILE = [
  /^\.env$/,
  /^\.env\..+$/,
  /^\.npmrc$/,
  /^\.netrc$/,
  /^\.pypirc$/,
  /\.pem$/,
  /\.key$/,
  /\.p12$/,
  /\.pfx$/,
  /^auth\.json$/,
  /^models\.json$/,
  /^credentials/,
];
const SECRET_DIR = new Set(["secrets", ".ssh", ".aws", ".kube", "node_modules", ".git"]);
const TEMPLATE = /^\.env\.(example|sample|template|dist)$/;

function oracleDenies(realRelative: string): boolean {
  const clean = realRelative
    .normalize("NFKC")
    .replace(/[\u200b-\u200f\u2060\ufeff\u00ad]/g, "")
    .toLowerCase();
  const segs = clean.split("/").filter((s) => s !== "" && s !== ".");
  if (segs.some((s) => SECRET_DIR.has(s))) return true;
  const last = segs[segs.length - 1] ?? "";
  const tail = segs.slice(-2).join("/");
  if (tail === ".docker/config.json" || segs.slice(-3).join("/") === ".config/gh/hosts.yml") return true;
  return !TEMPLATE.test(last) && SECRET_FILE.some((re) => re.test(last));
}

/** What the operating system would actually open for this request, or undefined if nothing. */
function osTarget(request: string): string | undefined {
  try {
    return realpathSync(resolve(tree.root, request));
  } catch {
    return undefined;
  }
}

async function expectRefused(request: string, reason: RegExp): Promise<void> {
  const result = await resolveWorkspacePath(tree.root, request);
  expect(result, request).toMatchObject({ ok: false });
  if (!result.ok) expect(result.reason).toMatch(reason);
}

describe("resolveWorkspacePath: table", () => {
  it("serves ordinary files, relative and absolute, and returns the real path", async () => {
    const rel = await resolveWorkspacePath(tree.root, "src/a.ts");
    expect(rel).toEqual({ ok: true, absolute: resolve(tree.realRoot, "src/a.ts"), relative: "src/a.ts" });
    const abs = await resolveWorkspacePath(tree.root, resolve(tree.root, "src/deep/../a.ts"));
    expect(abs).toEqual(rel);
    expect(await resolveWorkspacePath(tree.root, ".")).toEqual({
      ok: true,
      absolute: tree.realRoot,
      relative: ".",
    });
    const viaLink = await resolveWorkspacePath(tree.root, "link-readme");
    expect(viaLink).toMatchObject({ ok: true, relative: "README.md" });
    expect(await resolveWorkspacePath(tree.root, ".env.example")).toMatchObject({ ok: true });
    expect(await resolveWorkspacePath(tree.root, "src/up/src/a.ts")).toMatchObject({
      ok: true,
      relative: "src/a.ts",
    });
    // A file that does not exist yet still resolves (the tool reports "not found").
    expect(await resolveWorkspacePath(tree.root, "src/new/file.ts")).toMatchObject({
      ok: true,
      relative: "src/new/file.ts",
    });
  });

  it("refuses escapes by .., ~, absolute paths, NUL and encodings", async () => {
    await expectRefused("../outside/stolen.txt", /escapes/);
    await expectRefused("src/../../outside", /escapes/);
    await expectRefused("~/.ssh/id_rsa", /home-relative/);
    await expectRefused("~root", /home-relative/);
    await expectRefused("/etc/passwd", /absolute path outside/);
    await expectRefused(`${tree.outside}/stolen.txt`, /absolute path outside/);
    await expectRefused("src/a.ts\0.png", /NUL/);
    await expectRefused("%2e%2e/literal.txt", /percent-encoded/);
    await expectRefused("..%2fetc%2fpasswd", /percent-encoded/);
    await expectRefused("%252e%252e/x", /percent-encoded/);
    await expectRefused("..\\outside", /backslash/);
    await expectRefused("．．/outside/stolen.txt", /Unicode/);
  });

  it("refuses symlinks that leave the workspace, loop, dangle or land on a secret", async () => {
    await expectRefused("link-out/stolen.txt", /outside the workspace through a symlink/);
    await expectRefused("link-out-file", /through a symlink/);
    await expectRefused("link-abs/passwd", /through a symlink/);
    await expectRefused("loop-a", /loop/);
    await expectRefused("dangling", /dangling/);
    await expectRefused("link-secret", /denylist/);
    await expectRefused("src/link-ssh/id_ed25519", /denylist/);
    await expectRefused("link-git/config", /\.git/);
  });

  it("refuses the denylist in any case or Unicode spelling, and node_modules/.git anywhere", async () => {
    for (const p of [
      ".env",
      ".ENV",
      ".env.local",
      ".ENV.production",
      "id.pem",
      "server.KEY",
      "config/credentials.json",
      "config/Models.json",
      "secrets/db.txt",
      ".ssh/id_ed25519",
      ".AWS/config",
      ".docker/config.json",
      ".config/gh/hosts.yml",
      "a/b/.npmrc",
      "auth.json",
      "x.p12",
      "x.pfx",
      ".netrc",
      ".pypirc",
      ".kube/config",
      "．env",
      ".env\u200b",
    ]) {
      await expectRefused(p, /denylist/);
    }
    await expectRefused("node_modules/pkg/index.js", /node_modules/);
    await expectRefused("NODE_MODULES/pkg", /node_modules/);
    await expectRefused("ｎｏｄｅ_ｍｏｄｕｌｅｓ/pkg", /node_modules/);
    await expectRefused(".git/config", /\.git/);
    await expectRefused("src/.git/HEAD", /\.git/);
  });
});

const prefix = fc.constantFrom(
  "",
  "./",
  "/",
  "~/",
  "src/",
  "%2e%2e/",
  "PLACEHOLDER_ROOT/",
  "PLACEHOLDER_OUT/",
);
const composed = fc
  .tuple(
    prefix,
    fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 7 }),
    fc.array(fc.boolean(), { maxLength: 64 }),
  )
  .map(([pre, segs, upper]) => {
    // Random case flips model case-insensitive filesystems (macOS, Windows).
    const raw = pre + segs.join("/");
    return [...raw].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("");
  });
// Real names reached through detours (`src/up/`, `./`, `src/deep/../../`) with case flips.
const nearReal = fc
  .tuple(
    fc.constantFrom(
      "",
      "./",
      "src/up/",
      "src/deep/../../",
      "link-readme/../",
      "src/up/src/up/",
      "PLACEHOLDER_ROOT/",
    ),
    fc.constantFrom(...TREE_PATHS),
    fc.array(fc.boolean(), { maxLength: 64 }),
  )
  .map(([pre, p, upper]) =>
    [...(pre + p)].map((c, i) => (upper[i] && i >= pre.length ? c.toUpperCase() : c)).join(""),
  );
const arbitraryText = fc.string({ unit: "binary", maxLength: 40 });
const percentEncoded = fc
  .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 })
  .map((segs) => encodeURIComponent(segs.join("/")));
const anyRequest = fc.oneof(composed, composed, nearReal, nearReal, arbitraryText, percentEncoded);

function materialize(request: string): string {
  return request.replace("PLACEHOLDER_ROOT", tree.root).replace("PLACEHOLDER_OUT", tree.outside);
}

describe("resolveWorkspacePath: properties", () => {
  it("never returns a path outside the real workspace or on the denylist", async () => {
    let approved = 0;
    let approvedExisting = 0;
    await fc.assert(
      fc.asyncProperty(anyRequest, async (generated) => {
        const request = materialize(generated);
        const result = await resolveWorkspacePath(tree.root, request);
        if (!result.ok) return;
        approved++;
        const rel = relative(tree.realRoot, result.absolute);
        expect(rel.startsWith("..")).toBe(false);
        expect(resolve(tree.realRoot, rel)).toBe(result.absolute);
        expect(oracleDenies(result.relative)).toBe(false);
        // What the OS opens for the raw request is exactly what the guard approved, when it exists.
        const target = osTarget(request);
        if (target !== undefined) {
          approvedExisting++;
          expect(target).toBe(result.absolute);
          expect(oracleDenies(relative(tree.realRoot, target))).toBe(false);
        }
        // And the request's own normalized name is not a denylisted one (a symlink named .env is refused too).
        expect(oracleDenies(relative(tree.root, resolve(tree.root, request)))).toBe(false);
      }),
      { numRuns: 3000 },
    );
    // The generator must actually reach real files, or the property proves nothing.
    expect(approved).toBeGreaterThan(100);
    expect(approvedExisting).toBeGreaterThan(150);
  });

  it("every request the OS would resolve outside the workspace or to a secret is refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(composed, nearReal), async (generated) => {
        const request = materialize(generated);
        const target = osTarget(request);
        if (target === undefined) return;
        const escapes = relative(tree.realRoot, target).startsWith("..");
        const secret = !escapes && oracleDenies(relative(tree.realRoot, target));
        if (!escapes && !secret) return;
        const result = await resolveWorkspacePath(tree.root, request);
        expect(result.ok, `${request} -> ${target}`).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("an approved existing file reads the same bytes as the request names", async () => {
    await fc.assert(
      fc.asyncProperty(composed, async (generated) => {
        const request = materialize(generated);
        const result = await resolveWorkspacePath(tree.root, request);
        const target = osTarget(request);
        if (!result.ok || target === undefined) return;
        try {
          expect(readFileSync(result.absolute).equals(readFileSync(target))).toBe(true);
        } catch (error) {
          // Directories cannot be read as files; both sides agree on that.
          expect((error as NodeJS.ErrnoException).code).toBe("EISDIR");
        }
      }),
      { numRuns: 1000 },
    );
  });
});
