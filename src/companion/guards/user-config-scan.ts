// Every user configuration file read for the paths it names, by class rather than by program (red team,
// round 19: ~/.bash_completion, gpg-agent.conf's pinentry-program, menu .desktop entries, ~/.screenrc,
// vim's plugin/ files, ~/.mavenrc, ~/.pdbrc … each a program the per-program rows of config-references.ts
// did not know). Scanned: HOME's own dot files and their `*.d/` drop-in directories, everything under
// ~/.config (and $XDG_CONFIG_HOME), ~/.local/share/applications, ~/.vim, ~/.julia/config, ~/.gnupg's
// `.conf` files and ~/.ssh/config; histories, state, caches, repositories' objects, third-party plug-in
// trees and binary files are not configuration and are left out. Read through the caller's StampedReader,
// so a change to any file read (or directory listed) reads them again; nothing is re-read otherwise.
import { closeSync, openSync, readSync, type Stats } from "node:fs";
import { join } from "node:path";
import { pathTokens, type TokenHome } from "../../policy/path-tokens.ts";
import { type StampedReader, stampOf } from "./config-references.ts";
import { statEntry } from "./fs-entry.ts";

/** A path a user configuration file names, and the first file found naming it. */
export interface ScannedPath {
  path: string;
  from: string;
  /** Only ever a `cd` target: a place to be, whose files it does not run (see PathToken). */
  cd: boolean;
}

export interface Scan {
  named: Map<string, ScannedPath>;
  /** Why the scan stopped short (a bound passed), or null: past a bound nothing is known, so writes ask. */
  overflow: string | null;
}

/**
 * The bounds. A real home's configuration is a few hundred small text files once the state and caches
 * below are left out; these are far above that, so reaching one means something unusual is there (a
 * tree generated into ~/.config, a huge file). They are safe because past any of them the scan does not
 * skip what it did not read: it reports an overflow, and every write it is asked about asks.
 */
const MAX_FILES = 3000;
const MAX_DEPTH = 8;
const MAX_BYTES = 1024 * 1024;
/** How much of a too-large file is looked at to tell it is binary (git's own heuristic: a NUL byte). */
const SNIFF_BYTES = 8000;

/**
 * Files that are a program's record of what was done (histories, logs, locks, databases), not configuration,
 * and lists of places a person goes (GTK's and KDE's bookmarks, `user-dirs.dirs`), not programs anything runs.
 */
const STATE_FILE =
  /(?:^|[._-])(?:history|histfile|hsts)$|^\.lesshst$|^\.viminfo$|^\.zcompdump|^\.(?:X|ICE)authority$|^\.xsession-errors|^recently-used|^bookmarks$|^user-dirs\.dirs$|\.(?:log|swp|swo|lock|bak|old|tmp|pid|db|sqlite3?|ldb|xbel)$/i;

/**
 * Directories that are state, caches or other people's code: a repository's objects, package trees, Chromium
 * and Electron profiles (VS Code's Local History and workspaceStorage keep copies and lists of every file
 * opened), vim's undo, swap, view and session files, and plug-in managers' clones (vim-plug, Vundle, packages).
 */
const STATE_DIR =
  /^(?:\.git|node_modules|__pycache__|\.?venv|site-packages|logs?|History|workspaceStorage|globalStorage|blob_storage|IndexedDB|Local Storage|Session Storage|Service Worker|WebStorage|Crashpad|Crash Reports|sessions?|undo|swap|backup|view|plugged|bundle|pack|google-chrome.*|chromium|BraveSoftware|vivaldi.*|microsoft-edge.*|opera.*)$|cache/i;

/** The kernel's own trees: no write lands there, and a name under /proc/self resolves per process. */
const KERNEL = /^\/(?:proc|dev|sys)(?:\/|$)/;

class Walk {
  readonly named = new Map<string, ScannedPath>();
  overflow: string | null = null;
  private files = 0;
  /** Directories seen (by device and inode): a link back up is not walked twice. */
  private readonly dirs = new Set<string>();

  private readonly reader: StampedReader;
  private readonly h: TokenHome;

