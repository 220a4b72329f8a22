// Over-asks, round 17: everyday programs that asked under the starter policies only because they had no
// grammar, or no form of it here — groups, getconf, git symbolic-ref, gofmt -l, pip check, `node -p
// process.version`, `shopt -s dotglob` before globless commands — judged as the
// companion judges them (the policy, then the disk) on the sample repository. Their dangerous neighbours
// (a write, a program run, a secret read, a word known only at run time) are never allowed.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import {
  AUTONOMOUS as autonomous,
  BALANCED as balanced,
  type Judged,
  judgeCommand,
} from "./judge-command.ts";

let ws: string;

beforeAll(() => {
  ws = sampleWorkspace();
  // A .go file that is a link to the workspace's .env: gofmt opens it, and quotes what it cannot parse.
  mkdirSync(join(ws, "pkg"));
  symlinkSync(join(ws, ".env"), join(ws, "pkg", "env.go"));
  mkdirSync(join(ws, "clean"));
  writeFileSync(join(ws, "clean", "a.go"), "package clean\n");
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const judged = (command: string, policy = balanced): Judged => judgeCommand(ws, command, { policy });

describe("everyday system and repository queries are allowed", () => {
  it.each([
    "groups",
    "groups root",
    "getconf PAGESIZE",
    "getconf -a",
    "getconf PATH_MAX .",
    "git symbolic-ref --short HEAD",
    "git symbolic-ref -q HEAD",
    "git symbolic-ref refs/remotes/origin/HEAD",
    "gofmt -l clean",
    "gofmt -l main.go",
    "gofmt -d main.go",
    "pip check",
    "node -p process.version",
    "node -p 'process.versions.node'",
    "node --print=process.arch",
    "shopt -s dotglob; ls",
    "shopt -s dotglob nullglob; git status",
  ])("%s is allowed under balanced and autonomous", (command) => {
    for (const policy of [balanced, autonomous]) {
      const { action, reason } = judged(command, policy);
      expect(action, reason).toBe("allow");
    }
  });
});

describe("their neighbours that write, run, read a secret or hide a word", () => {
  it.each([
    "groups > ~/.bashrc",
    'groups "$(cat .env)" x',
    "getconf -v POSIX_V7_LP64_OFF64 PAGESIZE",
    "getconf PAGESIZE / extra",
    "git symbolic-ref HEAD refs/heads/evil",
    "git symbolic-ref -- HEAD refs/heads/evil",
    "git symbolic-ref -d HEAD",
    "git symbolic-ref --delete HEAD",
    "git symbolic-ref -m why HEAD refs/heads/x",
    "gofmt -w main.go",
    "gofmt -l -w .",
    "gofmt -cpuprofile out.prof main.go",
    "gofmt -l .env",
    "gofmt -l pkg",
    "gofmt -l ~/.ssh",
    "pip check --python ./evil",
    "node -p process.env",
    "node -p process.env.API_KEY",
    `node -p 'require("fs").readFileSync(".env", "utf8")'`,
    "node -p process.version.constructor.constructor('return process')()",
    "node -p process.version scripts/build.js",
    "node -pe process.version",
    // dotglob makes a later glob match .env: that glob asks.
    "shopt -s dotglob; cat *",
    "shopt -s dotglob; wc -l src/* .e*",
    "bash -O dotglob -c 'ls'",
  ])("%s is never allowed", (command) => {
    for (const policy of [balanced, autonomous]) {
      const { action, reason } = judged(command, policy);
      expect(action, `${command}: ${reason}`).not.toBe("allow");
    }
  });
});

it("node -p after a preload runs the preload first: balanced asks, as for running the file", () => {
  const { action, reason } = judged("node -r ./scripts/build.js -p process.version");
  expect(action, reason).not.toBe("allow");
});
