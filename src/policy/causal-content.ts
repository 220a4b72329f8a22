// The content a causal grant is pinned to: for one runner (src/policy/causal-runners.ts), the lines of the
// files that decide what it runs — its package.json scripts (and those they chain to, and the versions of
// the tools they name), its Makefile target's rule, the tools' config files — reduced to one pin (sha256),
// and, when a pin changes, the lines that changed, for the card. Pure: the caller supplies the reader.
import { sha256Hex } from "./call-binding.ts";
import { type CausalRunner, configNamesOf, type Tool, toolsNamedIn } from "./causal-runners.ts";
import { redactText } from "./redact.ts";

/** The lines of one file that count (in order); a file that is absent counts as absent. */
export interface Excerpt {
  file: string;
  lines: string[];
}

/** Reads a file of the runner's directory (a relative name): its text, or null when absent or unreadable. */
export type DirReader = {
  read(name: string): string | null;
  /** The names in the directory (for config globs such as `tsconfig*.json`). */
  names(): readonly string[];
};

const MAX_CHAIN = 16;
const MAX_LINES_PER_FILE = 400;

/** `npm run x`, `npm test`, `yarn x`, `pnpm run x`: the scripts a script's text runs in turn. */
function chainedScripts(text: string): string[] {
  const out: string[] = [];
  const re = /\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([A-Za-z0-9:_.-]+)/g;
  for (const m of text.matchAll(re)) {
    const name = m[1] as string;
    if (name === "t" || name === "tst") out.push("test");
    else if (!["install", "ci", "exec", "x", "dlx", "add", "i"].includes(name)) out.push(name);
  }
  return out;
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

/** The scripts a script runs (pre/post and chained), the tools they name and those tools' versions. */
function scriptExcerpt(text: string | null, script: string): { excerpt: Excerpt; tools: Tool[] } {
  if (text === null) return { excerpt: { file: "package.json", lines: ["(absent)"] }, tools: [] };
  let pkg: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null) throw new Error("not an object");
    pkg = parsed as Record<string, unknown>;
  } catch {
    // Unparsable: npm would refuse it too; its whole text is the pin.
    return {
      excerpt: { file: "package.json", lines: [`(unparsable, sha256 ${sha256Hex(text)})`] },
      tools: [],
    };
  }
  const scripts = stringMap(pkg.scripts);
  const seen: string[] = [];
  const queue = [`pre${script}`, script, `post${script}`];
  while (queue.length > 0 && seen.length < MAX_CHAIN) {
    const name = queue.shift() as string;
    if (seen.includes(name)) continue;
    seen.push(name);
    const body = scripts[name];
    if (body !== undefined) queue.push(...chainedScripts(body).flatMap((n) => [`pre${n}`, n, `post${n}`]));
  }
  const lines: string[] = [];
  const tools = new Set<Tool>();
  for (const name of seen) {
    const body = scripts[name];
    if (body === undefined) continue;
    lines.push(`scripts.${name}: ${body}`);
    for (const t of toolsNamedIn(body)) tools.add(t);
  }
  if (scripts[script] === undefined) lines.push(`scripts.${script}: (none)`);
  // The packages the scripts name decide what runs too: their declared versions count.
  const deps = { ...stringMap(pkg.dependencies), ...stringMap(pkg.devDependencies) };
  for (const t of [...tools].sort()) if (deps[t] !== undefined) lines.push(`version of ${t}: ${deps[t]}`);
  if (deps.typescript !== undefined && tools.has("tsc"))
    lines.push(`version of typescript: ${deps.typescript}`);
  return { excerpt: { file: "package.json", lines }, tools: [...tools] };
}

