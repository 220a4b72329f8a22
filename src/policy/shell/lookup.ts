// Table lookups by a name taken from the command: only the table's own entries, never an
// inherited property (`valueOf`, `constructor` and `__proto__` are command names too).
export function lookup<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}
