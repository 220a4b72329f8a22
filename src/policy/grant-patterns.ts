// Grant patterns wider than one exact call, and only the ones a person may pick: a subcommand
// (`git status *`), a program whose every use is read-only or every use mutating (`ls *`, `rm *`), a
// directory (`/work/repo/src/**`), an origin (`GET https://api.github.com/*`). Never a pattern that spans
// read-only and mutating subcommands (`git *`, `npm *`), a shell or interpreter, a secret, or `/`.

import { basename, normalizePath, relativeInside } from "./paths.ts";
import { redactText } from "./redact.ts";
import { isSecretPath } from "./secret-paths.ts";

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argv word as a shell would need it: bare when safe, else single-quoted. */
export function quoteWord(word: string): string {
  if (word !== "" && SAFE_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The exact normalized text of a command: its argv, quoted word by word (so word boundaries are unambiguous). */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(" ");
}

/** Programs whose every invocation only reads: one grant may cover all their uses. */
// biome-ignore format: a word list
const READ_ONLY_PROGRAMS = new Set([
  "ls", "cat", "head", "tail", "wc", "pwd", "echo", "date", "whoami", "which", "file", "stat", "du", "df",
  "tree", "grep", "egrep", "fgrep", "rg", "diff", "cmp", "true", "false", "uname", "id", "basename",
  "dirname", "realpath", "readlink", "cut", "tr", "jq", "nl", "hostname", "tac", "paste", "fold", "hexdump",
  "hd", "lscpu", "locale",
]);

/**
 * Programs whose every invocation changes the workspace: `rm *` never covers a read, nor a read `rm`.
 * Not `ln`: a link in the workspace to `~/.ssh/id_rsa` makes a later read of an ordinary-looking name
 * a read of a secret, so each link is granted exactly.
 */
const MUTATING_PROGRAMS = new Set(["rm", "rmdir", "mkdir", "touch", "cp", "mv", "chmod", "chown"]);

/**
 * Programs with subcommands that differ in effect (`git status` reads, `git push` writes): a wider
 * pattern stops at the subcommand.
 */
// biome-ignore format: a word list
const SUBCOMMAND_PROGRAMS = new Set([
  "git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "docker", "podman", "kubectl", "helm", "gh",
  "terraform", "pip", "pip3", "uv", "poetry", "brew", "apt", "apt-get", "systemctl", "make", "dotnet",
  "gradle", "mvn", "wrangler", "deno", "rustup", "composer", "bundle", "gem",
]);

/** Subcommands that mix reading and writing by flag, or run arbitrary code: exact grants only. */
// biome-ignore format: a word list
const MIXED_SUBCOMMANDS = new Set([
  "branch", "stash", "remote", "config", "tag", "worktree", "submodule", "notes", "exec", "x", "dlx",
  "api", "shell", "ssh", "eval", "sh", "cp", "compose", "apply", "env", "cache", "c",
]);

/** Package-manager script runners: `npm run test *` covers that script only. */
const SCRIPT_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);

const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;

function safe(pattern: string): boolean {
  return redactText(pattern) === pattern;
}

/** The wider patterns offered for one command (argv), most specific first. */
export function execWider(argv: readonly string[]): string[] {
  const [head, sub, third] = argv;
  if (head === undefined || head === "") return [];
  const program = basename(head);
  const out: string[] = [];
  if (SUBCOMMAND_PROGRAMS.has(program)) {
    if (sub === undefined || !SUBCOMMAND.test(sub) || MIXED_SUBCOMMANDS.has(sub)) return [];
    if (SCRIPT_RUNNERS.has(program) && sub === "run") {
      if (third === undefined || !SUBCOMMAND.test(third)) return [];
      out.push(`${quoteArgv([head, sub, third])} *`);
    } else out.push(`${quoteArgv([head, sub])} *`);
  } else if (READ_ONLY_PROGRAMS.has(program) || MUTATING_PROGRAMS.has(program)) {
    out.push(`${quoteWord(head)} *`);
  }
  return out.filter(safe);
}

/** The wider patterns offered for a path: its directory, and its top-level directory in the project. */
export function pathWider(path: string, cwd: string): string[] {
  if (!path.startsWith("/") || isSecretPath(path)) return [];
  const out: string[] = [];
  const parent = normalizePath(`${path}/..`);
  if (parent !== "/") out.push(`${parent}/**`);
  const rel = relativeInside(cwd, path);
  const top = rel?.split("/")[0];
  if (rel?.includes("/") && top) {
    const dir = `${normalizePath(cwd)}/${top}`;
    if (dir !== parent) out.push(`${dir}/**`);
  }
  return out.filter(safe);
}

export function urlWider(method: string, origin: string): string[] {
  return [`${method} ${origin}/*`].filter(safe);
}

/** True when a prefix pattern covers a command: `git status *` covers `git status` and `git status -s`. */
export function execPatternCovers(pattern: string, argv: readonly string[]): boolean {
  if (!pattern.endsWith(" *")) return false;
  const prefix = pattern.slice(0, -2);
  const text = quoteArgv(argv);
  if (text !== prefix && !text.startsWith(`${prefix} `)) return false;
  // Only patterns this module would offer count, so a stored `bash *` or `git *` covers nothing.
  return execWider(argv).includes(pattern);
}

/** True when a directory pattern covers a path: never `/`, never a secret path. */
export function pathPatternCovers(pattern: string, path: string): boolean {
  if (!pattern.endsWith("/**")) return false;
  const dir = pattern.slice(0, -3);
  if (!dir.startsWith("/") || dir === "" || normalizePath(dir) !== dir) return false;
  return path.startsWith(`${dir}/`) && !isSecretPath(path);
}

export function urlPatternCovers(pattern: string, method: string, origin: string): boolean {
  return pattern === `${method} ${origin}/*`;
}
