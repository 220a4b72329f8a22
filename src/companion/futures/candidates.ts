// Candidates: what the next turn will probably read or run, guessed from untrusted text and the workspace.
// Everything here only proposes; each candidate still passes the guards and policy before it is warmed.
import { BUILTIN_CLASSES, type CommandClass } from "./command-classes.ts";
import { isPlainRelativePath } from "./read-futures.ts";

/** The seed's mutation verbs: a text that asks for a change does not auto-warm diagnostic classes. */
export const MUTATION_VERBS = [
  "fix",
  "edit",
  "refactor",
  "add",
  "remove",
  "rename",
  "update",
  "implement",
  "delete",
  "move",
  "extract",
  "inline",
  "split",
  "merge",
  "migrate",
  "rewrite",
  "replace",
  "insert",
  "append",
  "prepend",
  "wrap",
  "guard",
  "debug",
] as const;

const MUTATION = new RegExp(`\\b(?:${MUTATION_VERBS.join("|")})(?:e?s|e?d|ing)?\\b`, "i");

export function hasMutationIntent(text: string): boolean {
  return MUTATION.test(text);
}

/** The workspace as candidates see it (the index, or a test double). */
export interface IndexView {
  has(relative: string): boolean;
  byBaseName(name: string): readonly string[];
}

export interface CandidateOptions {
  mutationSuppression: boolean;
  classes?: readonly CommandClass[];
  /** Files git reports as changed (workspace-relative). */
  gitChanged?: readonly string[];
  maxReads?: number;
}

export interface Candidates {
  reads: string[];
  commands: CommandClass[];
  /** Diagnostic classes the text asked for but mutation intent held back. */
  suppressed: CommandClass[];
  mutationIntent: boolean;
}

/** Text longer than this is cut before it is scanned: a draft is not a document. */
export const MAX_TEXT_CHARS = 20_000;
const MAX_BASENAME_MATCHES = 3;
const DEFAULT_MAX_READS = 12;
const MAX_GIT_CHANGED = 4;

// Path-like tokens: word characters, dots, slashes, dashes, @ — what a person types for a file.
const TOKEN = /[\p{L}\p{N}_@~./\\-]+/gu;

function cleanToken(raw: string): string {
  // Leading quotes and punctuation go; a leading dot stays (`.eslintrc.json`, `./src`).
  let t = raw.replace(/^[,;:!?'"`(]+/u, "");
  t = t.replace(/[.,;:!?'"`)]+$/u, "");
  t = t.replace(/:\d+(?::\d+)?$/, "");
  if (t.startsWith("./")) t = t.slice(2);
  return t;
}

function looksLikePath(token: string): boolean {
  return token.includes("/") || /\.[\p{L}\p{N}]{1,10}$/u.test(token);
}

/** Paths the text names, matched against the index: exact paths first, then unambiguous base names. */
export function mentionedPaths(text: string, index: IndexView): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (p: string) => {
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  };
  for (const match of text.slice(0, MAX_TEXT_CHARS).normalize("NFC").matchAll(TOKEN)) {
    const token = cleanToken(match[0]);
    if (!looksLikePath(token) || !isPlainRelativePath(token)) continue;
    const trimmed = token.replace(/\/+$/, "");
    if (index.has(trimmed)) {
      push(trimmed);
      continue;
    }
    if (trimmed.includes("/")) {
      // `companion/decide.ts` names a suffix of `src/companion/decide.ts`.
      const base = trimmed.slice(trimmed.lastIndexOf("/") + 1);
      const hits = index.byBaseName(base).filter((p) => p.endsWith(`/${trimmed}`));
      if (hits.length > 0 && hits.length <= MAX_BASENAME_MATCHES) for (const h of hits) push(h);
      continue;
    }
    const hits = index.byBaseName(trimmed);
    if (hits.length > 0 && hits.length <= MAX_BASENAME_MATCHES) for (const h of hits) push(h);
  }
  return out;
}

export function commandCandidates(
  text: string,
  options: Pick<CandidateOptions, "mutationSuppression" | "classes">,
): { commands: CommandClass[]; suppressed: CommandClass[]; mutationIntent: boolean } {
  const scanned = text.slice(0, MAX_TEXT_CHARS);
  const mutationIntent = hasMutationIntent(scanned);
  const commands: CommandClass[] = [];
  const suppressed: CommandClass[] = [];
  for (const cls of options.classes ?? BUILTIN_CLASSES) {
    if (!cls.intents.some((re) => re.test(scanned))) continue;
    if (cls.diagnostic && mutationIntent && options.mutationSuppression) suppressed.push(cls);
    else commands.push(cls);
  }
  // `npm test` and `vitest` both match "tests": warming one test runner per text is enough.
  const firstTest = commands.findIndex((c) => c.diagnostic);
  const deduped = commands.filter(
    (c, i) => !c.diagnostic || i === firstTest || !sameCausal(c, commands[firstTest]),
  );
  return { commands: deduped, suppressed, mutationIntent };
}

function sameCausal(a: CommandClass, b: CommandClass | undefined): boolean {
  return (
    b !== undefined && a.causal.length === b.causal.length && a.causal.every((g, i) => g === b.causal[i])
  );
}

export function candidatesFor(text: string, index: IndexView, options: CandidateOptions): Candidates {
  const max = options.maxReads ?? DEFAULT_MAX_READS;
  const reads = mentionedPaths(text, index);
  for (const changed of (options.gitChanged ?? []).slice(0, MAX_GIT_CHANGED)) {
    if (isPlainRelativePath(changed) && index.has(changed) && !reads.includes(changed)) reads.push(changed);
  }
  return { reads: reads.slice(0, max), ...commandCandidates(text, options) };
}

const JS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const JS_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"'\n]{1,300})["']/gm;
const PY_IMPORT = /^\s*from\s+(\.+)([\w.]*)\s+import\b/gm;

function joinRelative(fromFile: string, spec: string): string | undefined {
  const parts = fromFile.split("/").slice(0, -1);
  for (const seg of spec.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/** One import hop from a file that was read: its relative imports that resolve to indexed files. */
export function importHop(fromFile: string, source: string, index: IndexView): string[] {
  const out = new Set<string>();
  const text = source.slice(0, 64 * 1024);
  if (/\.(?:[cm]?[jt]sx?)$/.test(fromFile)) {
    for (const m of text.matchAll(JS_IMPORT)) {
      const target = joinRelative(fromFile, m[1] ?? "");
      if (target === undefined) continue;
      const stripped = target.replace(/\.(?:js|mjs|cjs|jsx)$/, "");
      const options = [
        target,
        ...JS_EXTENSIONS.map((e) => `${stripped}${e}`),
        ...JS_EXTENSIONS.map((e) => `${target}/index${e}`),
      ];
      const hit = options.find((p) => index.has(p));
      if (hit) out.add(hit);
    }
  } else if (fromFile.endsWith(".py")) {
    for (const m of text.matchAll(PY_IMPORT)) {
      const dots = (m[1] ?? ".").length;
      const up = "../".repeat(Math.max(0, dots - 1));
      const mod = (m[2] ?? "").split(".").filter(Boolean).join("/");
      if (mod === "") continue;
      const target = joinRelative(fromFile, `./${up}${mod}`);
      if (target === undefined) continue;
      const hit = [`${target}.py`, `${target}/__init__.py`].find((p) => index.has(p));
      if (hit) out.add(hit);
    }
  }
  return [...out];
}
