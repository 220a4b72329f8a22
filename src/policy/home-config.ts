// The home directory's own configuration, as a class: its hidden entries (~/.jq, ~/.manpath, and everything
// below ~/.config, ~/.local, ~/.cache, ~/.rustup …) and the few visible trees programs run code from. Red
// team, round 16 (r16a-04…08, 11): with the agent started in ~, top's toprc, ~/.jq, rustup's toolchains, the
// version managers' installs, pnpm's rc, ~/.manpath and go's env file were ordinary writes that an allowed
// program then ran or read. Naming them one by one never ends, so a write anywhere below one asks. A hidden
// entry of a project (~/code/app/.github) is not one of HOME: only the first name below HOME counts.
// Reads by the same class (round 18, r18-03): what programs keep in HOME's hidden entries (wallets' keys,
// chat sessions, cloud CLIs' tokens, editors' and shells' histories) is not all on a name list either.
import { hasGlob } from "./glob-match.ts";
import { normalizePath, relativeInside } from "./paths.ts";
import { isProtectedWritePath } from "./secret-paths.ts";
import type { Concern } from "./shell/units.ts";
import type { ToolCall } from "./types.ts";

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

/** Visible entries of HOME that hold programs' own state as hidden ones do: macOS's Library, snaps' homes. */
const STATE_TREES = new Set(["library", "snap"]);

/**
 * The entry of HOME's own state a path is or lies in, for a read (`~/.viminfo`, `~/.config` for
 * `~/.config/solana/id.json`, `~/Library`), or null. A first name with a glob may be one, as for writes.
 */
export function homeStateEntry(path: string, home: string | null): string | null {
  if (home === null || !path.startsWith("/")) return null;
  const rel = relativeInside(home, path);
  if (rel === null || rel === ".") return null;
  const first = rel.split("/")[0] as string;
  return first.startsWith(".") || hasGlob(first) || STATE_TREES.has(first.toLowerCase())
    ? `~/${first}`
    : null;
}

/**
 * A read of HOME's own state where the workspace is HOME or above it, so that the rule reading the workspace
 * would allow it: the entry read, or null. A workspace inside a hidden entry (`~/.dotfiles`) is not one; a
 * read outside the workspace asks already.
 */
export function homeStateRead(path: string, cwd: string, home: string | null): string | null {
  return holdsHome(normalizePath(cwd), home) ? homeStateEntry(normalizePath(path), home) : null;
}

/** Such a read asks: a rule allows it only if it names `sensitive` (as a secret directory's listing does). */
export function homeStateConcern(shown: string, entry: string): Concern {
  return {
    mention: "sensitive",
    reason: `\`${shown}\` reads the home directory's own state (\`${entry}\`: the keys, tokens, sessions and histories programs keep there), in a workspace that holds the home directory`,
  };
}

/**
 * A file tool's read of HOME's own state (Read, Grep), as the concern it raises. The LS and Glob tools print
 * names, not contents, and stay as before (a secret directory's listing asks by its own rule, secret-listings.ts).
 */
export function toolHomeStateConcerns(call: ToolCall, path: string, home: string | null): Concern[] {
  if (path === "" || (call.tool !== "read" && call.tool !== "grep")) return [];
  const entry = homeStateRead(path, call.cwd, home);
  return entry === null ? [] : [homeStateConcern(path, entry)];
}
