// The first view paints without zod: the validators (zod, the src/protocol shapes the Approvals view reads, and the
// decision outbox that parses what it restores) are one lazy chunk, fetched as soon as the first render is queued.
// Nothing from the edge is used before it is parsed: the socket holds its messages until the chunk is here, REST
// calls await it before reading an answer, and a card exists only once its message was parsed.
export type Validators = typeof import("./validators.ts");

let loaded: Validators | null = null;
let pending: Promise<Validators> | null = null;

/** The validators, fetched once (again after a failed fetch, e.g. offline at first load). */
export function loadValidators(): Promise<Validators> {
  pending ??= import("./validators.ts").then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}

/**
 * The validators if they are here already. Code that renders parsed data may rely on them: the data could not
 * exist without them.
 */
export function loadedValidators(): Validators | null {
  return loaded;
}
