// The user's start-up files as the disk has them: every protected location under HOME (the same tables the
// protected-write rule matches by name) resolved through its links, so a workspace file that IS
// ~/.gitconfig on disk (a dotfiles repository linked into ~) is written as ~/.gitconfig is (red team, round 15);
// and every link inside HOME's configuration trees (home-config.ts), whatever its name (round 16).
import { type Dirent, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import {
  HOME_VISIBLE_TREES,
  holdsHome,
  homeConfigEntry,
  isProtectedWriteAt,
} from "../../policy/home-config.ts";
import { Lru } from "../../policy/lru.ts";
import { homeFor } from "../../policy/paths.ts";
import { DENYLIST_PATTERNS, PROTECTED_WRITE_PATTERNS } from "../../policy/secret-paths.ts";
import type { Context } from "./disk-context.ts";
import { lstatEntry, statEntry } from "./fs-entry.ts";
import { homeOf } from "./git-config-layers.ts";
import { realHome } from "./home-state.ts";
import { isWithin, realPathOf } from "./real-path.ts";

/** A start-up location a link takes elsewhere: its name under HOME and where writes to it land. */
interface Linked {
  home: string;
  real: string;
}

interface HomeState {
  /**
   * Stat of every directory between HOME and a location, and of every directory the walk for links read:
   * any entry added, removed or relinked changes it.
   */
  signature: string;
  walked: string[];
  linked: Linked[];
  /** Locations the disk check could not resolve (a loop, EACCES): where a write to them lands is not known. */
  unknown: { home: string; reason: string }[];
}

/** Every location relative to HOME: a literal path, or one whose last name is a glob (`.psqlrc-*`). */
const LOCATIONS = [...new Set([...PROTECTED_WRITE_PATTERNS, ...DENYLIST_PATTERNS])]
  .map((p) => p.replace(/\/$/, "").split("/"))
  .filter((parts) => parts.slice(0, -1).every((part) => !part.includes("*")));

/** The directories the locations sit in, HOME's own (`""`) and each one between. */
const ANCESTORS = [
  ...new Set(LOCATIONS.flatMap((parts) => parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/")))),
  "",
];

const states = new Lru<string, HomeState>(8);

function globTest(name: string): RegExp {
  return new RegExp(`^${name.replace(/[.+^${}()|[\]\\?]/g, "\\$&").replace(/\*/g, ".*")}$`, "i");
}

function signatureOf(home: string, walked: readonly string[]): string {
  return [...ANCESTORS.map((d) => join(home, d)), ...walked]
    .map((dir) => {
      try {
        const s = statEntry(dir);
        return s === undefined ? "-" : `${s.ino}:${s.mtimeMs}:${s.ctimeMs}`;
      } catch {
        return "-"; // ENOTDIR: a file on the way
      }
    })
    .join(",");
}

/** lstat without throwing, remembered for one look at HOME (locations share their directories). */
type Look = (path: string) => Stats | null;

function looker(): Look {
  const seen = new Map<string, Stats | null>();
  return (path) => {
    let s = seen.get(path);
    if (s === undefined) {
      try {
        s = lstatEntry(path) ?? null;
      } catch {
        s = null; // ENOTDIR: a file where a directory would be, so nothing below it either
      }
      seen.set(path, s);
    }
    return s;
  };
}

/** The concrete paths under `home` a location names: itself, or the entries its glob matches now. */
function pathsOf(home: string, parts: readonly string[], look: Look): string[] {
  const last = parts[parts.length - 1] as string;
  const dir = join(home, ...parts.slice(0, -1));
  if (!last.includes("*")) return [join(dir, last)];
  if (look(dir) === null) return [];
  const test = globTest(last);
  try {
    return readdirSync(dir)
      .filter((n) => test.test(n))
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/**
 * Whether a link may sit on the way from `home` to `path`: a name that is a link (or not a directory on the
 * way), checked name by name; a missing name ends the walk, as nothing can be below it.
 */
function mayBeLinked(home: string, path: string, look: Look): boolean {
  for (let at = home, rest = path.slice(home.length + 1).split("/"); rest.length > 0; ) {
    at = `${at}/${rest.shift() as string}`;
    const s = look(at);
    if (s === null) return false;
    if (s.isSymbolicLink() || (rest.length > 0 && !s.isDirectory())) return true;
  }
  return false;
}

/** How deep below HOME the walk for links looks (`~/.config/nvim/lua/x` is 4), and how many directories it reads. */
const WALK_DEPTH = 4;
const WALK_DIRS = 2000;

/**
 * Stores programs fill (package and build caches, the trash): the walk does not go below them, as a dotfiles
 * manager links nothing there and they change at every build, which would start the walk again. A write into
 * one still asks by its path (home-config.ts); a link to the store itself is still seen.
 */
const NOT_WALKED = new Set([
  ".cache",
  ".npm",
  ".m2",
  ".cargo/registry",
  ".gradle/caches",
  "go/pkg",
  ".local/share/Trash",
]);

/** A name in HOME's configuration trees to look at, how deep below HOME it is, and whether it is a link. */
type Walked = { path: string; depth: number; entry: Dirent | Stats; link: boolean };

/** Where the walk starts: HOME's hidden entries and the visible trees that are configuration too (`~/go/bin`). */
function walkRoots(home: string): Walked[] {
  const roots: Walked[] = readdirSafe(home)
    .filter((d) => d.name.startsWith("."))
    .map((d) => ({ path: join(home, d.name), depth: 1, entry: d, link: d.isSymbolicLink() }));
  for (const tree of HOME_VISIBLE_TREES) {
    const path = join(home, tree);
    const entry = lstatSafe(path);
    // `~/go` itself may be the link that takes `~/go/bin` elsewhere.
    const r = entry === null ? null : realPathOf(path);
    if (entry !== null && r?.ok)
      roots.push({ path, depth: tree.split("/").length, entry, link: r.real !== path });
  }
  return roots;
}

function readdirSafe(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // EACCES: the user's own permissions keep its programs out too
  }
}

function lstatSafe(path: string): Stats | null {
  try {
    return lstatEntry(path) ?? null;
  } catch {
    return null;
  }
}

/**
 * The links inside HOME's configuration trees that lead out of them (a dotfiles repository linked in by stow,
 * rcm or by hand, under any name), breadth first and bounded: WALK_DEPTH names deep, WALK_DIRS directories.
 * A link to HOME itself or above (Wine's `dosdevices/z:` to `/`) names no configuration of its own.
 */
function configLinks(home: string): { linked: Linked[]; walked: string[] } {
  const linked: Linked[] = [];
  const walked: string[] = [];
  for (let level = walkRoots(home); level.length > 0; ) {
    const next: Walked[] = [];
    for (const { path, depth, entry, link } of level) {
      if (link) {
        const r = realPathOf(path);
        if (r.ok && homeConfigEntry(r.real, home) === null && !isWithin(r.real, home))
          linked.push({ home: path, real: r.real });
      } else if (
        entry.isDirectory() &&
        depth < WALK_DEPTH &&
        walked.length < WALK_DIRS &&
        !NOT_WALKED.has(path.slice(home.length + 1))
      ) {
        walked.push(path);
        for (const d of readdirSafe(path))
          next.push({ path: join(path, d.name), depth: depth + 1, entry: d, link: d.isSymbolicLink() });
      }
    }
    level = next;
  }
  return { linked, walked };
}

function resolveHome(home: string): HomeState {
  const { linked, walked } = configLinks(home);
  const state: HomeState = { signature: signatureOf(home, walked), walked, linked, unknown: [] };
  const look = looker();
  for (const parts of LOCATIONS)
    for (const path of pathsOf(home, parts, look)) {
      if (!mayBeLinked(home, path, look) || linked.some((l) => l.home === path)) continue;
      const r = realPathOf(path);
      if (!r.ok) state.unknown.push({ home: path, reason: r.reason });
      else if (r.real !== path) state.linked.push({ home: path, real: r.real });
    }
  return state;
}

/**
 * HOME's start-up locations and configuration links as they are now. Cached per HOME while no directory on
 * their way (or read by the walk) changed; the linked ones are resolved again every time, as a link in the
 * workspace they lead to may have moved.
 */
function homeState(env: NodeJS.ProcessEnv): HomeState {
  const named = homeOf(env);
  const r = realPathOf(named);
  if (!r.ok) return { signature: "", walked: [], linked: [], unknown: [{ home: named, reason: r.reason }] };
  let state = states.get(r.real);
  const moved = (l: Linked) => {
    const now = realPathOf(l.home);
    return !now.ok || now.real !== l.real;
  };
  if (
    state === undefined ||
    state.signature !== signatureOf(r.real, state.walked) ||
    state.linked.some(moved)
  ) {
    state = resolveHome(r.real);
    states.set(r.real, state);
  }
  return state;
}

/**
 * A write whose real target lies in HOME's configuration (home-config.ts) while the path the policy judged
 * does not say so: a link in the workspace leads there, or HOME is not where the working directory implies.
 */
export function homeConfigFact(
  real: string,
  lexical: string,
  ctx: Context,
  subject: string,
): CallFact | null {
  const home = realHome(ctx.env);
  if (home === null || isProtectedWriteAt(lexical, homeFor(ctx.cwd))) return null;
  const entry = homeConfigEntry(real, home);
  if (entry === null && !holdsHome(real, home)) return null;
  return {
    subject,
    reason: `${entry === null ? "is the home directory or above it, where what lands may be a hidden entry" : `lands in \`${entry}\``} (\`${real}\`), the home directory's own configuration, which programs read and run when they start`,
  };
}

/**
 * A write whose real target is one of the user's start-up files (or inside a start-up directory) reached
 * through a link under HOME, or whose landing is not known because such a location cannot be resolved.
 */
export function homeStartupFact(real: string, env: NodeJS.ProcessEnv, subject: string): CallFact | null {
  const state = homeState(env);
  const hit = state.linked.find((l) => isWithin(l.real, real));
  if (hit !== undefined)
    return {
      subject,
      reason: `is ${hit.real === real ? "" : "inside "}\`${hit.home}\` on disk (a link there leads to \`${hit.real}\`): a file of the user's that holds secrets or decides what runs`,
    };
  const lost = state.unknown[0];
  if (lost !== undefined)
    return {
      subject,
      reason: `\`${lost.home}\` cannot be resolved (${lost.reason}), so whether this write changes it is not known`,
    };
  return null;
}
