// The workspace index: every servable file path of a workspace, by path and by base name, kept current by
// the watcher. Paths the guards refuse (secrets, node_modules/, .git/) are never indexed.
import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { servingRefusal } from "../guards/index.ts";

/** Big monorepos stop being indexed here; candidates then come only from exact paths in the text. */
export const MAX_INDEXED_FILES = 200_000;

export class WorkspaceIndex {
  readonly root: string;
  readonly #files = new Set<string>();
  readonly #dirs = new Set<string>();
  readonly #byBase = new Map<string, Set<string>>();
  #truncated = false;

  constructor(root: string) {
    this.root = root;
  }

  get size(): number {
    return this.#files.size;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  has(relative: string): boolean {
    return this.#files.has(relative);
  }

  isDirectory(relative: string): boolean {
    return this.#dirs.has(relative);
  }

  /** Indexed paths whose base name is `name` (case-sensitive, as the filesystem is). */
  byBaseName(name: string): readonly string[] {
    return [...(this.#byBase.get(name) ?? [])];
  }

  files(): IterableIterator<string> {
    return this.#files.values();
  }

  /** Walks the tree once; symlinks are not followed (a link's target is judged when it is read). */
  async build(): Promise<void> {
    await this.#scan("");
  }

  /** Brings one changed path up to date; says whether it is (or was) a directory. */
  async refresh(relative: string): Promise<"file" | "tree" | "gone" | "ignored"> {
    if (relative === "" || servingRefusal(relative)) return "ignored";
    const info = await lstat(join(this.root, relative)).catch(() => undefined);
    if (!info) {
      const wasDir = this.#dirs.has(relative);
      this.#removeTree(relative);
      return wasDir ? "tree" : this.#files.has(relative) ? "file" : "gone";
    }
    if (info.isDirectory()) {
      this.#removeTree(relative);
      await this.#scan(relative);
      return "tree";
    }
    if (info.isFile() || info.isSymbolicLink()) this.#add(relative);
    return "file";
  }

  #add(relative: string): void {
    if (this.#files.has(relative)) return;
    if (this.#files.size >= MAX_INDEXED_FILES) {
      this.#truncated = true;
      return;
    }
    this.#files.add(relative);
    const base = relative.slice(relative.lastIndexOf("/") + 1);
    const set = this.#byBase.get(base) ?? new Set<string>();
    set.add(relative);
    this.#byBase.set(base, set);
  }

  #remove(relative: string): void {
    if (!this.#files.delete(relative)) return;
    const base = relative.slice(relative.lastIndexOf("/") + 1);
    this.#byBase.get(base)?.delete(relative);
  }

  #removeTree(relative: string): void {
    this.#remove(relative);
    if (!this.#dirs.delete(relative)) return;
    const prefix = `${relative}/`;
    for (const f of [...this.#files]) if (f.startsWith(prefix)) this.#remove(f);
    for (const d of [...this.#dirs]) if (d.startsWith(prefix)) this.#dirs.delete(d);
  }

  async #scan(relDir: string): Promise<void> {
    const stack = [relDir];
    while (stack.length > 0) {
      const dir = stack.pop() ?? "";
      let entries: Dirent[];
      try {
        entries = await readdir(join(this.root, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      if (dir !== "") this.#dirs.add(dir);
      for (const entry of entries) {
        const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
        if (servingRefusal(rel)) continue;
        if (entry.isDirectory()) stack.push(rel);
        else if (entry.isFile() || entry.isSymbolicLink()) this.#add(rel);
        if (this.#truncated) return;
      }
    }
  }
}
