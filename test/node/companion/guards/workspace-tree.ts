// A real temporary workspace for the guard tests: ordinary files, secrets, never-served folders and
// symlinks that point outside, at secrets, in loops and nowhere.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface WorkspaceTree {
  /** The temp folder holding both the workspace and a sibling "outside" folder. */
  base: string;
  root: string;
  realRoot: string;
  outside: string;
  cleanup(): void;
}

const FILES: Record<string, string> = {
  "README.md": "readme\n",
  "src/a.ts": "export const a = 1;\n",
  "src/deep/b.ts": "export const b = 2;\n",
  "ünï.txt": "unicode name\n",
  ".env": "API_KEY=do-not-serve\n",
  ".env.local": "API_KEY=do-not-serve\n",
  ".env.example": "API_KEY=\n",
  ".ENV.production": "API_KEY=do-not-serve\n",
  "id.pem": "-----BEGIN-----\n",
  "server.KEY": "key\n",
  "config/credentials.json": "{}\n",
  "config/models.json": "{}\n",
  "secrets/db.txt": "password\n",
  ".ssh/id_ed25519": "private\n",
  ".aws/config": "[default]\n",
  ".docker/config.json": "{}\n",
  ".config/gh/hosts.yml": "token\n",
  "node_modules/pkg/index.js": "module.exports = 1;\n",
  ".git/config": "[core]\n",
  "%2e%2e/literal.txt": "a folder literally named %2e%2e\n",
};

const LINKS: Record<string, string> = {
  "link-out": "../outside",
  "link-out-file": "../outside/stolen.txt",
  "link-abs": "/etc",
  "link-secret": ".env",
  "src/link-ssh": "../.ssh",
  "link-readme": "README.md",
  "src/up": "..",
  "loop-a": "loop-b",
  "loop-b": "loop-a",
  dangling: "does-not-exist",
  "link-git": ".git",
};

export function makeWorkspaceTree(): WorkspaceTree {
  const base = mkdtempSync(join(tmpdir(), "airlock-guards-"));
  const root = join(base, "ws");
  const outside = join(base, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "stolen.txt"), "outside the workspace\n");
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  for (const [rel, target] of Object.entries(LINKS)) symlinkSync(target, join(root, rel));
  return {
    base,
    root,
    realRoot: realpathSync(root),
    outside,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Every path the tree holds, files and links, for generators that should mostly hit real names. */
export const TREE_PATHS = [...Object.keys(FILES), ...Object.keys(LINKS), "src", "src/deep", "config", "."];

/** The segments a generator composes paths from: every trap in the tree and a few spellings of each. */
export const SEGMENTS = [
  ...Object.keys(FILES).flatMap((p) => p.split("/")),
  ...Object.keys(LINKS).flatMap((p) => p.split("/")),
  "..",
  ".",
  "",
  "outside",
  "stolen.txt",
  "etc",
  "passwd",
  "uni\u0308.txt",
  "\u00fcn\u0131.txt",
  "．．",
  "．env",
  "ｎｏｄｅ_ｍｏｄｕｌｅｓ",
  ".env\u200b",
  ".ｇｉｔ",
  "%2e%2e",
  "%2F",
  "..%2f",
  "%252e",
  "..\\..",
  "~",
  "\0",
];
