// A file directly in a shared temporary directory (/tmp, /var/tmp), which the starter policies let an agent
// read and write as its scratch space (`tail -n 50 /tmp/build.log`, `echo x > /tmp/out.txt`). Anyone can
// put an entry there, so only the user's own regular file is scratch: a link (planted to lead to a private
// file), another user's file (its owner chose what it holds), a socket or FIFO (an ssh agent's, a
// database's) asks. A new file is created there only where the kernel refuses to follow another user's link
// in a sticky directory (fs.protected_symlinks): elsewhere one planted between the decision and the write
// would be followed.
import { lstatSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { nothingThere } from "./real-path.ts";

/** The shared temporary directories whose direct entries count as scratch. */
export const SCRATCH_DIRS: readonly string[] = ["/tmp", "/var/tmp"];

function protectedSymlinks(): boolean {
  try {
    return readFileSync("/proc/sys/fs/protected_symlinks", "utf8").trim() !== "0";
  } catch {
    return false;
  }
}

/** Why the path directly in a shared temporary directory is not the user's scratch file; null when it is, or is elsewhere. */
export function scratchFact(access: "read" | "write", lexical: string, subject: string): CallFact | null {
  if (!SCRATCH_DIRS.includes(dirname(lexical))) return null;
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(lexical);
  } catch (error) {
    if (!nothingThere(error))
      return { subject, reason: "cannot be looked at in the shared temporary directory" };
    if (access === "read" || protectedSymlinks()) return null;
    return {
      subject,
      reason:
        "would be created in a shared temporary directory on a system that follows another user's link planted there (fs.protected_symlinks is off)",
    };
  }
  if (st.isSymbolicLink())
    return { subject, reason: "is a link in a shared temporary directory, where anyone can plant one" };
  if (st.isDirectory()) return null;
  if (!st.isFile())
    return { subject, reason: "is not a regular file (a socket or a FIFO in a shared temporary directory)" };
  const me = process.getuid?.();
  if (me === undefined || st.uid !== me)
    return { subject, reason: "belongs to another user, in a shared temporary directory" };
  return null;
}
