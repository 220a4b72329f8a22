// Opens a file the guard resolved, then checks what was actually opened: a path checked first and
// opened afterwards can be swapped in between (a directory replaced by a symlink to ~/.ssh), and
// O_NOFOLLOW only protects the last component. The opened file must be the very file (device and
// inode) that the path names inside the workspace now, with no second name elsewhere.
import { constants } from "node:fs";
import { type FileHandle, open, readlink, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";
import { servingRefusal } from "./serving-denylist.ts";

export type OpenedInside = { ok: true; handle: FileHandle } | { ok: false; reason: string; code?: string };

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
 * Opens `absolute` (a path resolveWorkspacePath returned) for reading and proves the descriptor is
 * a regular file inside `workspaceRoot` that may be served. On failure the handle is closed.
 */
export async function openInside(workspaceRoot: string, absolute: string): Promise<OpenedInside> {
  let handle: FileHandle;
  try {
    handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason: code === "ELOOP" ? "the file was replaced by a symlink" : "cannot open file",
      ...(code ? { code } : {}),
    };
  }
  const refuse = async (reason: string): Promise<OpenedInside> => {
    await handle.close();
    return { ok: false, reason };
  };
  try {
    const root = await realpath(workspaceRoot);
    const opened = await handle.stat();
    // A second name (a hard link) may sit outside the workspace, or on the secret denylist.
    if (opened.isFile() && opened.nlink > 1) return refuse("the file has another name (a hard link)");
    const kernel = await openedPath(handle.fd);
    const named = kernel ?? (await realpath(absolute).catch(() => null));
    if (named === null) return refuse("the opened file cannot be located");
    const rel = inside(root, named);
    if (rel === null)
      return refuse("the opened file is outside the workspace (a path changed while it was opened)");
    const why = servingRefusal(rel);
    if (why !== null) return refuse(why);
    if (kernel === null) {
      // Without /proc, the path must still name the very file that was opened.
      const now = await stat(named).catch(() => null);
      if (now === null || now.dev !== opened.dev || now.ino !== opened.ino)
        return refuse("the file changed while it was opened");
    }
    return { ok: true, handle };
  } catch (error) {
    await handle.close();
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: `cannot check the opened file (${code ?? "error"})` };
  }
}
