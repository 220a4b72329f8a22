// A bounded recency cache in two generations: hits on recent entries are a single Map lookup
// (a strict LRU re-inserts on every hit, which cost ~5% of a cached decision). When the young
// generation is full it becomes the old one and the previous old generation is dropped; an old
// entry that is hit moves back to the young one. It always keeps at least the `max` most
// recently used entries and never more than 2 × `max`.
export class Lru<K, V> {
  readonly #max: number;
  #young = new Map<K, V>();
  #old = new Map<K, V>();

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  get(key: K): V | undefined {
    const value = this.#young.get(key);
    if (value !== undefined) return value;
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.#insert(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    this.#old.delete(key);
    if (this.#young.has(key)) this.#young.set(key, value);
    else this.#insert(key, value);
  }

  #insert(key: K, value: V): void {
    if (this.#young.size >= this.#max) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
  }

  get size(): number {
    return this.#young.size + this.#old.size;
  }
}