  constructor(reader: StampedReader, h: TokenHome) {
    this.reader = reader;
    this.h = h;
  }

  /** A directory's files and subdirectories, `depth` levels at most below it. */
  tree(dir: string, depth: number): void {
    const s = statOf(dir);
    const id = s === null ? null : `${s.dev}:${s.ino}`;
    if (this.overflow !== null || (id !== null && this.dirs.has(id))) return;
    if (id !== null) this.dirs.add(id);
    // Listed even when absent: the stamp then tells when it appears.
    for (const name of this.reader.list(dir)) {
      const path = join(dir, name);
      const entry = statOf(path);
      if (entry?.isDirectory() && !STATE_DIR.test(name)) {
        if (depth === 0) this.stop(`\`${path}\` is deeper than ${MAX_DEPTH} directories`);
        else this.tree(path, depth - 1);
      } else if (entry?.isFile()) this.file(path, entry.size);
    }
  }

  /** A configuration file's named paths; a state file's name or a binary file's bytes leave it out. */
  file(path: string, size: number | null = statOf(path)?.size ?? null): void {
    if (STATE_FILE.test(path.slice(path.lastIndexOf("/") + 1)) || this.overflow !== null) return;
    if (size === null) {
      this.reader.read(path); // stamped as absent: read when it appears
      return;
    }
    if (++this.files > MAX_FILES) {
      this.stop(`there are more than ${MAX_FILES} of them`);
      return;
    }
    if (size > MAX_BYTES) {
      this.reader.stamps.set(path, stampOf(path));
      if (!binaryStart(path)) this.stop(`\`${path}\` is larger than ${MAX_BYTES} bytes`);
      return;
    }
    const text = this.reader.read(path);
    if (text === null || text.includes("\0")) return;
    for (const t of pathTokens(text, this.h)) {
      if (KERNEL.test(t.path)) continue;
      const known = this.named.get(t.path);
      if (known === undefined) this.named.set(t.path, { path: t.path, from: path, cd: t.cd });
      else if (!t.cd && known.cd) this.named.set(t.path, { path: t.path, from: path, cd: false });
    }
  }

  private stop(why: string): void {
    this.overflow ??= why;
  }
}

function statOf(path: string): Stats | null {
  try {
    return statEntry(path) ?? null;
  } catch {
    return null;
  }
}

/** Whether the file's first bytes hold a NUL (unreadable: not binary, so it is not left out unseen). */
function binaryStart(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(SNIFF_BYTES);
    return head.subarray(0, readSync(fd, head, 0, SNIFF_BYTES, 0)).includes(0);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The configuration directories of the class, each walked whole (within the bounds). */
function configTrees(env: NodeJS.ProcessEnv, home: string): string[] {
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  return [
    ...new Set([xdg, join(home, ".config")]),
    ...[join(home, ".local", "share", "applications"), join(home, ".vim"), join(home, ".julia", "config")],
  ];
}

/** Reads every user configuration file of the class and the absolute paths each names. */
export function scanUserConfigs(reader: StampedReader, env: NodeJS.ProcessEnv, home: string): Scan {
  const h = { home, xdgConfig: env.XDG_CONFIG_HOME || join(home, ".config") };
  const walk = new Walk(reader, h);
  for (const name of reader.list(home).filter((n) => n.startsWith("."))) {
    const path = join(home, name);
    const s = statOf(path);
    // A drop-in directory (~/.bashrc.d, ~/.profile.d, ~/.bash_completion.d) is read as its file is.
    if (s?.isDirectory() && name.endsWith(".d")) walk.tree(path, 1);
    else if (s?.isFile()) walk.file(path, s.size);
  }
  for (const dir of configTrees(env, home)) walk.tree(dir, MAX_DEPTH);
  for (const name of reader.list(join(home, ".gnupg")).filter((n) => n.endsWith(".conf")))
    walk.file(join(home, ".gnupg", name));
  walk.file(join(home, ".ssh", "config"));
  return { named: walk.named, overflow: walk.overflow };
}
