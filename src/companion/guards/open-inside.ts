// The one way the companion opens a workspace file to read or serve it (precognition warm and serve,
// the MCP read and grep tools). It resolves the path through the guard, opens it, then checks what was
// actually opened: a path checked first and opened afterwards can be swapped in between (a directory
// replaced by a symlink to ~/.ssh), and O_NOFOLLOW only protects the last component. The opened file
// must be a regular file inside the workspace now, with no second name anywhere (a hard link to
// ~/.aws/credentials has link count 2), on no secret family, and — when small — holding no private key.
import { constants } from "node:fs";
import { type FileHandle, open, readlink, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";
import { PACKED_REASON, scanBytes } from "./key-scan.ts";
import { servingRefusal } from "./serving-denylist.ts";
import { resolveWorkspacePath } from "./workspace-path.ts";

export interface OpenedFile {
  ok: true;
  handle: FileHandle;
  /** Real path as the kernel names the descriptor. */
  absolute: string;
  /** That path, workspace-relative. */
  relative: string;
  stat: import("node:fs").BigIntStats;
}

export type OpenedInside = OpenedFile | { ok: false; reason: string; code?: string };

function inside(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return rel === "" ? "." : null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** Where the kernel says an open descriptor points (Linux); null when the platform cannot say. */
async function openedPath(fd: number): Promise<string | null> {
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * Resolves `requested` (workspace-relative, or absolute inside the workspace) and opens it for reading,
 * proving the descriptor is a regular file inside `workspaceRoot` that may be served. On failure the
 * handle is closed and the reason says which guard refused.
 */
export async function openInside(workspaceRoot: string, requested: string): Promise<OpenedInside> {
  const resolved = await resolveWorkspacePath(workspaceRoot, requested);
  if (!resolved.ok) return { ok: false, reason: resolved.reason };
  let handle: FileHandle;
  try {
    handle = await open(resolved.absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason: code === "ELOOP" ? "the file was replaced by a symlink" : "cannot open file",
      ...(code ? { code } : {}),
    };
  }
  const refuse = async (reason: string, code?: string): Promise<OpenedInside> => {
    await handle.close();
    return { ok: false, reason, ...(code ? { code } : {}) };
  };
  try {
    const root = await realpath(workspaceRoot);
    const opened = await handle.stat({ bigint: true });
    if (opened.isDirectory()) return refuse("the path is a directory", "EISDIR");
    if (!opened.isFile()) return refuse("not a regular file");
    // A second name (a hard link) may sit outside the workspace, or on the secret denylist.
    if (opened.nlink > 1n) return refuse("the file has another name (a hard link)");
    // Read after the link count: the name the file was opened through. Once that name is unlinked the
    // kernel marks it deleted for good, so a name that still stands means the count above was taken while
    // it stood — the one name was this one (a hard link swapped in and out again is caught here).
    const kernel = await openedPath(handle.fd);
    if (kernel?.endsWith(" (deleted)")) return refuse("the file was renamed or removed while it was opened");
    const named = kernel ?? (await realpath(resolved.absolute).catch(() => null));
    if (named === null) return refuse("the opened file cannot be located");
    const rel = inside(root, named);
    if (rel === null)
      return refuse("the opened file is outside the workspace (a path changed while it was opened)");
    const why = servingRefusal(rel);
    if (why !== null) return refuse(why);
    if (kernel === null) {
      // Without /proc, the path must still name the very file that was opened.
      const now = await stat(named, { bigint: true }).catch(() => null);
      if (now === null || now.dev !== opened.dev || now.ino !== opened.ino)
        return refuse("the file changed while it was opened");
    }
    return { ok: true, handle, absolute: named, relative: rel, stat: opened };
  } catch (error) {
    await handle.close();
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: `cannot check the opened file (${code ?? "error"})` };
  }
}

/**
 * Reads a file opened by openInside whole (at most `maxBytes`), and refuses it when it is small and holds
 * a private key, whatever its name. Closes the handle. Null with a reason on refusal.
 */
export async function readOpened(
  opened: OpenedFile,
  maxBytes: number,
): Promise<{ bytes: Buffer } | { refused: "too-large" | "secret" | "changed"; reason: string }> {
  try {
    if (opened.stat.size > BigInt(maxBytes))
      return { refused: "too-large", reason: `${opened.stat.size} bytes` };
    const bytes = await opened.handle.readFile();
    // The file grew between stat and read: what was read is not what the identity describes.
    if (BigInt(bytes.length) !== opened.stat.size)
      return { refused: "changed", reason: "changed while read" };
    const scan = scanBytes(bytes);
    if (scan === "key") return { refused: "secret", reason: "the file holds a private key or a credential" };
    if (scan === "too-large") return { refused: "too-large", reason: "too large to check for a private key" };
    if (scan === "packed") return { refused: "secret", reason: PACKED_REASON };
    return { bytes };
  } finally {
    await opened.handle.close();
  }
}