const RULE = /^([^\s:#=][^:=]*?)\s*:(?!=)(.*)$/;
const ASSIGNMENT = /^(?:export\s+|override\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*(?:[:+?!]|::)?=/;

/** A Makefile target's rule and recipe, its prerequisites' rules (in the same file), and every assignment. */
function makeExcerpt(file: string, text: string | null, target: string): Excerpt {
  if (text === null) return { file, lines: ["(absent)"] };
  const rules = new Map<string, { head: string; recipe: string[]; prereqs: string[] }>();
  const assignments: string[] = [];
  const includes: string[] = [];
  let first: string | null = null;
  let current: string[] | null = null;
  for (const raw of text.replace(/\\\n/g, " ").split("\n")) {
    if (raw.startsWith("\t")) {
      current?.push(raw.trim());
      continue;
    }
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    current = null;
    if (/^-?include\s/.test(line)) includes.push(line);
    else if (ASSIGNMENT.test(line)) assignments.push(line);
    else {
      const m = RULE.exec(line);
      if (m === null) continue;
      const recipe: string[] = [];
      const [deps, inline] = (m[2] as string).split(";", 2);
      if (inline !== undefined) recipe.push(inline.trim());
      const prereqs = (deps ?? "").split(/\s+/).filter((p) => p !== "" && p !== "|");
      for (const name of (m[1] as string).split(/\s+/)) {
        if (first === null && !name.startsWith(".") && !name.includes("%")) first = name;
        rules.set(name, { head: line, recipe, prereqs });
      }
      current = recipe;
    }
  }
  const goal = target === "" ? first : target;
  const lines = [...includes, ...assignments];
  const seen = new Set<string>();
  const queue = goal === null ? [] : [goal];
  while (queue.length > 0 && seen.size < MAX_CHAIN) {
    const name = queue.shift() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const rule = rules.get(name);
    if (rule === undefined) {
      if (name === goal) lines.push(`${name}: (no such target)`);
      continue;
    }
    lines.push(rule.head, ...rule.recipe.map((r) => `\t${r}`));
    queue.push(...rule.prereqs);
  }
  return { file, lines };
}

/** pyproject.toml's `[tool.*]` and `[build-system]` tables: what a Python tool reads from it. */
function pyprojectLines(text: string): string[] {
  const out: string[] = [];
  let keep = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) keep = /^\[\[?\s*(tool\.|build-system)/.test(line);
    if (keep && line !== "" && !line.startsWith("#")) out.push(line);
  }
  return out;
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
  return new RegExp(`^${body}$`);
}

/** The config files present for the runner's tools, each whole (pyproject.toml: its tool tables). */
function configExcerpts(tools: readonly Tool[], dir: DirReader): Excerpt[] {
  const names = dir.names();
  const files = new Set<string>();
  for (const pattern of configNamesOf(tools)) {
    if (pattern.includes("/") || !pattern.includes("*")) files.add(pattern);
    else for (const n of names) if (globToRegExp(pattern).test(n)) files.add(n);
  }
  const out: Excerpt[] = [];
  for (const file of [...files].sort()) {
    const text = dir.read(file);
    if (text === null) continue;
    const lines = file === "pyproject.toml" ? pyprojectLines(text) : text.split("\n").map((l) => l.trimEnd());
    out.push({ file, lines: lines.filter((l) => l !== "").slice(0, MAX_LINES_PER_FILE) });
    if (lines.length > MAX_LINES_PER_FILE) out.push({ file, lines: [`(sha256 ${sha256Hex(text)})`] });
  }
  return out;
}

/** What decides what the runner runs, read through `dir`. */
export function excerptsOf(runner: CausalRunner, dir: DirReader): Excerpt[] {
  const out: Excerpt[] = [];
  const tools = new Set<Tool>(runner.tools);
  if (runner.script !== null) {
    const { excerpt, tools: named } = scriptExcerpt(dir.read("package.json"), runner.script);
    out.push(excerpt);
    for (const t of named) tools.add(t);
  }
  if (runner.makeTarget !== null) {
    const candidates = runner.makefile === null ? ["GNUmakefile", "makefile", "Makefile"] : [runner.makefile];
    const file =
      candidates.find((f) => dir.read(f) !== null) ?? candidates[candidates.length - 1] ?? "Makefile";
    const excerpt = makeExcerpt(file, dir.read(file), runner.makeTarget);
    out.push(excerpt);
    for (const t of toolsNamedIn(excerpt.lines.join("\n"))) tools.add(t);
  }
  out.push(...configExcerpts([...tools], dir));
  return out;
}

/** The pin: one hash of every excerpt, in order. */
export function pinOf(excerpts: readonly Excerpt[]): string {
  return sha256Hex(JSON.stringify(excerpts.map((e) => [e.file, e.lines])));
}

const MAX_CHANGE_LINES = 6;
const MAX_CHANGE_CHARS = 900;

/**
 * What changed between two pinned contents, for the card: per file, the lines that went (`-`) and came
 * (`+`), at most six, each redacted and clipped. Empty when nothing differs.
 */
export function causalChange(before: readonly Excerpt[], after: readonly Excerpt[]): string {
  const out: string[] = [];
  const files = [...new Set([...before, ...after].map((e) => e.file))];
  for (const file of files) {
    const was = before.filter((e) => e.file === file).flatMap((e) => e.lines);
    const now = after.filter((e) => e.file === file).flatMap((e) => e.lines);
    const gone = was.filter((l) => !now.includes(l));
    const came = now.filter((l) => !was.includes(l));
    if (gone.length === 0 && came.length === 0) continue;
    out.push(`${file}:`);
    for (const l of gone) out.push(`- ${l.slice(0, 160)}`);
    for (const l of came) out.push(`+ ${l.slice(0, 160)}`);
  }
  const shown = out.length > MAX_CHANGE_LINES + 2 ? [...out.slice(0, MAX_CHANGE_LINES + 1), "…"] : out;
  return redactText(shown.join("\n")).slice(0, MAX_CHANGE_CHARS);
}
