// Never (red team, round 11): a version manager's shim prints what a version file says. pyenv's
// `python3` reads `.python-version` in the directory it runs in and every one above, and echoes a word
// it rejects: `.python-version -> ~/.git-credentials` made `python3 --version` print the credential.
// A version file (pyenv, asdf, mise, nodenv, rbenv, rustup) that links onto a secret, or in the
// workspace links out of it or is a hard link, makes the command ask; a plain one changes nothing.
import { spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

mkdirSync("/tmp/rt11fix", { recursive: true });
const base = mkdtempSync("/tmp/rt11fix/versions-");
const home = join(base, "home");
const ws = join(base, "proj");
const outside = join(base, "outside");
mkdirSync(home, { recursive: true });
mkdirSync(outside, { recursive: true });
mkdirSync(join(ws, "sub"), { recursive: true });
const credentials = join(home, ".git-credentials");
writeFileSync(credentials, "https://u:GITCREDSECRET@github.com\n");
writeFileSync(join(outside, "notes.txt"), "PRIVATE_NOTE\n");
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(command: string, cwd = ws) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd, home }, { disk }),
  );
}

function withLink(make: () => void, path: string, fn: () => void): void {
  make();
  try {
    fn();
  } finally {
    rmSync(path, { force: true });
  }
}

const PYENV = "/root/.pyenv";

describe("a version file a shim reads", () => {
  it.skipIf(!existsSync(join(PYENV, "shims", "python3")))(
    "real pyenv prints a linked .python-version's words",
    () => {
      const file = join(ws, ".python-version");
      withLink(
        () => symlinkSync(credentials, file),
        file,
        () => {
          const r = spawnSync("python3", ["--version"], {
            cwd: ws,
            encoding: "utf8",
            env: { HOME: home, PYENV_ROOT: PYENV, PATH: `${PYENV}/shims:${PYENV}/bin:/usr/bin:/bin` },
          });
          expect(r.stderr).toContain("GITCREDSECRET");
        },
      );
    },
  );

  it("python3 --version with no version file, or a plain one, is allowed", () => {
    for (const r of judge("python3 --version")) expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
    const file = join(ws, ".python-version");
    withLink(
      () => writeFileSync(file, "3.11\n"),
      file,
      () => {
        for (const r of judge("python3 --version")) expect(r.action, r.why).toBe("allow");
      },
    );
  });

  it.each([".python-version", ".tool-versions", ".node-version", ".nvmrc", ".ruby-version"])(
    "%s linked onto a secret, out of the workspace, or hard-linked makes the command ask",
    (name) => {
      const file = join(ws, name);
      const makers: [() => void, boolean][] = [
        [() => symlinkSync(credentials, file), true],
        [() => symlinkSync(join(outside, "notes.txt"), file), false],
        [() => linkSync(join(outside, "notes.txt"), file), false],
      ];
      for (const [make, secret] of makers)
        withLink(make, file, () => {
          for (const command of ["python3 --version", "node --version", "cd sub && python3 --version"])
            for (const r of judge(command)) {
              expect(r.action, `${name}: ${command}\n${r.why}`).not.toBe("allow");
              expect(r.why).toContain(name);
            }
          // Above the session's directory, only a link onto a secret: the person's own links are theirs.
          for (const r of judge("python3 --version", join(ws, "sub")))
            expect(r.action === "allow", `${name} above the workspace\n${r.why}`).toBe(!secret);
        });
    },
  );
});

describe("a manifest or configuration a program parses and quotes back (red team, round 11)", () => {
  it.each([
    ["package.json", "npm ls --json --long"],
    ["Cargo.toml", "cargo read-manifest"],
    [".cargo/config.toml", "cargo pkgid"],
  ])("%s linked onto a secret makes `%s` ask; a plain one does not", (name, command) => {
    const file = join(ws, name);
    mkdirSync(join(ws, ".cargo"), { recursive: true });
    withLink(
      () => symlinkSync(credentials, file),
      file,
      () => {
        for (const c of [command, `cd sub && ${command}`])
          for (const r of judge(c)) {
            expect(r.action, `${c}\n${r.why}`).not.toBe("allow");
            expect(r.why).toContain(name);
          }
      },
    );
    withLink(
      () => writeFileSync(file, "{}\n"),
      file,
      () => {
        for (const r of judge(command)) expect(r.why).not.toContain(name);
      },
    );
  });
});
