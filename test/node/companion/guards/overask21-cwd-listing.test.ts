// Round 21 over-ask (fix21f): `cd .. && ls` asked ("runs in a directory outside the workspace") while
// `ls ..`, the same listing, was allowed. ls and pwd read nothing from their working directory but their
// operands (`.` when none), which are judged where they resolve; any other program after the cd still asks.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeCommand } from "./judge-command.ts";

let parent: string;
let ws: string;
beforeAll(() => {
  parent = realpathSync(mkdtempSync(join(tmpdir(), "airlock-cdls-")));
  ws = join(parent, "ws");
  mkdirSync(join(ws, "secrets"), { recursive: true });
  writeFileSync(join(ws, "package.json"), '{"scripts":{"test":"node x.js"}}\n');
  writeFileSync(join(ws, "secrets", "key.txt"), "k\n");
  writeFileSync(join(parent, "package.json"), '{"scripts":{"test":"node evil.js"}}\n');
  writeFileSync(join(parent, "ls"), "#!/bin/sh\necho planted\n");
  chmodSync(join(parent, "ls"), 0o755);
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe("a listing after `cd ..`", () => {
  it.each([
    ["cd .. && ls", "ls .."],
    ["cd .. && ls -la", "ls -la .."],
    ["cd ..; pwd", "pwd"],
  ])("%s is judged as %s: allowed", (after, same) => {
    const r = judgeCommand(ws, after);
    expect(r.action, r.reason).toBe("allow");
    expect(judgeCommand(ws, same).action).toBe("allow");
  });

  it.each([
    "cd .. && cat package.json",
    "cd .. && git status",
    "cd .. && npm test",
    "cd .. && ./ls",
    "cd secrets && ls",
    'cd "$(mktemp -d)" && ls',
  ])("%s still asks", (command) => {
    expect(judgeCommand(ws, command).action).not.toBe("allow");
  });

  it("asks when PATH's relative entry makes `ls` the parent's own program", () => {
    const env = { PATH: `.:${process.env.PATH ?? "/usr/bin"}`, HOME: "/home/dev" };
    const r = judgeCommand(ws, "cd .. && ls", { env });
    expect(r.action).toBe("ask");
    expect(r.reason).toContain("relative entry");
  });
});
