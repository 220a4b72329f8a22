// Command-line arguments in Airlock's words: every usage mistake becomes a UsageError that names the option, suggests
// the nearest known one, and lets the dispatcher print the command's usage line (never Node's parser message).
import { parseArgs } from "node:util";

/** A mistake in how the command was called; the dispatcher prints it with the usage line and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

type OptionSpec = { type: "string" | "boolean"; multiple?: boolean; short?: string };
export type OptionSpecs = Record<string, OptionSpec>;

type Values<O extends OptionSpecs> = {
  [K in keyof O]?: O[K]["type"] extends "string"
    ? O[K]["multiple"] extends true
      ? string[]
      : string
    : O[K]["multiple"] extends true
      ? boolean[]
      : boolean;
};

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), for "did you mean". */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The closest candidate within a third of the word's length (at least 1 edit, at most 3), or a unique prefix. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (!best || d < best.d) best = { c, d };
  }
  const limit = Math.min(3, Math.max(1, Math.floor(w.length / 3)));
  if (best && best.d <= limit) return best.c;
  const prefixed = candidates.filter((c) => c.startsWith(w) || (w.length >= 3 && w.startsWith(c)));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

export function didYouMean(word: string, candidates: readonly string[], render = (s: string) => s): string {
  const near = closest(word, candidates);
  return near ? ` (did you mean ${render(near)}?)` : "";
}

/**
 * Parses `args` against `options`. `positionals` is how many positional arguments the command takes (0 by default;
 * Infinity for any number). Throws UsageError for an unknown option, a missing or unexpected value, or a stray word.
 */
export function parseCommandArgs<O extends OptionSpecs>(
  args: string[],
  options: O,
  positionals: { max?: number; what?: string } = {},
): { values: Values<O>; positionals: string[] } {
  const max = positionals.max ?? 0;
  const names = Object.keys(options).map((n) => `--${n}`);
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  let count = 0;
  for (const token of tokens) {
    if (token.kind === "option") {
      const spec = options[token.name];
      if (!spec) throw new UsageError(`unknown option ${token.rawName}${didYouMean(token.rawName, names)}`);
      if (
        spec.type === "string" &&
        (token.value === undefined || (!token.inlineValue && token.value.startsWith("-")))
      )
        throw new UsageError(`${token.rawName} needs a value`);
      if (spec.type === "boolean" && token.value !== undefined)
        throw new UsageError(`${token.rawName} takes no value`);
      if (!spec.multiple && tokens.filter((t) => t.kind === "option" && t.name === token.name).length > 1)
        throw new UsageError(`${token.rawName} is given more than once`);
    } else if (token.kind === "positional") {
      count++;
      if (count > max) {
        throw new UsageError(
          max === 0
            ? `unexpected argument "${token.value}"`
            : `unexpected argument "${token.value}" (${positionals.what ?? "it takes"} at most ${max})`,
        );
      }
    }
  }
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: parsed.values as Values<O>, positionals: parsed.positionals };
  } catch (error) {
    // The checks above should have caught it; say it in plain words all the same.
    throw new UsageError(
      error instanceof Error ? (error.message.split(".")[0] ?? error.message) : String(error),
    );
  }
}

/** The "Usage: …" block at the top of a command's help text (up to the first blank line). */
export function usageOf(help: string): string {
  const end = help.indexOf("\n\n");
  return (end >= 0 ? help.slice(0, end) : help).trimEnd();
}
