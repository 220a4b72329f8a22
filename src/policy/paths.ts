// POSIX path arithmetic without node:path, so the engine runs unchanged in workerd.

/** Collapses `.`, `..` and duplicate slashes; keeps a leading `/`. */
export function normalizePath(p: string): string {
  const absolute = p.startsWith("/");
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(seg);
  }
  const joined = out.join("/");
  if (absolute) return `/${joined}`;
  return joined === "" ? "." : joined;
}

/** Like path.resolve(cwd, p) for POSIX; `~` is left as a literal home marker the caller expands. */
/**
 * Whether `p` climbs with `..` after a directory name (`link/..`, `a/b/../c`): the kernel resolves that
 * `..` from where the link leads, so a `chdir()` (git -C, env -C, an agent's workdir, bash's `cd` when the
 * lexical target is missing) ends somewhere the lexical reading does not say (red team, round 12).
 */
export function climbsAfterName(p: string): boolean {
  let named = false;
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (named) return true;
    } else named = true;
  }
  return false;
}

export function resolvePath(cwd: string, p: string): string {
  if (p.startsWith("/")) return normalizePath(p);
  return normalizePath(`${cwd}/${p}`);
}

export function basename(p: string): string {
  const trimmed = p.endsWith("/") ? p.slice(0, -1) : p;
  const i = trimmed.lastIndexOf("/");
  return i === -1 ? trimmed : trimmed.slice(i + 1);
}

/** Path of `abs` relative to `base`, or null when it is outside `base`. */
export function relativeInside(base: string, abs: string): string | null {
  const b = normalizePath(base);
  const a = normalizePath(abs);
  if (a === b) return ".";
  const prefix = b === "/" ? "/" : `${b}/`;
  return a.startsWith(prefix) ? a.slice(prefix.length) : null;
}

/**
 * The user's home directory: the one given, or the one a working directory under
 * `/home/<user>`, `/Users/<user>` or `/root` implies; null when neither says.
 */
export function homeFor(cwd: string, home?: string | null): string | null {
  if (typeof home === "string" && home.startsWith("/")) return normalizePath(home);
  const m = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(\/|$)/.exec(normalizePath(cwd));
  return m ? (m[1] as string) : null;
}

/** A `..` after another segment (`a/../b`): bash leaves it to the kernel, which follows symlinks. */
function climbsAfterDescending(path: string): boolean {
  let descended = false;
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (descended) return true;
    } else descended = true;
  }
  return false;
}

/**
 * `p` against `base` as the kernel walks it: a `..` after a named segment stays, so the kernel applies it
 * to wherever a symlink put it (`lnk/../x` is in the parent of lnk's target), not tidied away lexically.
 * Other paths are tidied as `resolvePath` does. For the companion's disk check, which resolves it.
 */
export function kernelJoin(base: string, p: string): string {
  if (!climbsAfterDescending(p)) return resolvePath(base, p);
  const segs = p.split("/").filter((seg) => seg !== "" && seg !== ".");
  const root = p.startsWith("/") ? "" : normalizePath(base);
  return `${root === "/" ? "" : root}/${segs.join("/")}`;
}

/** A `~`-prefixed path as bash expands it: `~` and `~/x` (home), `~+` (cwd); null for `~user`, `~-`. */
function expandTilde(path: string, home: string | null, cwdAbs: string | null): string | null {
  const slash = path.indexOf("/");
  const prefix = slash === -1 ? path : path.slice(0, slash);
  const rest = slash === -1 ? "" : path.slice(slash + 1);
  const base = prefix === "~" ? home : prefix === "~+" ? cwdAbs : null;
  if (base === null || climbsAfterDescending(rest)) return null;
  return normalizePath(`${base}/${rest}`);
}

export interface ShellPathInput {
  /** The path as bash passes it; null when not static. */
  path: string | null;
  /** It starts with a `~` bash expands. */
  tilde: boolean;
  /** Where the shell is: "." (the call's cwd), relative to it, absolute, `~`-based; null unknown. */
  cwd: string | null;
}

/** The absolute directory a shell cwd expression stands for; null when not known. */
export function resolveShellDir(cwd: string | null, callCwd: string, home: string | null): string | null {
  if (cwd === null) return null;
  if (cwd === ".") return normalizePath(callCwd);
  if (cwd.startsWith("/")) return normalizePath(cwd);
  if (cwd === "~" || cwd.startsWith("~/"))
    return home === null ? null : normalizePath(`${home}/${cwd.slice(1)}`);
  return resolvePath(normalizePath(callCwd), cwd);
}

/**
 * The absolute path a shell command reads or writes, resolved as bash and the kernel would:
 * against the directory the shell is in, `~` against home. Null when it cannot be known (a
 * dynamic word, an unknown directory or home, `~user`, a `..` that may cross a symlink).
 */
export function resolveShellPath(input: ShellPathInput, callCwd: string, home: string | null): string | null {
  const { path, tilde, cwd } = input;
  if (path === null || path === "") return null;
  const dir = resolveShellDir(cwd, callCwd, home);
  if (tilde) return expandTilde(path, home, dir);
  if (path.startsWith("/")) return climbsAfterDescending(path) ? null : normalizePath(path);
  if (dir === null || climbsAfterDescending(path)) return null;
  // After a `cd`, `..` is the parent of wherever the kernel put the shell, which a symlink decides;
  // `./..` and `.//..` are that `..` too (red team, round 6).
  if (cwd !== "." && path.split("/").find((s) => s !== "." && s !== "") === "..") return null;
  return normalizePath(`${dir}/${path}`);
}
