// hookRunWriteFact over a project holding a config of each kind (policy/hook-runs.ts's table, Copilot's,
// husky's and git's hook directories, a global core.hooksPath, a nested .envrc, the user's own agent
// settings), the workspace a package below its repository's top: the fact each write gets, pinned, so that
// how the configs are looked up can change and what they say cannot.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hookRunWriteFact } from "../../../../src/companion/guards/hook-configs.ts";
import { git, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-hookcfg-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, "home");
const top = join(base, "repo");
const ws = join(top, "pkg");

mkdirSync(top);
git(top, "init", "-q");

const json = (v: unknown) => `${JSON.stringify(v)}\n`;
const FILES: Record<string, string> = {
  [join(top, ".pre-commit-config.yaml")]:
    "repos:\n  - repo: local\n    hooks:\n      - id: x\n        entry: scripts/pc.sh\n",
  [join(top, ".git/hooks/pre-push")]: "#!/bin/sh\n./scripts/push.sh\n",
  [join(ws, ".claude/settings.json")]: json({
    hooks: { SessionStart: [{ hooks: [{ type: "command", command: "bash scripts/session.sh" }] }] },
    statusLine: { type: "command", command: "npx prettier --check ." },
  }),
  [join(ws, "mise.toml")]: '[env]\n_.path = ["tools/bin"]\n[hooks]\nenter = "./scripts/enter.sh"\n',
  [join(ws, ".lintstagedrc.json")]: json({
    "*.ts": "./scripts/ls.sh",
    "*.md": ["./scripts/md.sh"],
    "*.c": "./scripts/both.sh",
  }),
  [join(ws, "package.json")]: json({ name: "p", "simple-git-hooks": { "pre-commit": "./scripts/sgh.sh" } }),
  [join(ws, ".devcontainer/devcontainer.json")]: json({ postCreateCommand: { a: "./scripts/dc.sh" } }),
  [join(ws, "lefthook.yml")]:
    "pre-commit:\n  commands:\n    x:\n      run: ./scripts/lh.sh\n    y:\n      run: ./scripts/both.sh\n",
  [join(ws, ".husky/pre-commit")]: "./scripts/hu.sh\n",
  [join(ws, ".github/hooks/a.json")]: json({ hooks: { sessionStart: [{ command: "./scripts/gh.sh" }] } }),
  [join(ws, ".vscode/tasks.json")]: json({
    tasks: [{ label: "t", command: "./scripts/task.sh", runOptions: { runOn: "folderOpen" } }],
  }),
  [join(ws, ".Rprofile")]: 'source("renv/activate.R")\n',
  [join(ws, "sub/.envrc")]: "source_env ./env.sh\n",
  [join(home, ".gitconfig")]: "[core]\n\thooksPath = ~/.githooks\n",
  [join(home, ".githooks/pre-commit")]: "#!/bin/sh\nexec ./scripts/global.sh\n",
  [join(home, ".claude/settings.json")]: json({
    hooks: { Stop: [{ hooks: [{ type: "command", command: "$CLAUDE_PROJECT_DIR/scripts/user.sh" }] }] },
  }),
};
for (const [file, text] of Object.entries(FILES)) write(file, text);
for (const hook of [".git/hooks/pre-push", "pkg/.husky/pre-commit"]) chmodSync(join(top, hook), 0o755);
chmodSync(join(home, ".githooks/pre-commit"), 0o755);

const ctx = { cwd: ws, workspace: ws, env: { HOME: home }, walkBound: 1000 };
/** The reason hookRunWriteFact gives writing `rel` (relative to the repository's top), or null. */
const factOf = (rel: string) => hookRunWriteFact(join(top, rel), join(top, rel), ctx, rel)?.reason ?? null;

/** The text every "is run by" reason ends with. */
const RUNS = "writing it is running code the judge never sees";

