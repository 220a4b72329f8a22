// `git verify-pack PACK.idx`: git index-pack reads the pack and its index and prints each object's id, type
// and sizes (never its contents). Only packs of the workspace's own repository are understood: a pack word
// whose index or pack file really lies elsewhere (a link in the path, another repository's store) asks.
import { join } from "node:path";
import type { Repository } from "./git-discovery.ts";
import { isWithin, realPathOf } from "./real-path.ts";

/** The two files index-pack opens for a pack word (`X.idx` and `X.pack`; a word without either gets `.pack`). */
function packFiles(pack: string): string[] {
  const stem = pack.replace(/\.(idx|pack)$/, "");
  return [`${stem}.idx`, `${stem}.pack`];
}

/** Why verifying the packs `packs` (absolute) reads something other than `own`'s object store; null when it does not. */
export function foreignPackReason(packs: readonly string[], own: Repository | null): string | null {
  if (own === null) return "git verify-pack reads a pack, and the workspace has no repository of its own";
  const store = realPathOf(join(own.commonDir, "objects", "pack"));
  if (!store.ok) return `the repository's pack directory ${store.reason}`;
  for (const file of packs.flatMap(packFiles)) {
    const r = realPathOf(file);
    if (!r.ok || !isWithin(store.real, r.real) || r.stat?.isFile() !== true)
      return `git verify-pack reads \`${file}\`, which is not a pack file of the workspace's own repository`;
  }
  return null;
}
