// Red team round 12: `git log --format=%G?` verifies each commit's signature, so git runs gpg (or
// gpg.program) as `--show-signature` does, and gpg reads gpg.conf and its agent programs from GNUPGHOME:
// `GNUPGHOME=gh git log --format=%G?` ran the project's ./run.sh. Real git shows the run (a commit with a
// signature header, gpg.program a script that leaves a mark); the judge never allows a signature
// placeholder or a GNUPGHOME assignment, and plain formats stay allowed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BALANCED, judge, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

const base = mkdtempSync(join(tmpdir(), "airlock-rt12-gpg-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], {
    cwd: base,
    encoding: "utf8",
  }).trim();

describe("git formats that verify signatures", () => {
  it("real git runs gpg.program for %G? and not for a plain format", () => {
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "base");
    const tree = git("rev-parse", "HEAD^{tree}");
    const body = `tree ${tree}\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n`;
    writeFileSync(join(base, "c.txt"), body);
    git("reset", "-q", "--soft", git("hash-object", "-t", "commit", "-w", "c.txt"));
    const mark = join(base, "PWNED");
    writeFileSync(join(base, "run.sh"), `#!/bin/sh\ntouch '${mark}'\nexit 1\n`, { mode: 0o755 });
    git("-c", `gpg.program=${join(base, "run.sh")}`, "log", "--format=%h %s");
    expect(existsSync(mark)).toBe(false);
    git("-c", `gpg.program=${join(base, "run.sh")}`, "log", "--format=%h %G?");
    expect(existsSync(mark)).toBe(true);
  });

  it("never allows a signature placeholder or GNUPGHOME", () => {
    for (const command of [
      "git log --format=%G?",
      "GNUPGHOME=gh git log --format=%G?",
      "git log --pretty='format:%h %GS'",
      "git show -s --format=%GK HEAD",
      "git log --pretty=tformat:%GG",
      "GNUPGHOME=gh git log --oneline",
      "export GNUPGHOME=gh; git status",
    ])
      for (const [name, policy] of [["read-only", READ_ONLY], ...STRICT_PROFILES] as const)
        expect(judge(policy, command).action, `${name}: ${command}`).not.toBe("allow");
  });

  it("plain formats stay allowed", () => {
    for (const command of [
      "git log --format='%h %s'",
      "git log --pretty=oneline -5",
      "git show -s --format=%an HEAD",
    ])
      expect(judge(BALANCED, command).action, command).toBe("allow");
  });
});
