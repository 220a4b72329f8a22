// package.json's keys that git-hook managers read at the person's next commit (red team, round 20, r20-06):
// lint-staged's and nano-staged's commands, husky 4's `husky.hooks`, yorkie's `gitHooks`, simple-git-hooks,
// pre-commit's and ghooks' (`ghooks` or `config.ghooks`). Setting or changing one is writing code that runs
// unjudged, as writing `.lintstagedrc.json` is; every other key (version, dependencies, scripts, which run
// only when a judged command asks for them) is an everyday edit.

/** Where each hook manager's settings sit in package.json, a path of keys. */
const HOOK_KEYS: readonly (readonly string[])[] = [
  ["lint-staged"],
  ["nano-staged"],
  ["husky"],
  ["gitHooks"],
  ["simple-git-hooks"],
  ["pre-commit"],
  ["ghooks"],
  ["config", "ghooks"],
];

/** One replacement of an edit tool: `old` by `new`, every occurrence when `all`. */
export interface TextEdit {
  old: string;
  new: string;
  all: boolean;
}

/** What a write or edit tool puts in a file, when its input says: the whole text, or its replacements. */
export type WrittenText = { content: string } | { edits: readonly TextEdit[] } | { unknown: true };

function valueAt(doc: unknown, keys: readonly string[]): unknown {
  let v = doc;
  for (const k of keys) {
    if (typeof v !== "object" || v === null || Array.isArray(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The hook managers' settings of a package.json text, as one comparable string; null when it is not JSON. */
export function hookSettingsOf(text: string): string | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  return JSON.stringify(HOOK_KEYS.map((keys) => valueAt(doc, keys) ?? null));
}

/** The text after the edits, as the edit tools apply them; null when one's old text is not there. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string | null {
  let out = text;
  for (const e of edits) {
    if (e.old === "" || !out.includes(e.old)) return null;
    out = e.all ? out.split(e.old).join(e.new) : out.replace(e.old, () => e.new);
  }
  return out;
}

/**
 * Why writing `written` over `before` (null: no file yet) sets or changes a hook manager's settings, or
 * null when it does not. A result that is not known or not JSON may set any of them.
 */
export function packageHookChange(before: string | null, written: WrittenText): string | null {
  const after =
    "content" in written
      ? written.content
      : "edits" in written && before !== null
        ? applyEdits(before, written.edits)
        : null;
  if (after === null) return "what it leaves in package.json is not known";
  const now = hookSettingsOf(after);
  if (now === null) return "it leaves package.json unparsable";
  // No file, or one no hook manager can read, configures none of them.
  const was = (before === null ? null : hookSettingsOf(before)) ?? hookSettingsOf("{}");
  return now === was ? null : "it sets or changes a git-hook manager's settings";
}

function editOf(e: Record<string, unknown>): TextEdit | null {
  const old = e.old_string ?? e.oldText;
  const now = e.new_string ?? e.newText;
  return typeof old === "string" && typeof now === "string"
    ? { old, new: now, all: e.replace_all === true }
    : null;
}

/** What a canonical write or edit call's input says it writes (Claude Code's, Pi's and Gemini's fields). */
export function writtenTextOf(tool: string, input: Record<string, unknown>): WrittenText {
  if (tool === "write")
    return typeof input.content === "string" ? { content: input.content } : { unknown: true };
  const entries = Array.isArray(input.edits) ? (input.edits as unknown[]) : [input];
  const edits = entries.map((e) =>
    typeof e === "object" && e !== null ? editOf(e as Record<string, unknown>) : null,
  );
  return edits.length > 0 && edits.every((e) => e !== null)
    ? { edits: edits as TextEdit[] }
    : { unknown: true };
}
