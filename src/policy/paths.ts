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
