// The card's account of a causal change: a command whose saved grant was pinned to content that has since
// changed asks again, and the person reads what changed (the script line, the recipe) before answering.
import type { JudgedCall } from "./judge-call.ts";
import type { CausalPin } from "./types.ts";

/** The first reason of a call asked again because what it runs changed (audit and stats count it by this). */
export const CAUSAL_CHANGE_MARK = "what it runs changed since it was allowed always";

export interface CausalChangeNote {
  key: string;
  dir: string;
  changed?: string | undefined;
}

/** A command's pin with the earlier contents pinned for it and what changed since each. */
export interface PinWithEarlier extends CausalPin {
  earlier?: readonly { pin: string; changed: string }[] | undefined;
}

/**
 * For each pin, the change since the newest earlier content a saved allow grant covers. `covered` says
 * whether the call with these pins would be covered by a saved allow grant (each side asks its own grants).
 */
export function causalChangeNotes(
  pins: readonly PinWithEarlier[],
  covered: (pins: CausalPin[]) => boolean,
): CausalChangeNote[] {
  const plain = pins.map(({ dir, key, pin }) => ({ dir, key, pin }));
  const notes: CausalChangeNote[] = [];
  pins.forEach((p, i) => {
    const hit = p.earlier?.find(
      (e) => e.pin !== p.pin && covered(plain.map((q, j) => (j === i ? { ...q, pin: e.pin } : q))),
    );
    if (hit !== undefined) notes.push({ key: p.key, dir: p.dir, changed: hit.changed });
  });
  return notes;
}

/** `npm-script:test` → "the `test` script"; `make::check` → "the Makefile target `check`". */
export function runnerWords(key: string): string {
  const [kind, ...rest] = key.split(":");
  const name = rest.join(":");
  if (kind === "npm-script") return `the \`${name}\` script`;
  if (kind === "make") {
    const target = rest[rest.length - 1] ?? "";
    return target === "" ? "the Makefile's default target" : `the Makefile target \`${target}\``;
  }
  if (kind === "tool") return `${name}'s configuration`;
  return `${kind} ${name}`.trim();
}

/** The lines a card shows for each changed pin; empty when nothing changed. */
export function causalChangeLines(notes: readonly CausalChangeNote[]): string[] {
  return notes
    .filter((n) => n.changed !== undefined && n.changed !== "")
    .map((n) => `${CAUSAL_CHANGE_MARK}: ${runnerWords(n.key)} in ${n.dir}\n${n.changed}`);
}

/** The call's record with its causal changes first among the reasons and in the justification. */
export function withCausalChange(judged: JudgedCall, notes: readonly CausalChangeNote[]): JudgedCall {
  const lines = causalChangeLines(notes);
  if (lines.length === 0) return judged;
  const { record } = judged;
  return {
    ...judged,
    record: {
      ...record,
      reasons: [...lines, ...record.reasons],
      justification: `${lines.join("\n")}\n${record.justification}`,
    },
  };
}
