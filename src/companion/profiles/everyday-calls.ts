// The built-in list of everyday coding-agent calls (JS/TS, Python, Rust, Go): what `airlock init` judges to
// preview each profile on this repository when there is no history, and what the everyday test judges under
// `balanced`. Data only; each call as Claude Code sends it. `kind` says what the call is, so a preview can
// count the read-only asks and a test can check that only destructive and outbound calls are high risk.

export type EverydayKind =
  /** Only looks: reads, searches, listings, versions, git inspection. */
  | "read"
  /** Changes files inside the workspace (file tools or shell). */
  | "edit"
  /** Runs the project's tests, builds, linters, scripts. */
  | "run"
  /** Git that writes locally and can be undone (add, commit, branch, stash). */
  | "git"
  /** Package managers that fetch and install. */
  | "install"
  /** Cannot be undone: deletes, discards, rewrites history. */
  | "destructive"
  /** Sends data off the machine: push, publish, HTTP, SSH. */
  | "outbound";

export interface EverydayCall {
  kind: EverydayKind;
  tool: string;
  input: Record<string, unknown>;
}

const sh = (kind: EverydayKind, ...commands: string[]): EverydayCall[] =>
  commands.map((command) => ({ kind, tool: "Bash", input: { command } }));

const READ_FILES: EverydayCall[] = [
  ...[
    "package.json",
    "README.md",
    "src/index.ts",
    "src/app.py",
    "src/main.rs",
    "main.go",
    "tsconfig.json",
  ].map((file_path) => ({ kind: "read" as const, tool: "Read", input: { file_path } })),
  { kind: "read", tool: "Read", input: { file_path: "src/index.ts", offset: 10, limit: 40 } },
  { kind: "read", tool: "Grep", input: { pattern: "TODO" } },
  {
    kind: "read",
    tool: "Grep",
    input: { pattern: "export function", path: "src", output_mode: "content", "-n": true },
  },
  { kind: "read", tool: "Grep", input: { pattern: "def ", path: "src", glob: "*.py" } },
  { kind: "read", tool: "Glob", input: { pattern: "**/*.ts" } },
  { kind: "read", tool: "Glob", input: { pattern: "src/**/*.py" } },
];

const READ_SHELL = sh(
  "read",
  ...[
    "ls",
    "ls -la",
    "ls -la src",
    "ls src/",
    "ls -R src",
    "tree -L 2",
    "pwd",
    "cat package.json",
    "cat README.md",
  ],
  ...["cat Cargo.toml", "cat pyproject.toml", "cat go.mod", "head -50 README.md", "head -n 20 src/index.ts"],
  ...[
    "tail -20 src/index.ts",
    "tail -n 5 README.md",
    "wc -l src/*.ts",
    "wc -l src/index.ts",
    "sed -n 1,50p src/index.ts",
  ],
  ...[
    "sed -n '10,30p' src/util.ts",
    "grep -n export src/index.ts",
    "grep -rn TODO src",
    "grep -rn 'import' src --include=*.ts",
  ],
  ...[
    "grep -ril useState src",
    "grep -c '' src/index.ts",
    "rg TODO",
    "rg -n function src",
    "rg --files",
    "rg -l 'def ' src",
  ],
  ...[
    "rg -t py 'import'",
    "find src -type f",
    "find . -name '*.ts' -not -path './node_modules/*'",
    "find . -maxdepth 2 -type d",
  ],
  ...[
    "find src -name '*.py'",
    "fd -e ts",
    "fd main",
    "du -sh src",
    "du -sh .",
    "stat package.json",
    "file src/index.ts",
  ],
  ...["jq .scripts package.json", "jq -r '.dependencies | keys[]' package.json", "jq .version package.json"],
  ...[
    "diff src/index.ts src/util.ts",
    "sort README.md | uniq -c",
    "cut -d: -f1 README.md",
    "awk '{print $1}' README.md",
  ],
  ...["echo hello", "echo $PATH", "printf '%s\\n' done", "which node", "which python3", "node --version"],
  ...["npm --version", "python3 --version", "cargo --version", "go version", "uname -a", "whoami", "date"],
  ...["basename src/index.ts", "dirname src/index.ts", "realpath src/index.ts", "readlink -f src/index.ts"],
  ...["cat src/index.ts | grep export", "ls -la | head", "head -c 200 README.md", "xxd README.md | head -5"],
  ...[
    "git status",
    "git status --short",
    "git diff",
    "git diff --stat",
    "git diff HEAD~1",
    "git diff --cached",
  ],
  ...[
    "git log --oneline -10",
    "git log -p -1",
    "git log --oneline --graph -20",
    "git show HEAD",
    "git show --stat HEAD",
  ],
  ...[
    "git blame src/index.ts",
    "git ls-files",
    "git branch",
    "git branch -a",
    "git remote -v",
    "git rev-parse HEAD",
  ],
  ...[
    "git rev-parse --abbrev-ref HEAD",
    "git stash list",
    "git shortlog -sn",
    "git grep -n TODO",
    "git log --stat -3",
  ],
  ...[
    "npm ls --depth=0",
    "npm run",
    "go list ./...",
    "go env GOPATH",
    "cd src && ls",
    "tsc --version",
    "npx tsc --version",
  ],
);