/** Each write (relative to the repository's top) and its reason, as the lookup of every table row gave them. */
const PINNED: [string, string | null][] = [
  [
    "scripts/pc.sh",
    `is run by \`scripts/pc.sh\` in \`${top}/.pre-commit-config.yaml\` (pre-commit runs its local hooks at the next commit): ${RUNS}`,
  ],
  [
    "scripts/push.sh",
    `is run by \`#!/bin/sh ./scripts/push.sh\` in \`${top}/.git/hooks/pre-push\` (git runs this hook): ${RUNS}`,
  ],
  [
    "scripts/global.sh",
    `is run by \`#!/bin/sh exec ./scripts/global.sh\` in \`${home}/.githooks/pre-commit\` (git runs this hook (core.hooksPath) at the top of every repository): ${RUNS}`,
  ],
  ["scripts/other.sh", null],
  ["README.md", null],
  [
    "pkg/scripts/session.sh",
    `is run by \`bash scripts/session.sh\` in \`.claude/settings.json\` (Claude Code runs its hooks and helpers): ${RUNS}`,
  ],
  [
    "pkg/prettier.config.js",
    `is code that a program run by \`npx prettier --check .\` in \`.claude/settings.json\` (Claude Code runs its hooks and helpers) loads: ${RUNS}`,
  ],
  [
    "pkg/tools/bin/x",
    `is in \`tools/bin\`, which \`mise.toml\` (mise loads it on entering the directory) puts on a search path: a program or module there runs in place of the one the person asks for, unjudged`,
  ],
  [
    "pkg/tools",
    `is in \`tools/bin\`, which \`mise.toml\` (mise loads it on entering the directory) puts on a search path: a program or module there runs in place of the one the person asks for, unjudged`,
  ],
  [
    "pkg/scripts/enter.sh",
    `is run by \`./scripts/enter.sh\` in \`mise.toml\` (mise loads it on entering the directory): ${RUNS}`,
  ],
  [
    "pkg/scripts/ls.sh",
    `is run by \`./scripts/ls.sh\` in \`.lintstagedrc.json\` (lint-staged runs its commands at the next commit): ${RUNS}`,
  ],
  [
    "pkg/scripts/md.sh",
    `is run by \`./scripts/md.sh\` in \`.lintstagedrc.json\` (lint-staged runs its commands at the next commit): ${RUNS}`,
  ],
  [
    "pkg/scripts/sgh.sh",
    `is run by \`./scripts/sgh.sh\` in \`package.json\` (lint-staged, simple-git-hooks or husky run its hook commands at the next commit): ${RUNS}`,
  ],
  [
    "pkg/scripts/dc.sh",
    `is run by \`./scripts/dc.sh\` in \`.devcontainer/devcontainer.json\` (the dev container tools run its lifecycle commands when it is built or started): ${RUNS}`,
  ],
  [
    "pkg/scripts/lh.sh",
    `is run by \`./scripts/lh.sh\` in \`lefthook.yml\` (lefthook runs its commands at the next git hook): ${RUNS}`,
  ],
  [
    "pkg/scripts/both.sh",
    `is run by \`./scripts/both.sh\` in \`.lintstagedrc.json\` (lint-staged runs its commands at the next commit): ${RUNS}`,
  ],
  [
    "pkg/scripts/hu.sh",
    `is run by \`./scripts/hu.sh\` in \`.husky/pre-commit\` (git runs this husky hook): ${RUNS}`,
  ],
  [
    "pkg/scripts/gh.sh",
    `is run by \`./scripts/gh.sh\` in \`.github/hooks/a.json\` (Copilot CLI runs its hooks): ${RUNS}`,
  ],
  [
    "pkg/scripts/task.sh",
    `is run by \`./scripts/task.sh\` in \`.vscode/tasks.json\` (VS Code runs its folderOpen tasks when the folder opens): ${RUNS}`,
  ],
  [
    "pkg/renv/activate.R",
    `is run by \`source("renv/activate.R")\` in \`.Rprofile\` (R runs it, and what it sources, at every start in the project): ${RUNS}`,
  ],
  [
    "pkg/sub/env.sh",
    `is run by \`source_env ./env.sh\` in \`sub/.envrc\` (direnv runs it as bash on entering the directory): ${RUNS}`,
  ],
  [
    "pkg/scripts/global.sh",
    `is run by \`#!/bin/sh exec ./scripts/global.sh\` in \`${home}/.githooks/pre-commit\` (git runs this hook (core.hooksPath) at the top of every repository): ${RUNS}`,
  ],
  [
    "pkg/scripts/user.sh",
    `is run by \`$CLAUDE_PROJECT_DIR/scripts/user.sh\` in \`${home}/.claude/settings.json\` (Claude Code runs its hooks and helpers): ${RUNS}`,
  ],
  ["pkg/scripts/other.sh", null],
  ["pkg/src/app.ts", null],
  ["pkg/README.md", null],
];

describe("the fact of a write that a hook configuration runs", () => {
  it.each(PINNED)("%s", (rel, reason) => {
    expect(factOf(rel)).toBe(reason);
  });
});
