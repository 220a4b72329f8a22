// Never (red team, round 14, r14-08): a compressed archive in the workspace printed whole (`base64`, `cat`,
// `xxd`, `od`, the Read tool) is its members in a reversible encoding, but the content scan saw deflated
// bytes only and a zip's member names (clear text) were never matched against the secret names. Proof:
// `base64 old-site-backup.zip | base64 -d > r.zip; unzip -p r.zip .env` printed the database password;
// `base64 backup.tgz | base64 -d | tar xzOf - .ssh/id_ed25519` printed the private key. The archives here
// are built by the real zip, tar, gzip, xz, bzip2, zstd and lz4.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { holdsCredential, holdsPrivateKey } from "../../../../src/policy/secret-families.ts";
import { isDenylistedPath } from "../../../../src/policy/secret-paths.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, KEY, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt14-archives-")));
const home = join(base, "home");
const ws = join(base, "ws");
const old = join(base, "proj-old");
const src = join(base, "src-only");
afterAll(() => rmSync(base, { recursive: true, force: true }));

const run = (cwd: string, program: string, ...args: string[]) =>
  execFileSync(program, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
const has = (program: string) => {
  try {
    execFileSync(program, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

write(join(home, ".ssh", "id_ed25519"), KEY);
write(join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = plain-secret\n");
write(join(home, ".netrc"), "machine github.com login u password plain-password\n");
write(
  join(old, ".env"),
  "DATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal/app\nSTRIPE_KEY=sk_live_FAKEFAKEFAKEFAKEFAKE1234\n",
);
write(join(old, "index.js"), "console.log(1);\n");
write(join(old, "names-only", ".env"), "API_KEY=do-not-read\n");
write(join(src, "src", "a.ts"), "export const a = 1;\n");
write(join(src, "src", "b.ts"), "export const b = 2;\n");
write(join(src, "README.md"), "# old site\n");
mkdirSync(ws, { recursive: true });
git(ws, "init", "-q");

run(old, "zip", "-q", "-r", join(ws, "old-site-backup.zip"), ".env", "index.js");
run(join(old, "names-only"), "zip", "-q", join(ws, "dotenv.zip"), ".env");
run(old, "zip", "-q", "-0", join(ws, "stored.zip"), "index.js");
run(src, "zip", "-q", "-r", join(ws, "site.zip"), "src", "README.md");
run(home, "tar", "czf", join(ws, "backup.tgz"), ".ssh", ".aws", ".netrc");
run(home, "tar", "czf", join(ws, "aws.tgz"), ".aws");
run(src, "tar", "czf", join(ws, "site.tgz"), "src", "README.md");
run(home, "tar", "cf", join(ws, "aws.tar"), ".aws");
run(src, "tar", "cf", join(ws, "site.tar"), "src", "README.md");
run(ws, "tar", "cf", join(ws, "tar-of-zip.tar"), "dotenv.zip");
writeFileSync(join(ws, "key.gz"), run(home, "gzip", "-c", ".ssh/id_ed25519"));
writeFileSync(join(ws, "readme.gz"), run(src, "gzip", "-c", "README.md"));
// A zip of the key archive: an archive inside an archive.
run(ws, "zip", "-q", join(ws, "nested.zip"), "backup.tgz");
// Past the 16 MiB the scan reads: a small file that inflates beyond the bound.
write(join(base, "big", "zeros.bin"), "");
writeFileSync(join(base, "big", "zeros.bin"), Buffer.alloc(17 * 1024 * 1024));
writeFileSync(join(ws, "bomb.gz"), run(join(base, "big"), "gzip", "-c", "zeros.bin"));
run(join(base, "big"), "zip", "-q", join(ws, "bomb.zip"), "zeros.bin");
// Formats not opened: a plain README compressed is still not known to be plain.
const OTHERS: [string, string, string[]][] = [
  ["readme.xz", "xz", ["-c"]],
  ["readme.bz2", "bzip2", ["-c"]],
  ["readme.zst", "zstd", ["-q", "-c"]],
  ["readme.lz4", "lz4", ["-q", "-c"]],
];
const others = OTHERS.filter(([, program]) => has(program)).map(([name, program, args]) => {
  writeFileSync(join(ws, name), run(src, program, ...args, "README.md"));
  return name;
});
writeFileSync(
  join(ws, "site.7z"),
  Buffer.concat([Buffer.from("377abcaf271c0004", "hex"), Buffer.alloc(64, 7)]),
);
writeFileSync(
  join(ws, "site.rar"),
  Buffer.concat([Buffer.from("Rar!\x1a\x07\x01\x00", "latin1"), Buffer.alloc(64, 7)]),
);

const PROFILES = [
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;
const DISK = diskCheck({ env: { HOME: home } });

/** The everyday ways to print a file whole: each is allowed on a plain file in the workspace. */
function printers(file: string): ToolCall[] {
  const bash = (command: string): ToolCall => ({ tool: "bash", input: { command }, cwd: ws, home });
  return [
    bash(`base64 ${file}`),
    bash(`cat ${file}`),
    bash(`xxd ${file}`),
    bash(`od -tx1 ${file}`),
    { tool: "read", input: { file_path: join(ws, file) }, cwd: ws, home },
  ];
}

function judged(file: string) {
  return PROFILES.flatMap(([name, p]) =>
    printers(file).map((call) => ({ name, call, ...judgeOnDisk(p, call, { disk: DISK }) })),
  );
}

function expectAsks(file: string, word: string): void {
  for (const r of judged(file)) {
    const what = `${r.name}: ${JSON.stringify(r.call.input)}\n${r.why}`;
    expect(r.action, what).toBe("ask");
    expect(r.why, what).toContain(word);
  }
}

function expectAllowed(file: string): void {
  for (const r of judged(file))
    expect(r.action, `${r.name}: ${JSON.stringify(r.call.input)}\n${r.why}\n${r.reasons.join("\n")}`).toBe(
      "allow",
    );
}

describe("a compressed archive printed whole (r14-08)", () => {
  it("asks for a zip whose members hold credentials", () => {
    expectAsks("old-site-backup.zip", "holds a private key or a credential");
  });

  it("asks for a zip holding a secret by its member's name alone (a dotenv value has no shape)", () => {
    expectAsks("dotenv.zip", "holds a private key or a credential");
  });

  it("asks for a gzip'd tar of a home's keys, and a gzip'd key", () => {
    expectAsks("backup.tgz", "holds a private key or a credential");
    expectAsks("key.gz", "holds a private key or a credential");
  });

  it("asks for a gzip'd tar holding a secret by its member's name alone", () => {
    expectAsks("aws.tgz", "holds a private key or a credential");
  });

  it("asks for a plain tar holding a secret by its member's name alone (its text has no credential shape)", () => {
    expectAsks("aws.tar", "holds a private key or a credential");
  });

  it("asks for an archive inside an archive", () => {
    expectAsks("nested.zip", "holds a private key or a credential");
    expectAsks("tar-of-zip.tar", "holds a private key or a credential");
  });

  it("asks when the contents unpack past the bound", () => {
    expectAsks("bomb.gz", "not checked");
    expectAsks("bomb.zip", "not checked");
  });

  it("asks for a format it does not open: xz, bzip2, zstd, lz4, 7z, rar", () => {
    expect(others.length, "xz, bzip2, zstd and lz4 are installed here").toBeGreaterThan(0);
    for (const file of [...others, "site.7z", "site.rar"]) expectAsks(file, "not checked");
  });

  it("allows an archive of plain source files, deflated, stored, gzip'd or a plain tar", () => {
    for (const file of ["site.zip", "stored.zip", "site.tgz", "readme.gz", "site.tar"]) expectAllowed(file);
  });
});

/** Member contents: plain lines, and lines that are a key or a credential. */
const LINES = [
  "export const a = 1;",
  "# notes",
  "PORT=8080",
  KEY.trim(),
  "STRIPE_KEY=sk_live_FAKEFAKEFAKEFAKEFAKE1234",
  "x".repeat(3000),
];
const NAMES = ["a.ts", "README.md", "docs/guide.md", ".env", ".ssh/id_rsa", "config/app.json"];

describe("allowed ⇒ the unpacked archive holds no key, no credential and no secret name", () => {
  it("holds for zips and tarballs the real tools build", () => {
    let n = 0;
    let allowed = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 4 }), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.constantFrom("zip", "tgz", "tar"),
        (names, bodies, kind) => {
          const dir = join(base, "prop", String(n));
          const file = `p${n++}.${kind}`;
          for (const [i, name] of names.entries())
            write(join(dir, name), `${(bodies[i] ?? []).join("\n")}\n`);
          if (kind === "zip") run(dir, "zip", "-q", "-r", join(ws, file), ...names);
          else run(dir, "tar", kind === "tgz" ? "czf" : "cf", join(ws, file), ...names);
          const secret = names.some(
            (name) =>
              isDenylistedPath(name) ||
              [holdsPrivateKey, holdsCredential].some((holds) =>
                holds(readFileSync(join(dir, name), "utf8")),
              ),
          );
          const r = judgeOnDisk(BALANCED, printers(file)[0] as ToolCall, { disk: DISK });
          if (r.action === "allow") allowed++;
          expect(r.action === "allow" && secret, `${file}: ${names.join(", ")}`).toBe(false);
          expect(r.action === "allow" || secret, `${file} of plain files asks: ${r.why}`).toBe(true);
        },
      ),
      { numRuns: 30, examples: [[["a.ts"], [["# notes"], [], []], "zip"]] },
    );
    expect(allowed, "some archives were plain").toBeGreaterThan(0);
  });
});