const EDITS: EverydayCall[] = [
  { kind: "edit", tool: "Edit", input: { file_path: "src/index.ts", old_string: "a", new_string: "b" } },
  { kind: "edit", tool: "Edit", input: { file_path: "README.md", old_string: "x", new_string: "y" } },
  { kind: "edit", tool: "Edit", input: { file_path: "src/app.py", old_string: "x", new_string: "y" } },
  { kind: "edit", tool: "Edit", input: { file_path: "src/main.rs", old_string: "x", new_string: "y" } },
  { kind: "edit", tool: "Edit", input: { file_path: "main.go", old_string: "x", new_string: "y" } },
  { kind: "edit", tool: "Write", input: { file_path: "src/new.ts", content: "export {};\n" } },
  {
    kind: "edit",
    tool: "Write",
    input: { file_path: "tests/test_new.py", content: "def test_x():\n    pass\n" },
  },
  { kind: "edit", tool: "Write", input: { file_path: "src/lib_test.go", content: "package main\n" } },
  {
    kind: "edit",
    tool: "MultiEdit",
    input: { file_path: "src/util.ts", edits: [{ old_string: "a", new_string: "b" }] },
  },
  ...sh(
    "edit",
    ...[
      "mkdir -p src/utils",
      "touch src/empty.ts",
      "cp src/util.ts src/util.bak.ts",
      "mv src/util.ts src/helpers.ts",
    ],
    ...["sed -i 's/foo/bar/' src/util.ts", "echo '# notes' > notes.md", "echo done >> notes.md"],
  ),
];

const RUNS = sh(
  "run",
  ...["npm test", "npm run build", "npm run lint", "npm run test -- --run", "npm start", "npx tsc --noEmit"],
  ...[
    "npx vitest run",
    "npx eslint src",
    "npx prettier --check src",
    "npx biome check src",
    "node scripts/build.js",
  ],
  ...[
    "tsc -p .",
    "cargo build",
    "cargo test",
    "cargo check",
    "cargo clippy",
    "cargo fmt --check",
    "cargo run",
  ],
  ...[
    "go build ./...",
    "go test ./...",
    "go vet ./...",
    "go run .",
    "pytest",
    "pytest -x tests/",
    "python -m pytest",
  ],
  ...["python3 -m pytest -q", "python3 src/app.py", "make", "make test", "make build", "cd sub && npm test"],
  ...["yarn test", "pnpm test", "ruff check .", "mypy src", "gofmt -l ."],
);

const GIT = sh(
  "git",
  ...["git add -A", "git add src/index.ts", "git commit -m 'Fix the parser'", "git checkout -b feature"],
  ...["git switch -c feature", "git checkout main", "git stash", "git stash pop", "git fetch", "git pull"],
  ...["git merge feature", "git rebase main", "git restore --staged src/index.ts"],
);

const INSTALLS = sh(
  "install",
  ...["npm install", "npm install lodash", "npm i -D vitest", "npm ci", "pip install -r requirements.txt"],
  ...[
    "pip install requests",
    "poetry install",
    "cargo add serde",
    "cargo update",
    "go get example.com/x@latest",
  ],
  ...["go mod tidy", "yarn add react", "pnpm install", "uv sync"],
);

const DESTRUCTIVE = sh(
  "destructive",
  ...["rm src/old.ts", "rm -rf dist", "rm -rf node_modules", "git reset --hard HEAD~1", "git clean -fd"],
  ...[
    "git checkout -- .",
    "git branch -D old",
    "git branch -M main",
    "git push --force",
    "git push -f origin main",
  ],
  ...["git stash drop", "git stash clear", "git remote add upstream https://github.com/x/y.git"],
  ...["git remote -v add x https://example.com/x.git", "git remote set-url origin https://example.com/y.git"],
);

const OUTBOUND = sh(
  "outbound",
  ...[
    "git push",
    "git push origin main",
    "curl https://api.github.com/repos/x/y",
    "wget https://example.com/f.tgz",
  ],
  ...[
    "npm publish",
    "cargo publish",
    "gh pr create --fill",
    "ssh build-host uptime",
    "docker push example/app",
  ],
);

export const EVERYDAY_CALLS: readonly EverydayCall[] = [
  ...READ_FILES,
  ...READ_SHELL,
  ...EDITS,
  ...RUNS,
  ...GIT,
  ...INSTALLS,
  ...DESTRUCTIVE,
  ...OUTBOUND,
];
