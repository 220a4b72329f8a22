// One mechanism for shell writes onto package.json (fix23a): the disk fact of disk-targets.ts (a shell write
// leaves text that is not read, so a git-hook manager's key there may be set) now serves tee's and sed's writes
// too, which had a grammar twin (fix21d's mayRewriteManifest), and judges a glob's matches as it judges a named
// file. A link named otherwise onto package.json, which the grammar's name test missed, asks; so do cp onto it
// and a glob that matches it. touch and chmod put no text there and stay judged by path.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git } from "./disk-fixture.ts";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "airlock-fix23-pkg-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
mkdirSync(join(ws, "app"));
mkdirSync(join(ws, "tmpl"));
writeFileSync(join(ws, "tmpl", "package.json"), '{"lint-staged":{"*":"node x.js"}}\n');
writeFileSync(join(ws, "package.json"), '{"name":"c","version":"1.0.0"}\n');
writeFileSync(join(ws, "app", "package.json"), '{"name":"app"}\n');
writeFileSync(join(ws, "other.json"), '{"lint-staged":{"*":"node x.js"}}\n');
writeFileSync(join(ws, "notes.md"), "n\n");
git(ws, "init", "-q");
symlinkSync("package.json", join(ws, "manifest.json"));

describe("every shell write that leaves text in a package.json asks, under balanced and autonomous", () => {
  it.each([
    "echo x | tee package.json",
    "echo x | tee manifest.json",
    "echo x | tee app/pack*.json",
    "echo x | tee app/*",
    "sed -i s/c/d/ package.json",
    "sed -i s/c/d/ manifest.json",
    "sed -i s/c/d/ app/*.json",
    "sed -n 'w app/package.json' notes.md",
    "cp other.json package.json",
    "cp other.json manifest.json",
    "cp tmpl/package.json app/",
    "cat other.json > app/package.json",
  ])("%s", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS]) {
      const j = judgeCommand(ws, command, { policy });
      expect(j.action, `${command}: ${j.reason}`).not.toBe("allow");
    }
  });
});

describe("a glob's matches are judged as named files are", () => {
  it.each(["echo x | tee app/*", "echo x | tee app/p*", "sed -i s/c/d/ app/[p]ackage.json"])(
    "%s",
    (command) => {
      const j = judgeCommand(ws, command);
      expect(j.action).toBe("ask");
      expect(j.reason).toMatch(/is package\.json and what it leaves in package\.json is not known/);
    },
  );
});

describe("writes that leave no text there, or land elsewhere, stay edits under balanced", () => {
  it.each([
    "touch package.json",
    "chmod 644 package.json app/package.json",
    "echo x | tee notes.md",
    "sed -i s/n/m/ notes.md",
    "cp other.json copy.json",
  ])("%s", (command) => {
    const j = judgeCommand(ws, command);
    expect(j.action, `${command}: ${j.reason}`).toBe("allow");
  });
});
