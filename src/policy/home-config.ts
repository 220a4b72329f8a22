// The home directory's own configuration, as a class: its hidden entries (~/.jq, ~/.manpath, and everything
// below ~/.config, ~/.local, ~/.cache, ~/.rustup …) and the few visible trees programs run code from. Red
// team, round 16 (r16a-04…08, 11): with the agent started in ~, top's toprc, ~/.jq, rustup's toolchains, the
// version managers' installs, pnpm's rc, ~/.manpath and go's env file were ordinary writes that an allowed
// program then ran or read. Naming them one by one never ends, so a write anywhere below one asks. A hidden
// entry of a project (~/code/app/.github) is not one of HOME: only the first name below HOME counts.
import { hasGlob } from "./glob-match.ts";
import { normalizePath, relativeInside } from "./paths.ts";
import { isProtectedWritePath } from "./secret-paths.ts";

/**
 * Visible trees below HOME that programs run or load code from: ~/bin (on PATH in Debian's and Fedora's
 * ~/.profile), go's default GOPATH binaries and module cache (~/go/src stays: GOPATH-era projects live
 * there), Perl's local::lib, R's user library, snaps' per-app homes, and macOS's login agents, per-app
 * settings and Python user site.
 */
export const HOME_VISIBLE_TREES: readonly string[] = [
  "bin",
  "go/bin",
  "go/pkg",
  "perl5",
  "R",
  "snap",
  "Library/LaunchAgents",
  "Library/Application Support",
  "Library/Preferences",
  "Library/Python",
  // man's pages for ~/bin (manpath adds ~/man and ~/share/man for a PATH entry ~/bin): a page can `.so` any file.
  "man",
  "share/man",
  // TeX Live's TEXMFHOME: every latex run loads packages and classes from it before the system's.
  "texmf",
];
const VISIBLE_TREES = HOME_VISIBLE_TREES.map((t) => t.split("/"));

/**
 * Visible files directly in HOME that a program loads when it starts. groff searches HOME for macro files
 * before its own directories (red team, round 18, r18-01): `an-old.tmac` sources `man.local`, so a
 * `man.local` of `.so ~/.netrc` put the secret on the page of the next allowed `man tar`; `troffrc`, an
 * `X.tmac` or `tmac.X`, and eqn's `eqnrc` are found the same way.
 */
const HOME_VISIBLE_FILES: readonly RegExp[] = [
  /^[^/]+\.local$/,
  /^[^/]+\.tmac$/,
  /^tmac\.[^/]+$/,
  /^troffrc(-end)?$/,
  /^eqnrc$/,
];

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The entry of HOME's configuration a path is or lies in (`~/.config`, `~/go/bin`), or null. A first name
 * with a glob (`~/.c*`, `~/*`) may be one, as `shopt -s dotglob` lets `*` match a hidden name.
 */
export function homeConfigEntry(path: string, home: string | null): string | null {
  if (home === null || !path.startsWith("/")) return null;
  const rel = relativeInside(home, path);
  if (rel === null || rel === ".") return null;
  const names = rel.split("/");
  const first = names[0] as string;
  if (first.startsWith(".") || hasGlob(first)) return `~/${first}`;
  if (names.length === 1 && HOME_VISIBLE_FILES.some((f) => f.test(first))) return `~/${first}`;
  const tree = VISIBLE_TREES.find(
    (t) => t.length <= names.length && t.every((n, i) => sameName(n, names[i] as string)),
  );
  return tree === undefined ? null : `~/${tree.join("/")}`;
}

/**
 * HOME itself or a directory above it, as a write's target: what lands there (`cp x/.jq ~`, `tar -xf a.tar` in
 * ~, `cp -r dots/. ~`) is named by the source, so it may be a hidden entry.
 */
export function holdsHome(path: string, home: string | null): boolean {
  return home !== null && path.startsWith("/") && relativeInside(path, home) !== null;
}

/** A write that decides what runs later: a protected file by its name, or anything in HOME's configuration. */
export function isProtectedWriteAt(path: string, home: string | null): boolean {
  const p = normalizePath(path);
  return isProtectedWritePath(path) || homeConfigEntry(p, home) !== null || holdsHome(p, home);
}

const HOME_CONFIG = "the home directory's own configuration, which programs read and run when they start";

/** What a protected write is, for the reason a person reads. */
export function protectedWriteWhat(path: string, home: string | null): string {
  const p = normalizePath(path);
  const entry = homeConfigEntry(p, home);
  if (isProtectedWritePath(path) || (entry === null && !holdsHome(p, home)))
    return "a file that holds secrets or decides what runs";
  if (entry === null)
    return `the home directory itself or above it, where what lands may be a hidden entry (\`~/.jq\`), ${HOME_CONFIG}`;
  return `${p === `${home}/${entry.slice(2)}` ? `\`${entry}\`` : `in \`${entry}\``}, ${HOME_CONFIG}`;
}
