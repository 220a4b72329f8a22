// Red team rounds 16/17 (fix17b): a glob whose wildcard is in a directory's name (`ls -d ~/.s*h/*`,
// `echo ~/.s*h/*`) or that matches a directory a listing program lists (`ls ~/.ss*`) printed the names in
// ~/.ssh, while `ls ~/.ssh` asked: the text only knew the glob's fixed start (`~`). The disk now expands
// the glob as bash does and names each directory whose names it prints. Real bash is the oracle.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BALANCED } from "../../policy/shell/policies.ts";
import { type DiskFixture, diskFixture, judgeOnDisk } from "./disk-fixture.ts";

let fx: DiskFixture;
beforeAll(() => {
  fx = diskFixture();
  mkdirSync(join(fx.home, ".config", "app"), { recursive: true });
  writeFileSync(join(fx.home, ".config", "app", "ui.json"), "{}\n");
});
afterAll(() => fx.cleanup());

const judge = (command: string) =>
  judgeOnDisk(BALANCED, { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home });

function bash(command: string): string {
  return spawnSync("bash", ["-c", command], {
    cwd: fx.ws,
    env: { HOME: fx.home, PATH: process.env.PATH },
  }).stdout.toString();
}

describe("a glob through a secret directory's name", () => {
  it.each([
    "ls -d ~/.s*h/*",
    "echo ~/.s*h/*",
    "printf '%s\\n' ~/.[s]sh/*",
    "ls ~/.ss*",
    "for f in ~/.s?h/*; do echo $f; done",
  ])("%s prints the key's name in real bash, and asks", (command) => {
    expect(bash(command)).toContain("id_rsa");
    const r = judge(command);
    expect(r.action, `${command}\n${r.reasons.join("\n")}\n${r.why}`).toBe("ask");
    expect(r.why).toContain(".ssh");
  });

  it.each(["ls src/*", "echo s*/*.ts", "ls -d ~/.con*/*", "echo ~/.c*/app/*"])(
    "%s lists no secret directory, and is allowed",
    (command) => {
      const r = judge(command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}\n${r.why}`).toBe("allow");
    },
  );
});
