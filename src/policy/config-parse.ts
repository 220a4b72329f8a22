// Turns one layer file's text into a validated config, with every error located in the file.
import { LineCounter, parseDocument } from "yaml";
import { ConfigSchema, type PermissionsConfig } from "./config-schema.ts";
import type { PolicyLoadError } from "./types.ts";

/** How many alias expansions a policy file may need (yaml's own count, which weighs nested aliases). */
export const MAX_ALIAS_COUNT = 50;

export interface ParsedConfig {
  config: PermissionsConfig;
  /**
   * Line/column (1-based) of a node addressed by a path of keys and indexes, if it exists; with `at`, of
   * the character at that offset of the node's string value where it can be found in the text as written.
   */
  locate: Locate;
}

export type Locate = (
  path: readonly (string | number)[],
  at?: { value: string; offset: number },
) => { line: number; column: number } | undefined;

/**
 * Where `value[offset]` sits inside `written` (the scalar as it appears in the file, quotes, escapes and
 * folding included): the first few characters from there, found at the same occurrence count.
 */
export function offsetInWritten(written: string, value: string, offset: number): number | undefined {
  for (const length of [24, 8, 1]) {
    const needle = value.slice(offset, offset + length).split("\n")[0] ?? "";
    if (needle === "") continue;
    let seen = 0;
    for (let i = value.indexOf(needle); i !== -1 && i < offset; i = value.indexOf(needle, i + 1)) seen++;
    let at = -1;
    for (let k = 0; k <= seen; k++) {
      at = written.indexOf(needle, at + 1);
      if (at === -1) break;
    }
    if (at !== -1) return at;
  }
  return undefined;
}

/** Display name of the rule a schema path points into, e.g. ["rules",0,"rules",2] → "Bash > rm". */
export function ruleNameAt(raw: unknown, path: readonly PropertyKey[]): string | undefined {
  const names: string[] = [];
  let node: unknown = raw;
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    if (node === null || typeof node !== "object") break;
    node = (node as Record<PropertyKey, unknown>)[key as string];
    if (key === "rules" && typeof path[i + 1] === "number") {
      const rule = Array.isArray(node) ? (node as unknown[])[path[i + 1] as number] : undefined;
      const r = rule as { name?: unknown; default?: unknown } | undefined;
      const name =
        typeof r?.name === "string"
          ? r.name
          : r?.default !== undefined
            ? "Default"
            : `#${path[i + 1] as number}`;
      names.push(name);
      node = rule;
      i++;
    }
  }
  return names.length > 0 ? names.join(" > ") : undefined;
}

/** A file that does not load; `written` is set when it is YAML whose schema check failed. */
export interface ConfigErrors {
  errors: PolicyLoadError[];
  written?: { raw: Record<string, unknown>; locate: Locate };
}

export function parseConfigText(path: string, text: string): ParsedConfig | ConfigErrors {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        return {
          path,
          line: pos?.line,
          column: pos?.col,
          // The parser ends its first line with " at line L, column C:" before a code frame; the place is
          // already in line/column, so keep only the sentence.
          message: `invalid YAML: ${(e.message.split("\n")[0] ?? "").replace(/( at line \d+, column \d+)?:?\s*$/, "")}`,
        };
      }),
    };
  }
  let raw: unknown;
  try {
    // Aliases are expanded here; the bound stops a "billion laughs" file from exhausting memory.
    raw = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { errors: [{ path, line: 1, column: 1, message: `invalid YAML: ${reason}` }] };
  }
  const locate: Locate = (p, at) => {
    const node = p.length === 0 ? doc.contents : doc.getIn(p, true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (!range) return undefined;
    const inside = at ? offsetInWritten(text.slice(range[0], range[1]), at.value, at.offset) : undefined;
    const pos = lineCounter.linePos(range[0] + (inside ?? 0));
    return { line: pos.line, column: pos.col };
  };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return {
      errors: [
        { path, line: 1, column: 1, message: "the file must contain a mapping (version, rules, ...)" },
      ],
    };
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      written: { raw: raw as Record<string, unknown>, locate },
      errors: parsed.error.issues.map((issue) => {
        const p = issue.path.filter((k): k is string | number => typeof k !== "symbol");
        // Unknown keys are reported on their parent; point at the offending key instead.
        const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
        const at = locate(keys.length > 0 ? [...p, keys[0] as string] : p) ?? locate(p);
        const where = p.length > 0 ? ` at ${p.join(".")}` : "";
        return {
          path,
          rule: ruleNameAt(raw, p),
          line: at?.line,
          column: at?.column,
          message: `${issue.message}${where}`,
        };
      }),
    };
  }
  return { config: parsed.data, locate };
}
