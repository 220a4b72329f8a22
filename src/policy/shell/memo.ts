// Facts computed from a unit (or a unit list) and kept on it: units live in the analysis cache and
// are judged again on every repeat of a command. A symbol-keyed slot on the object costs less than
// a WeakMap, whose entries the garbage collector must trace separately.
const SLOTS = Symbol("airlock.memo");

type Slots = Record<string, unknown>;

export function memo<T>(owner: object, key: string, compute: () => T): T {
  const holder = owner as { [SLOTS]?: Slots };
  let slots = holder[SLOTS];
  if (slots === undefined) {
    slots = {};
    Object.defineProperty(owner, SLOTS, { value: slots, enumerable: false });
  }
  if (key in slots) return slots[key] as T;
  const value = compute();
  slots[key] = value;
  return value;
}
