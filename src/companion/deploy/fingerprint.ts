// What makes a deployment "the same": a SHA-256 over exactly what would be uploaded. `airlock deploy` tags the
// Worker version and the Pages deployment with it, and a later run that computes the same one changes nothing.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

export class Fingerprint {
  readonly #hash = createHash("sha256");

  /** Every file under `dir`, by its path relative to `dir` and its bytes. */
  tree(label: string, dir: string): this {
    for (const path of files(dir)) {
      this.#hash.update(`${label}/${relative(dir, path)}\0`);
      this.#hash.update(readFileSync(path));
      this.#hash.update("\0");
    }
    return this;
  }

  text(label: string, value: string): this {
    this.#hash.update(`${label}\0${value}\0`);
    return this;
  }

  hex(): string {
    return this.#hash.digest("hex");
  }
}

/** The Worker version tag: short enough for wrangler's tag field, long enough never to collide by chance. */
export const workerTagOf = (hex: string) => `airlock-${hex.slice(0, 16)}`;
/** Pages keeps a commit hash per deployment and lists its first 7 characters. */
export const pagesCommitOf = (hex: string) => hex.slice(0, 40);
export const pagesShortOf = (hex: string) => hex.slice(0, 7);
