// The release artifacts: `npm run release` packs the tarball (built: dist/ and web/dist/ inside), writes SHA256SUMS
// and signs it with a throwaway ed25519 key (ssh-keygen -Y sign); `npm run verify-release` accepts exactly that and
// refuses a changed tarball, a changed SHA256SUMS, another key's signature and a signer list without the key.
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/airlock-env.ts";
import { ensureBuilt } from "../../support/build.ts";

let dir: string;
let out: string;
let signers: string;
let tarball: string;

function sh(command: string, args: string[], cwd = ROOT) {
  return spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, PATH: process.env.PATH } });
}

function keyPair(name: string): { key: string; signer: string } {
  const key = join(dir, name);
  const made = sh("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key]);
  expect(made.status, made.stderr).toBe(0);
  return {
    key,
    signer: `airlock-release namespaces="airlock-release" ${readFileSync(`${key}.pub`, "utf8").trim()}\n`,
  };
}

const verify = (release: string, list = signers) =>
  sh(process.execPath, [join(ROOT, "scripts", "verify-release.mjs"), release, "--signers", list]);

/** A copy of the release to tamper with. */
function copy(name: string): string {
  const to = join(dir, name);
  mkdirSync(to);
  for (const file of ["SHA256SUMS", "SHA256SUMS.sig", tarball]) copyFileSync(join(out, file), join(to, file));
  return to;
}

beforeAll(async () => {
  await ensureBuilt();
  if (!existsSync(join(ROOT, "web", "dist", "index.html"))) {
    const built = sh("npm", ["run", "-s", "build:web"]);
    expect(built.status, built.stderr).toBe(0);
  }
  dir = mkdtempSync(join(tmpdir(), "airlock-release-"));
  const { key, signer } = keyPair("release-key");
  signers = join(dir, "allowed_signers");
  writeFileSync(signers, signer);
  out = join(dir, "out");
  const r = sh(process.execPath, [
    join(ROOT, "scripts", "release.mjs"),
    "--key",
    key,
    "--out",
    out,
    "--skip-build",
  ]);
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
  tarball = `agent-airlock-${version}.tgz`;
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("npm run release", () => {
  it("writes the tarball with the built CLI, dashboard and Worker sources, its SHA256SUMS line and a signature", () => {
    const listing = sh("tar", ["-tzf", join(out, tarball)]).stdout.split("\n");
    for (const file of [
      "package/bin/airlock.cjs",
      "package/dist/companion/cli.js",
      "package/web/dist/index.html",
      "package/wrangler.toml",
      "package/src/edge/index.ts",
      "package/pages/functions/v1/[[path]].ts",
      "package/migrations/0000_init.sql",
      "package/CHANGELOG.md",
    ])
      expect(listing, file).toContain(file);
    expect(listing.some((f) => f.startsWith("package/test/") || f.startsWith("package/node_modules/"))).toBe(
      false,
    );
    const sums = readFileSync(join(out, "SHA256SUMS"), "utf8");
    expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${tarball.replaceAll(".", "\\.")}\\n$`));
    // sha256sum itself agrees with the file.
    expect(sh("sha256sum", ["-c", "SHA256SUMS"], out).status).toBe(0);
    expect(readFileSync(join(out, "SHA256SUMS.sig"), "utf8")).toContain("BEGIN SSH SIGNATURE");
  });

  it("refuses to run without a key", () => {
    const r = sh(process.execPath, [
      join(ROOT, "scripts", "release.mjs"),
      "--out",
      join(dir, "nokey"),
      "--skip-build",
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--key");
  });
});

describe("npm run verify-release", () => {
  it("verifies the release as written", () => {
    const r = verify(out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("verified 1 file(s)");
  });

  it("refuses a tarball changed by one byte", () => {
    const release = copy("changed-tarball");
    appendFileSync(join(release, tarball), "x");
    const r = verify(release);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${tarball} has SHA-256`);
  });

  it("refuses a SHA256SUMS rewritten to match a swapped tarball", () => {
    const release = copy("changed-sums");
    appendFileSync(join(release, tarball), "x");
    const hash = sh("sha256sum", [tarball], release).stdout;
    writeFileSync(join(release, "SHA256SUMS"), hash);
    const r = verify(release);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("signature of SHA256SUMS does not verify");
  });

  it("refuses another key's signature, and a signer list without the key", () => {
    const other = keyPair("other-key");
    const release = copy("other-signer");
    rmSync(join(release, "SHA256SUMS.sig"));
    expect(
      sh("ssh-keygen", [
        "-Y",
        "sign",
        "-q",
        "-f",
        other.key,
        "-n",
        "airlock-release",
        join(release, "SHA256SUMS"),
      ]).status,
    ).toBe(0);
    expect(verify(release).status).toBe(1);
    const otherList = join(dir, "other_signers");
    writeFileSync(otherList, other.signer);
    expect(verify(out, otherList).status).toBe(1);
    // The repository's own signer list never holds a throwaway key.
    expect(verify(out, join(ROOT, "release", "allowed_signers")).status).toBe(1);
  });

  it("refuses a missing signature and exits 2 on bad usage", () => {
    const release = copy("unsigned");
    rmSync(join(release, "SHA256SUMS.sig"));
    const r = verify(release);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("SHA256SUMS.sig is missing");
    expect(sh(process.execPath, [join(ROOT, "scripts", "verify-release.mjs")]).status).toBe(2);
  });
});
