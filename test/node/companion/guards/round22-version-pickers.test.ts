// Red team, round 22 (s22-02): node's, python's, ruby's, go's and bun's version pickers were ordinary writes,
// while round 20 protected `.java-version` and `.terraform-version`. nvm's documented zsh hook runs `nvm install`
// on cd when an `.nvmrc` names a missing version, fnm's `--use-on-cd` offers to install one, RVM auto-installs
// a `.ruby-version` ruby and creates a `.ruby-gemset`, and `.rvmrc` is a shell script RVM sources. Writing each now
// asks under both starters; reading them (the version queries) stays allowed.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { isProtectedWritePath } from "../../../../src/policy/secret-paths.ts";
import { gitWorkspace } from "./disk-fixture.ts";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";
import { expectEveryWayOfWriting } from "./judge-write.ts";

const { base, ws, home } = gitWorkspace("airlock-r22-pickers-", {
  "README.md": "# app\n",
  "package.json": "{}\n",
  ".nvmrc": "22\n",
  ".python-version": "3.12.1\n",
  ".ruby-version": "3.3.0\n",
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const PICKERS = [
  ".nvmrc",
  ".node-version",
  ".python-version",
  ".ruby-version",
  ".ruby-gemset",
  ".go-version",
  ".bun-version",
  ".versions.conf",
  ".rvmrc",
  "packages/web/.nvmrc",
];

describe("s22-02: writing a node, python, ruby, go or bun version picker asks", () => {
  it.each(PICKERS)("writing %s asks under both starters", (rel) => {
    expectEveryWayOfWriting(ws, home, rel, "22.99.0\n", "ask");
  });
  it.each(PICKERS)("%s is protected without the disk", (rel) => {
    expect(isProtectedWritePath(rel)).toBe(true);
  });
  it.each(["src/nvmrc.ts", "docs/.nvmrc.md", ".swift-version", "README.md"])(
    "writing %s stays allowed",
    (rel) => {
      expectEveryWayOfWriting(ws, home, rel, "22.99.0\n", "allow");
    },
  );
});

describe("s22-02: reading them stays allowed", () => {
  it.each([
    ["balanced", BALANCED],
    ["autonomous", AUTONOMOUS],
  ] as const)("%s: cat and the version queries", (_, policy) => {
    for (const command of [
      "cat .nvmrc",
      "cat .python-version .ruby-version",
      "node --version",
      "python3 --version",
    ])
      expect(judgeCommand(ws, command, { policy }).action, command).toBe("allow");
  });
});
