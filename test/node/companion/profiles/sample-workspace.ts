// A small polyglot repository the everyday calls are judged in: package.json with scripts, Cargo.toml,
// pyproject.toml, go.mod, source files, a Makefile, a sub-package and a git repository with one commit.
// Its tools are installed (node_modules, ignored by git), as in any project whose scripts run them: without
// them, `npx tsc` would download the registry's `tsc` package, which is not TypeScript.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const FILES: Record<string, string> = {
  "package.json": JSON.stringify(
    {
      name: "sample",
      version: "1.0.0",
      scripts: { test: "vitest run", build: "tsc -p .", lint: "eslint src", start: "node dist/index.js" },
      dependencies: { lodash: "4.17.21" },
    },
    null,
    2,
  ),
  "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n',
  "Cargo.toml": '[package]\nname = "sample"\nversion = "0.1.0"\nedition = "2021"\n',
  "pyproject.toml": '[project]\nname = "sample"\nversion = "0.1.0"\n',
  "go.mod": "module example.com/sample\n\ngo 1.22\n",
  Makefile: "test:\n\tnpm test\nbuild:\n\tnpm run build\n",
  "README.md": "# Sample\n\nA sample project.\n",
  ".gitignore": "node_modules/\ndist/\n.env\n",
  ".env": "API_KEY=not-a-real-key\n",
  "src/index.ts":
    'import { helper } from "./util";\nexport function main() {\n  return helper(); // TODO\n}\n',
  "src/util.ts": "export function helper() {\n  return 1;\n}\n",
  "src/app.py": "import os\n\ndef main():\n    return 1\n",
  "src/main.rs": 'fn main() {\n    println!("hi");\n}\n',
  "main.go": "package main\n\nfunc main() {}\n",
  "scripts/build.js": "console.log('build');\n",
  "tests/test_app.py": "def test_main():\n    assert True\n",
  "sub/package.json": '{ "name": "sub", "scripts": { "test": "node -e 1" } }\n',
  ...Object.fromEntries(
    ["tsc", "vitest", "eslint", "prettier", "biome"].map((bin) => [
      `node_modules/.bin/${bin}`,
      `#!/usr/bin/env node\nrequire('../${bin}/cli.js')\n`,
    ]),
  ),
};

export function sampleWorkspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "airlock-everyday-")));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const git = (...args: string[]) => {
    const run = spawnSync("git", args, {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
    if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  };
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init");
  return root;
}
