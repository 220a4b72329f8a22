// Red team, round 22 (over-ask): `sha256sum -c SHA256SUMS` asked as not understood, since --check reads every
// file the list names. The disk now reads each list (policy/checksum-lines.ts, guards/checksum-lists.ts) and
// judges every name any reading of a line gives as a read where the check runs: outside the workspace, a secret,
// a link out or a hard link asks, as do a line not read, a list on standard input and a list the command wrote
// first. The property runs the real sha256sum as the oracle of which files a check opens.
import { execFileSync } from "node:child_process";
import { linkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checksumNames } from "../../../../src/policy/checksum-lines.ts";
import { isDenylistedPath } from "../../../../src/policy/secret-paths.ts";
import { gitWorkspace, write } from "./disk-fixture.ts";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

const { base, ws, home } = gitWorkspace(
  "airlock-r22-sums-",
  { "README.md": "# app\n", "package.json": "{}\n", "src/a.js": "x\n", ".gitignore": ".env\nsecrets/\n" },
  {
    ".ssh/id_ed25519":
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n",
  },
);
write(join(ws, ".env"), "API_KEY=1234\n");
write(join(ws, "secrets/token"), "t0k3n\n");
symlinkSync(join(home, ".ssh", "id_ed25519"), join(ws, "key-link"));
write(join(base, "outside.txt"), "outside\n");
linkSync(join(base, "outside.txt"), join(ws, "hard.txt"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const H = "f".repeat(64);
const listed = (...lines: string[]) => `${lines.join("\n")}\n`;
write(join(ws, "SHA256SUMS"), listed(`${H}  README.md`, `${H} *src/a.js`, `${H}  package.json`));
write(join(ws, "dist/SHA256SUMS"), listed(`${H}  ../README.md`));

const PROFILES = [
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;

/** The list `name` holding `lines`, then the check of it judged under `policy`. */
function checkOf(name: string, lines: string[], policy = BALANCED, program = "sha256sum -c") {
  write(join(ws, "lists", name), listed(...lines));
  return judgeCommand(ws, `${program} lists/${name}`, { policy });
}

describe("r22: checking a list of workspace files is allowed", () => {
  it.each(PROFILES)("%s: every checker and spelling", (_, policy) => {
    for (const command of [
      "sha256sum -c SHA256SUMS",
      "sha256sum --check --quiet SHA256SUMS",
      "sha256sum -c --ignore-missing --strict SHA256SUMS",
      "md5sum -c SHA256SUMS",
      "sha512sum --check SHA256SUMS",
      "b2sum -c SHA256SUMS",
      "cd dist && sha256sum -c SHA256SUMS",
    ])
      expect(judgeCommand(ws, command, { policy }), command).toMatchObject({ action: "allow" });
  });
  it("the BSD tag form, an escaped line, comments, blank lines and CRLF", () => {
    const lines = [
      `SHA256 (README.md) = ${H}`,
      `\\${H}  src/a.js`,
      "# made by release.sh",
      "",
      `${H}  package.json\r`,
    ];
    expect(checkOf("forms.sums", lines).action).toBe("allow");
  });
});

describe("r22: a list naming what the judge protects asks", () => {
  const ASKS: [string, string[], RegExp][] = [
    ["env", [`${H}  .env`], /`\.env`.*a secret/],
    ["binary-env", [`${H} *.env`], /a secret/],
    ["tagged-env", [`SHA256 (.env) = ${H}`], /a secret/],
    ["escaped-env", [`\\${H}  .env`], /a secret/],
    ["secrets-dir", [`${H}  README.md`, `${H}  secrets/token`], /a secret/],
    ["climbs", [`${H}  ../outside.txt`], /outside the workspace/],
    ["absolute", [`${H}  /etc/hostname`], /outside the workspace/],
    ["home-key", [`${H}  ${home}/.ssh/id_ed25519`], /outside the workspace/],
    ["link-out", [`${H}  key-link`], /is a link to .*a secret/],
    ["hard-link", [`${H}  hard.txt`], /a hard link/],
    ["stdin", [`${H}  -`], /standard input/],
    ["unread", [`${H}  README.md`, "not a checksum line"], /does not read/],
    ["bad-escape", [`\\${H}  a\\tb`], /does not read/],
    ["nul", [`${H}  README.md\0.env`], /does not read/],
  ];
  it.each(PROFILES)("%s: each asks, naming why", (_, policy) => {
    for (const [name, lines, why] of ASKS) {
      const r = checkOf(`${name}.sums`, lines, policy);
      expect(r, name).toMatchObject({ action: "ask" });
      expect(r.reason, name).toMatch(why);
    }
  });
  it("so does the same list under md5sum and cksum", () => {
    for (const program of ["md5sum -c", "cksum -a sha256 --check", "b2sum --check"])
      expect(checkOf("env.sums", [`${H}  .env`], BALANCED, program).action, program).toBe("ask");
  });
  it.each(PROFILES)("%s: a list the check cannot see, or one written first, asks", (_, policy) => {
    for (const command of [
      "sha256sum -c",
      "sha256sum -c - < SHA256SUMS",
      "cat SHA256SUMS | sha256sum -c",
      "sha256sum -c lists/*.sums",
      `printf '${H}  README.md\\n' > fresh.sums; sha256sum -c fresh.sums`,
      `echo '${H}  .env' >> SHA256SUMS && sha256sum -c SHA256SUMS`,
      "sha256sum -c ../outside.txt",
    ])
      expect(judgeCommand(ws, command, { policy }).action, command).not.toBe("allow");
  });
  it("a list that is not UTF-8 asks (its names would be judged as other names)", () => {
    writeFileSync(join(ws, "lists", "latin1.sums"), Buffer.from(`${H}  caf\xe9\n`, "latin1"));
    expect(judgeCommand(ws, "sha256sum -c lists/latin1.sums").action).toBe("ask");
  });
});

describe("checksumNames", () => {
  it.each([
    [`${H}  a b`, ["a b", " a b"]],
    [`${H} *bin`, ["bin", "*bin"]],
    [`${H} plain`, ["plain"]],
    [`${H}\t x`, ["x", " x"]],
    [`  \\${H}  a\\\\b\\nc`, ["a\\b\nc", " a\\b\nc"]],
    [`SHA256 (a (1).txt) = ${H}`, ["a (1).txt"]],
    [`BLAKE2b-256(x) = ${H}`, ["x"]],
    ["# comment", []],
    ["", []],
  ])("%j gives %j", (line, names) => {
    expect(checksumNames(`${line}\n`)).toEqual({ names });
  });
  it.each(["garbage line", "   ", `${H}`, `\\${H}  a\\x`, `${H}  a\0b`, "abc  x"])(
    "%j is not read",
    (line) => {
      expect(checksumNames(`${line}\n`)).toHaveProperty("unread");
    },
  );
});

/** The files the real sha256sum opens for a list: the names its verdict lines print (none hold `\` or newlines). */
function openedByRealCheck(list: string): string[] {
  let out: string;
  try {
    out = execFileSync("sha256sum", ["-c", list], {
      cwd: ws,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (error) {
    out = String((error as { stdout?: string }).stdout ?? "");
  }
  return out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.replace(/: (OK|FAILED.*)$/, ""));
}

const NAMES = [
  "README.md",
  "src/a.js",
  ".env",
  "secrets/token",
  "../outside.txt",
  "key-link",
  "hard.txt",
  "/etc/hostname",
  " .env",
  "*.env",
  "x (1)",
];
const LINE = fc
  .tuple(
    fc.constantFrom(...NAMES),
    fc.constantFrom("text", "binary", "reversed", "tagged", "escaped", "indented", "crlf"),
  )
  .map(([name, form]) => {
    switch (form) {
      case "text":
        return `${H}  ${name}`;
      case "binary":
        return `${H} *${name}`;
      case "reversed":
        return `${H} ${name}`;
      case "tagged":
        return `SHA256 (${name}) = ${H}`;
      case "escaped":
        return `\\${H}  ${name}`;
      case "indented":
        return ` \t${H}  ${name}`;
      default:
        return `${H}  ${name}\r`;
    }
  });

describe("property: an allowed check opens no file outside the workspace and no secret", () => {
  it("the real sha256sum opens only workspace files that are not secrets, links out or hard links", () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(LINE, { minLength: 1, maxLength: 4 }), (lines) => {
        const name = `p${n++}.sums`;
        const r = checkOf(name, lines);
        if (r.action !== "allow") return;
        for (const opened of openedByRealCheck(join("lists", name))) {
          const abs = resolve(ws, opened);
          const rel = relative(ws, abs);
          expect(rel.startsWith("..") || isAbsolute(rel), `${opened} in ${lines.join(" | ")}`).toBe(false);
          expect(isDenylistedPath(rel), opened).toBe(false);
          expect(["key-link", "hard.txt"]).not.toContain(rel);
        }
      }),
      { numRuns: 60 },
    );
  });
});
