// Over-ask, round 19 (fix20e): `grep -rn TODO .` over a cloned project asked because the walk reaches
// `.git/config`, a possible credential store, even when it holds none. A repository's configuration is now
// judged by what it holds: every line placed by git's grammar and no entry a credential (a URL with
// user-info, an extra header, a key named for a token or password, a token's shape); and a pack, whose first
// bytes hold a NUL, is printed as nothing by a search that shows binary files as nothing (grep without -a).
// Loose objects (not binary from the start) still ask, as round 14 decided.
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa20c-")));
const home = join(base, "home");
mkdirSync(home);
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A project cloned over a transport (its history in one pack), its configuration with `extra` appended. */
function cloned(extra = ""): string {
  const origin = join(base, `origin${n}`);
  const ws = join(base, `ws${n++}`);
  mkdirSync(join(origin, "src"), { recursive: true });
  writeFileSync(join(origin, "src", "a.ts"), "export const a = 1; // TODO\n");
  git(origin, "init", "-q");
  git(origin, "add", "-A");
  git(origin, "commit", "-qm", "init");
  execFileSync("git", ["clone", "-q", `file://${origin}`, ws]);
  if (extra !== "") appendFileSync(join(ws, ".git", "config"), extra);
  return ws;
}

const disk = diskCheck({ env: {} });
const judged = (command: string, ws: string) =>
  judgeOnDisk(BALANCED, { tool: "bash", input: { command }, cwd: ws, home }, { disk });

describe("a recursive grep over a cloned project", () => {
  it("grep prints nothing of a pack, and a plain .git/config holds nothing secret", () => {
    const ws = cloned();
    const out = spawnSync("grep", ["-rn", "TODO", "."], { cwd: ws, encoding: "utf8" }).stdout;
    expect(out).toContain("src/a.ts:1:");
    expect(out).not.toMatch(/\.pack:|\.idx:/);
    for (const command of ["grep -rn TODO --exclude-dir=node_modules .", "grep -rIn TODO ."])
      expect(judged(command, ws).action, command).toBe("allow");
  });

  it.each([
    ["a remote URL with a password", '[remote "up"]\n\turl = https://u:hunter2@example.com/r\n'],
    ["a remote URL with a token as user", '[remote "up"]\n\turl = https://tok123@example.com/r\n'],
    ["an extra header", '[http "https://example.com/"]\n\textraheader = AUTHORIZATION: basic eDp5\n'],
    ["a key named for a token", "[github]\n\ttoken = abc123\n"],
    ["a key named for a password", "[sendemail]\n\tsmtpPass = hunter2\n"],
    ["a line git's grammar here does not place", "[github]\n\tapi_token abc123\n"],
  ])("asks when .git/config holds %s", (_, extra) => {
    const ws = cloned(extra);
    const r = judged("grep -rn TODO .", ws);
    expect(r.action).not.toBe("allow");
    expect(r.reasons.join("\n")).toMatch(/\.git\/config/);
  });

  it("grep -a prints a pack's bytes, and loose objects are not binary from the start: both ask", () => {
    const ws = cloned();
    expect(judged("grep -rna TODO .", ws).action).not.toBe("allow");
    writeFileSync(join(ws, "b.txt"), "b\n");
    git(ws, "add", "b.txt");
    git(ws, "commit", "-qm", "b");
    expect(judged("grep -rn TODO .", ws).reasons.join("\n")).toContain("raw object file");
  });
});
