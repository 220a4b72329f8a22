// Wrangler's offline noise: with no network, its optional checks (update notice, telemetry, remote lookups) print
// `getaddrinfo ENOTFOUND` errors with stack traces that look like failures while the local edge works. `npm run dev`
// and `airlock deploy` drop those blocks (and say once what happened); every other line passes unchanged.

const START = /getaddrinfo (ENOTFOUND|EAI_AGAIN)/;
/** The lines that belong to such a block: stack frames, the error object's fields and braces. */
const PART = /^\s+at .+$|^\s*(errno|code|syscall|hostname|cause|\[cause\]):|^\s*[{}]\s*,?$|^\s*}\s*$/;

/** Streams text in chunks, holding back a partial last line, and drops offline-noise blocks. */
export class OfflineNoiseFilter {
  #partial = "";
  #inBlock = false;
  /** Blocks dropped so far. */
  dropped = 0;

  push(chunk: string): string {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop() ?? "";
    return lines
      .filter((line) => this.#keep(line))
      .map((l) => `${l}\n`)
      .join("");
  }

  /** What is left at the end of the stream. */
  flush(): string {
    const rest = this.#partial;
    this.#partial = "";
    return rest && this.#keep(rest) ? rest : "";
  }

  #keep(line: string): boolean {
    if (START.test(line)) {
      if (!this.#inBlock) this.dropped++;
      this.#inBlock = true;
      return false;
    }
    if (this.#inBlock && PART.test(line)) return false;
    this.#inBlock = false;
    return true;
  }
}

export function withoutOfflineNoise(text: string): string {
  const filter = new OfflineNoiseFilter();
  return filter.push(text) + filter.flush();
}
