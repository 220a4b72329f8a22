// Table lookups by a name taken from the command: only the table's own entries, never an
// inherited property (`valueOf`, `constructor` and `__proto__` are command names too). Each
// table is copied into a Map once, which is also the fastest way to look it up.
const maps = new WeakMap<object, ReadonlyMap<string, unknown>>();

export function lookup<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  if (table === undefined) return undefined;
  let map = maps.get(table) as ReadonlyMap<string, T> | undefined;
  if (map === undefined) {
    map = new Map(Object.entries(table));
    maps.set(table, map);
  }
  return map.get(key);
}
