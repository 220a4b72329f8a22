#!/usr/bin/env node
// `npm run release -- --key ~/.ssh/airlock_release [--out release/] [--skip-build]`: the release artifacts.
//   1. builds (dist/ and web/dist/; the tarball ships them built, since a tarball install runs no build)
//   2. `npm pack` → agent-airlock-<version>.tgz
//   3. SHA256SUMS: one `<sha256>  <file>` line per artifact (the format `sha256sum -c` reads)
//   4. SHA256SUMS.sig: an SSH signature of SHA256SUMS (`ssh-keygen -Y sign`, namespace "airlock-release") with an
//      ed25519 key; anyone verifies it offline against the signer list (release/allowed_signers) with
//      `npm run verify-release -- <dir>` (scripts/verify-release.mjs) or by hand (docs/development.md, Releases).
// ssh-keygen comes with OpenSSH (every CI image and dev machine has it); nothing else is needed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export const NAMESPACE = "airlock-release";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function fail(message, code = 1) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(code);
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { cwd: root, encoding: "utf8", ...options });
  if (r.status !== 0)
    fail(`${command} ${args.join(" ")} failed (exit ${r.status}):\n${r.stdout ?? ""}${r.stderr ?? ""}`);
  return r.stdout;
}

export const sha256File = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");

function main() {
  let flags;
  try {
    flags = parseArgs({
      args: process.argv.slice(2),
      options: {
        key: { type: "string" },
        out: { type: "string" },
        "skip-build": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    fail(
      `${error.message}\nUsage: npm run release -- --key <ed25519 private key> [--out DIR] [--skip-build]`,
      2,
    );
  }
  if (flags.help) {
    process.stdout.write(
      "Usage: npm run release -- --key <ed25519 private key> [--out DIR] [--skip-build]\n\n" +
        "Writes DIR (default release/<version>/): the npm pack tarball, SHA256SUMS and SHA256SUMS.sig (ssh-keygen -Y sign,\n" +
        `namespace ${NAMESPACE}). The key may also come from AIRLOCK_RELEASE_KEY. Verify with npm run verify-release -- DIR.\n`,
    );
    return;
  }
  const key = flags.key ?? process.env.AIRLOCK_RELEASE_KEY;
  if (!key) fail("give the signing key: --key <ed25519 private key file> (or AIRLOCK_RELEASE_KEY)", 2);
  if (!existsSync(key)) fail(`no key file at ${key}`, 2);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const out = resolve(flags.out ?? join(root, "release", version));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  if (!flags["skip-build"]) {
    process.stdout.write("release: building (dist/, web/dist/)\n");
    run("npm", ["run", "-s", "build"], { stdio: ["ignore", "pipe", "pipe"] });
  }
  if (
    !existsSync(join(root, "dist", "companion", "cli.js")) ||
    !existsSync(join(root, "web", "dist", "index.html"))
  )
    fail("dist/ or web/dist/ is missing: run without --skip-build");
  // The build already ran: pack what it made, without npm running `prepare` (a second build) on the way.
  const packed = JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out]));
  const tarball = packed[0]?.filename;
  if (!tarball) fail("npm pack reported no tarball");

  const artifacts = [basename(tarball)];
  const sums = artifacts.map((file) => `${sha256File(join(out, file))}  ${file}\n`).join("");
  writeFileSync(join(out, "SHA256SUMS"), sums);
  rmSync(join(out, "SHA256SUMS.sig"), { force: true });
  run("ssh-keygen", ["-Y", "sign", "-q", "-f", key, "-n", NAMESPACE, join(out, "SHA256SUMS")]);
  process.stdout.write(
    `release: ${out}\n${sums}` +
      `  SHA256SUMS.sig (ssh-keygen -Y sign, namespace ${NAMESPACE})\n` +
      `Verify: npm run verify-release -- ${out}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
