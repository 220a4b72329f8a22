// The user's start-up files as the disk has them: every protected location under HOME (the same tables the
// protected-write rule matches by name) resolved through its links, so a workspace file that IS
// ~/.gitconfig on disk (a dotfiles repository linked into ~) is written as ~/.gitconfig is (red team, round 15).
import { lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { Lru } from "../../policy/lru.ts";
import { DENYLIST_PATTERNS, PROTECTED_WRITE_PATTERNS } from "../../policy/secret-paths.ts";
import { homeOf } from "./git-config-layers.ts";
import { isWithin, realPathOf } from "./real-path.ts";

/** A start-up location a link takes elsewhere: its name under HOME and where writes to it land. */
interface Linked {
  home: string;
  real: string;
}

interface HomeState {
  /** Stat of every directory between HOME and a location: any entry added, removed or relinked changes it. */
  signature: string;
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

function signatureOf(home: string): string {
  return ANCESTORS.map((d) => {
    try {
      const s = statSync(join(home, d), { throwIfNoEntry: false });
      return s === undefined ? "-" : `${s.ino}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      return "-"; // ENOTDIR: a file on the way
    }
  }).join(",");
}

/** lstat without throwing, remembered for one look at HOME (locations share their directories). */
type Look = (path: string) => Stats | null;

function looker(): Look {
  const seen = new Map<string, Stats | null>();
  return (path) => {
    let s = seen.get(path);
    if (s === undefined) {
      try {
        s = lstatSync(path, { throwIfNoEntry: false }) ?? null;
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

function resolveHome(home: string, signature: string): HomeState {
  const state: HomeState = { signature, linked: [], unknown: [] };
  const look = looker();
  for (const parts of LOCATIONS)
    for (const path of pathsOf(home, parts, look)) {
      if (!mayBeLinked(home, path, look)) continue;
      const r = realPathOf(path);
      if (!r.ok) state.unknown.push({ home: path, reason: r.reason });
      else if (r.real !== path) state.linked.push({ home: path, real: r.real });
    }
  return state;
}

/**
 * HOME's start-up locations as they are now. Cached per HOME while no directory on their way changed; the
 * linked ones are resolved again every time, as a link in the workspace they lead to may have moved.
 */
function homeState(env: NodeJS.ProcessEnv): HomeState {
  const named = homeOf(env);
  const r = realPathOf(named);
  if (!r.ok) return { signature: "", linked: [], unknown: [{ home: named, reason: r.reason }] };
  const signature = signatureOf(r.real);
  let state = states.get(r.real);
  const moved = (l: Linked) => {
    const now = realPathOf(l.home);
    return !now.ok || now.real !== l.real;
  };
  if (state === undefined || state.signature !== signature || state.linked.some(moved)) {
    state = resolveHome(r.real, signature);
    states.set(r.real, state);
  }
  return state;
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
