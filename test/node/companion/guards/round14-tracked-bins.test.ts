// Never (red team, round 14, r14-14): a node_modules the repository itself tracks is the repository's code,
// not an install the person ran. With `node_modules/typescript/bin/tsc` committed (a clone has it without any
// install), `npx tsc --version` ran the committed script and printed ~/.netrc while the judge allowed it as an
// installed bin. npx's bin (or the file it links to) tracked in the workspace's index now asks; the same tree
// installed and ignored (the everyday case) stays allowed.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

let base: string;
let ws: string;

/** A workspace with typescript's bin in node_modules, linked from .bin as npm links it. */
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt14-bins-")));
  ws = join(base, "ws");
  mkdirSync(join(ws, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(ws, "node_modules", "typescript", "bin"), { recursive: true });
  writeFileSync(join(ws, "package.json"), '{"name":"app","devDependencies":{"typescript":"5.6.0"}}\n');
  writeFileSync(
    join(ws, "node_modules", "typescript", "package.json"),
    '{"name":"typescript","bin":{"tsc":"bin/tsc"}}\n',
  );
  writeFileSync(join(ws, "node_modules", "typescript", "bin", "tsc"), '#!/bin/sh\necho "Version 5.6.0"\n');
  chmodSync(join(ws, "node_modules", "typescript", "bin", "tsc"), 0o755);
  symlinkSync("../typescript/bin/tsc", join(ws, "node_modules", ".bin", "tsc"));
  git(ws, "init", "-q", ".");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const judge = (command: string, policy = BALANCED) =>
  judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") });

describe("npx and a node_modules the repository tracks", () => {
  it("asks when the bin or the file it runs is committed (written first)", () => {
    git(ws, "add", "-f", "node_modules", "package.json");
    git(ws, "commit", "-qm", "vendor typescript");
    for (const policy of [BALANCED, AUTONOMOUS])
      for (const command of ["npx tsc --version", "npx --no-install tsc --version"]) {
        const r = judge(command, policy);
        expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
        expect(r.why, command).toMatch(/tracks|repository's own/);
      }
  });

  it("asks when only the file the bin links to is tracked", () => {
    git(ws, "add", "-f", "node_modules/typescript/bin/tsc");
    git(ws, "commit", "-qm", "vendor the script only");
    expect(judge("npx tsc --version").action).not.toBe("allow");
  });

  it("an installed, ignored node_modules stays allowed", () => {
    writeFileSync(join(ws, ".gitignore"), "node_modules/\n");
    git(ws, "add", "-A");
    git(ws, "commit", "-qm", "init");
    for (const policy of [BALANCED, AUTONOMOUS]) {
      const r = judge("npx tsc --version", policy);
      expect(r.action, `${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });
});
