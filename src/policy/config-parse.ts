// Turns one layer file's text into a validated config, with every error located in the file.
import { LineCounter, parseDocument } from "yaml";
import { ConfigSchema, type PermissionsConfig } from "./config-schema.ts";
import type { PolicyLoadError } from "./types.ts";

/** How many alias expansions a policy file may need (yaml's own count, which weighs nested aliases). */
export const MAX_ALIAS_COUNT = 50;

export interface ParsedConfig {
  config: PermissionsConfig;
  /** Line/column (1-based) of a node addressed by a path of keys and indexes, if it exists. */
  locate: (path: readonly (string | number)[]) => { line: number; column: number } | undefined;
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

export function parseConfigText(path: string, text: string): ParsedConfig | { errors: PolicyLoadError[] } {
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
  const locate = (p: readonly (string | number)[]) => {
    const node = p.length === 0 ? doc.contents : doc.getIn(p, true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (!range) return undefined;
    const pos = lineCounter.linePos(range[0]);
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
