#!/usr/bin/env node
// `npm run verify-release -- <dir> [--signers FILE]`: checks a release before anyone installs it, offline.
//   1. SHA256SUMS.sig is a valid SSH signature of SHA256SUMS, namespace "airlock-release", by a key in the signer
//      list (default release/allowed_signers in this repository, identity "airlock-release")
//   2. every file SHA256SUMS lists is there and has that SHA-256
// Exit 0 verified; 1 a bad or missing signature, a missing file or a checksum mismatch; 2 bad usage.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const NAMESPACE = "airlock-release";
const IDENTITY = "airlock-release";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function usage(message) {
  process.stderr.write(
    `verify-release: ${message}\nUsage: npm run verify-release -- <dir> [--signers FILE]\n`,
  );
  process.exit(2);
}

function bad(message) {
  process.stderr.write(`verify-release: NOT VERIFIED: ${message}\n`);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { signers: { type: "string" } },
  });
} catch (error) {
  usage(error.message);
}
const [dirArg] = parsed.positionals;
if (!dirArg || parsed.positionals.length > 1) usage("give the release directory");
const dir = resolve(dirArg);
const signers = resolve(parsed.values.signers ?? join(root, "release", "allowed_signers"));
if (!existsSync(signers)) usage(`no signer list at ${signers}`);
const sums = join(dir, "SHA256SUMS");
const sig = join(dir, "SHA256SUMS.sig");
for (const file of [sums, sig]) if (!existsSync(file)) bad(`${basename(file)} is missing from ${dir}`);

const checked = spawnSync(
  "ssh-keygen",
  ["-Y", "verify", "-f", signers, "-I", IDENTITY, "-n", NAMESPACE, "-s", sig],
  { input: readFileSync(sums), encoding: "utf8" },
);
if (checked.status !== 0)
  bad(
    `the signature of SHA256SUMS does not verify against ${signers}: ${(checked.stderr || checked.stdout).trim()}`,
  );

const lines = readFileSync(sums, "utf8").split("\n").filter(Boolean);
if (lines.length === 0) bad("SHA256SUMS lists no files");
for (const line of lines) {
  const match = /^([0-9a-f]{64}) {2}([^/\\]+)$/.exec(line);
  if (!match) bad(`SHA256SUMS has a malformed line: ${JSON.stringify(line)}`);
  const [, expected, file] = match;
  const path = join(dir, file);
  if (!existsSync(path)) bad(`${file} is listed in SHA256SUMS but missing`);
  const actual = createHash("sha256").update(readFileSync(path)).digest("hex");
  if (actual !== expected) bad(`${file} has SHA-256 ${actual}, SHA256SUMS says ${expected}`);
}
process.stdout.write(
  `verify-release: verified ${lines.length} file(s) in ${dir}: signature by ${IDENTITY} (${signers}), checksums match\n`,
);
