// resolveWorkspacePath: the one gate every path the companion reads or serves passes through.
import { lstat, realpath } from "node:fs/promises";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { servingRefusal } from "./serving-denylist.ts";

export type WorkspacePath = { ok: true; absolute: string; relative: string } | { ok: false; reason: string };

const MAX_PATH_LENGTH = 4096;

// Percent-encodings of `.`, `/`, `\`, NUL, `%` itself (double encoding) and the overlong UTF-8 lead
// bytes. Paths are never decoded, but a reader further down the line (a URL, a shell, a proxy) might,
// so a path that would turn into traversal once decoded is refused as suspicious.
const ENCODED_TRAVERSAL = /%(?:2e|2f|5c|00|25|c0|c1|e0%80)/i;

function refuse(reason: string): WorkspacePath {
  return { ok: false, reason };
}

/** `child` is `root` or below it (both absolute and normalized). */
function isWithin(root: string, child: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  return child.startsWith(prefix);
}

function toPosix(rel: string): string {
  return sep === "/" ? rel : rel.split(sep).join("/");
}

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/**
 * Resolves the real path of `absolute` even when its tail does not exist yet: realpath of the deepest
 * existing ancestor, plus the missing segments. A dangling symlink or a loop on the way is refused,
 * because what it will point at when the file is opened cannot be known now.
 */
async function realpathDeepest(absolute: string): Promise<{ real: string } | { error: string }> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return { real: missing.length === 0 ? real : join(real, ...missing.reverse()) };
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ELOOP") return { error: "symlink loop" };
      if (code !== "ENOENT" && code !== "ENOTDIR")
        return { error: `cannot resolve path (${code ?? "error"})` };
      const link = await lstat(current).catch(() => undefined);
      if (link?.isSymbolicLink()) return { error: "dangling symlink" };
      const parent = resolve(current, "..");
      if (parent === current) return { error: "cannot resolve path" };
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves `requested` (relative to the workspace, or absolute inside it) to a real absolute path
 * inside the workspace that may be served, or says why not. Symlinks are resolved, so what is
 * returned is what will actually be opened. Reasons never echo file contents.
 */
export async function resolveWorkspacePath(workspaceRoot: string, requested: string): Promise<WorkspacePath> {
  if (typeof requested !== "string" || requested.length === 0) return refuse("empty path");
  if (requested.length > MAX_PATH_LENGTH) return refuse("path too long");
  if (requested.includes("\0")) return refuse("path contains a NUL byte");
  const nfc = requested.normalize("NFC");
  if (nfc.startsWith("~")) return refuse("home-relative (~) paths are outside the workspace");
  if (nfc.includes("\\")) return refuse("backslashes are not allowed in paths");
  if (ENCODED_TRAVERSAL.test(nfc)) return refuse("percent-encoded traversal is not allowed");

  let realRoot: string;
  try {
    realRoot = await realpath(workspaceRoot);
  } catch {
    return refuse("workspace root does not exist");
  }
  const lexicalRoot = resolve(workspaceRoot);
  const rootOf = (p: string): string | undefined =>
    isWithin(lexicalRoot, p) ? lexicalRoot : isWithin(realRoot, p) ? realRoot : undefined;

  // The NFKC spelling must stay inside too: `．．/` is harmless on disk but not to every consumer.
  const nfkc = nfc.normalize("NFKC");
  if (nfkc.includes("\\") || nfkc.startsWith("~") || ENCODED_TRAVERSAL.test(nfkc)) {
    return refuse("path escapes the workspace once Unicode-normalized");
  }
  if (nfkc !== nfc && !rootOf(resolve(lexicalRoot, nfkc))) {
    return refuse("path escapes the workspace once Unicode-normalized");
  }

  const lexical = resolve(lexicalRoot, nfc);
  const lexicalBase = rootOf(lexical);
  if (!lexicalBase) {
    return refuse(
      isAbsolute(nfc) ? "absolute path outside the workspace" : "path escapes the workspace (..)",
    );
  }
  const lexicalRelative = toPosix(relative(lexicalBase, lexical));
  const lexicalRefusal = servingRefusal(lexicalRelative);
  if (lexicalRefusal) return refuse(lexicalRefusal);

  const resolved = await realpathDeepest(join(realRoot, lexicalRelative));
  if ("error" in resolved) return refuse(resolved.error);
  if (!isWithin(realRoot, resolved.real))
    return refuse("path resolves outside the workspace through a symlink");
  const realRelative = toPosix(relative(realRoot, resolved.real));
  const realRefusal = servingRefusal(realRelative);
  if (realRefusal) return refuse(realRefusal);
  return { ok: true, absolute: resolved.real, relative: realRelative === "" ? "." : realRelative };
}
