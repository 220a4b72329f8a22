// Over-ask, round 19 (fix20e): git's printing subcommands (range-diff, format-patch --stdout, stripspace,
// interpret-trailers) judged on the disk. Their configuration keys that run or read something
// (trailer.<token>.command/.cmd, format.signatureFile) make every git unit in the repository ask, as
// core.pager and textconv drivers do (guards/git-config-programs.ts).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa20g-")));
const home = join(base, "home");
mkdirSync(home);
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A repository with two commits of README.md. */
function repo(): string {
  const ws = join(base, `ws${n++}`);
  mkdirSync(ws);
  writeFileSync(join(ws, "README.md"), "# r\n");
  git(ws, "init", "-q");
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "one");
  writeFileSync(join(ws, "README.md"), "# r\ntwo\n");
  git(ws, "commit", "-qam", "two");
  return ws;
}

/** A repository (as `repo()` makes one) with `entries` set in its own configuration. */
function configured(...entries: [key: string, value: string][]): string {
  const ws = repo();
  for (const [key, value] of entries) git(ws, "config", key, value);
  return ws;
}

const disk = diskCheck({ env: {} });
const judged = (command: string, ws: string) =>
  judgeOnDisk(BALANCED, { tool: "bash", input: { command }, cwd: ws, home }, { disk });
const action = (command: string, ws: string) => judged(command, ws).action;

const PRINTERS = [
  "git range-diff HEAD~1 HEAD",
  "git format-patch --stdout -1",
  "git stripspace < README.md",
  "git interpret-trailers README.md",
];

describe("git's printing subcommands on the disk", () => {
  const ws = repo();
  it.each(PRINTERS)("%s is allowed in a plain repository", (command) => {
    expect(action(command, ws)).toBe("allow");
  });
  it("their writing forms ask", () => {
    expect(action("git format-patch -1", ws)).not.toBe("allow");
    expect(action("git interpret-trailers --in-place README.md", ws)).not.toBe("allow");
  });
});

describe("a repository whose configuration runs a trailer command or reads a signature file", () => {
  it.each([
    ["trailer.x.command", "touch PWNED"],
    ["trailer.x.cmd", "touch PWNED"],
    ["format.signatureFile", "/etc/passwd"],
  ])("%s makes them ask", (key, value) => {
    const ws = configured([key, value]);
    for (const command of PRINTERS) {
      const r = judged(command, ws);
      expect(r.action, command).not.toBe("allow");
      expect(r.reasons.join("\n").toLowerCase(), command).toContain(`sets ${key.toLowerCase()}`);
    }
  });
  it("a signature file inside the project is the project's", () => {
    const ws = configured(["format.signatureFile", "sig.txt"]);
    writeFileSync(join(ws, "sig.txt"), "-- \nme\n");
    expect(action("git format-patch --stdout -1", ws)).toBe("allow");
  });
});

describe("git config --get-regexp PATTERN prints the entries whose key PATTERN matches", () => {
  it("git matches the pattern anywhere in the key, the remote's name too", () => {
    const ws = configured(["alias.st", "status"], ["remote.alias.url", "https://u:pw@example.com/r"]);
    expect(git(ws, "config", "--get-regexp", "alias")).toContain("remote.alias.url https://u:pw@");
  });

  it.each(["alias", "^alias\\.", "core"])(
    "%s is allowed when the keys it matches hold no credential",
    (p) => {
      const ws = configured(["alias.st", "status"], ["remote.origin.url", "https://example.com/r"]);
      expect(action(`git config --get-regexp '${p}'`, ws)).toBe("allow");
    },
  );

  it.each([
    ["remote.alias.url", "https://u:pw@example.com/r"],
    ["github.alias.token", "abc123"],
    ["http.https://alias.example.com/.extraheader", "AUTHORIZATION: basic eDp5"],
  ])("asks when a key it matches is %s", (key, value) => {
    const r = judged("git config --get-regexp alias", configured([key, value]));
    expect(r.action).not.toBe("allow");
    expect(r.reasons.join("\n")).toContain(key);
  });

  it.each([".", "url", "^http", "a", "alias|url", "token", "user"])(
    "%s may match a credential's key by name alone, so it is a read of the configuration (a secret)",
    (p) => {
      expect(action(`git config --get-regexp '${p}'`, repo())).not.toBe("allow");
    },
  );
});
