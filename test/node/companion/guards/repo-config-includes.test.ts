// A repository whose .git/config includes a team-shared file (`[include] path = ../.gitconfig`) made every
// git call ask, whatever the file set (round 16 over-asks, fix16g). The include is followed instead, as the
// user's layers are (git-config-layers.ts), and what it pulls in is judged as the project's configuration:
// a program key there (or in a file it includes in turn) asks, and so does an include the judge cannot
// follow (`~user/`, `%(prefix)/`) or a device it will not read.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { type Judged, judgeCommand } from "./judge-command.ts";

let ws: string;

beforeAll(() => {
  ws = sampleWorkspace();
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

/** HOME names no directory here: only the repository's own configuration is followed. */
const judged = (command: string): Judged => judgeCommand(ws, command, { env: { HOME: "/nonexistent" } });

/** Runs `check` with the repository's config including `include` and these files written, then undoes it. */
function withInclude(include: [string, string], files: Record<string, string>, check: () => void): void {
  const config = join(ws, ".git", "config");
  const before = readFileSync(config, "utf8");
  const [section, key] = [include[0].slice(0, include[0].lastIndexOf(".")), "path"];
  const head = section.includes(".")
    ? `[${section.slice(0, section.indexOf("."))} "${section.slice(section.indexOf(".") + 1)}"]`
    : `[${section}]`;
  writeFileSync(config, `${before}${head}\n\t${key} = ${include[1]}\n`);
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(ws, rel), text);
  try {
    check();
  } finally {
    writeFileSync(config, before);
    for (const rel of Object.keys(files)) rmSync(join(ws, rel), { force: true });
  }
}

const SHARED = "[user]\n\tname = Team\n[alias]\n\tst = status\n\tlg = log --oneline\n";

describe("git status in a repository that includes a shared configuration", () => {
  it.each([
    ["include.path", "../.gitconfig"],
    ["includeIf.gitdir:~/work/.path", "../.gitconfig"],
    ["include.path", "../missing.gitconfig"],
  ] as [string, string][])("%s = %s with only [user] and [alias] is allowed", (key, value) => {
    withInclude([key, value], { ".gitconfig": SHARED }, () => {
      for (const command of ["git status", "git log --oneline -5", "git diff --stat"]) {
        const { action, reason } = judged(command);
        expect(action, `${command}: ${reason}`).toBe("allow");
      }
    });
  });

  it.each([
    [
      "a program key in the included file",
      "../.gitconfig",
      { ".gitconfig": '[core]\n\tfsmonitor = "cat ~/.netrc"\n' },
    ],
    ["a pager in the included file", "../.gitconfig", { ".gitconfig": "[core]\n\tpager = ./x.sh\n" }],
    [
      "a program key one include further",
      "../.gitconfig",
      { ".gitconfig": "[include]\n\tpath = team.inc\n", "team.inc": "[diff]\n\texternal = ./d.sh\n" },
    ],
    ["an include of another user's home", "~root/.gitconfig", {}],
    ["an include relative to git's prefix", "%(prefix)/etc/x", {}],
    ["an include of a device", "/dev/zero", {}],
  ] as [string, string, Record<string, string>][])("%s asks", (_what, value, files) => {
    withInclude(["include.path", value], files, () => {
      const { action, reason } = judged("git status");
      expect(action, reason).not.toBe("allow");
    });
  });
});
