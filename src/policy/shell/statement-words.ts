// A statement's words as the shell hands them on: a command's argv, its prefix assignments, a
// declaration's arguments as a builtin's argv, and the variables the statement sets.
import { namesSetBy } from "./builtins.ts";
import type { Assignment, Command, StmtEvent, Word } from "./parser.ts";
import type { ShellPrefix } from "./units.ts";
import { expandWord, wordValue } from "./words.ts";
import type { Arg } from "./wrappers.ts";

export function argsOf(src: string, words: readonly Word[]): Arg[] {
  const out: Arg[] = [];
  for (const w of words) {
    const raw = src.slice(w.start, w.end);
    // expandWord returns fresh objects: each becomes an argument as it is.
    for (const v of expandWord(w)) out.push(Object.assign(v, { raw }));
  }
  return out;
}

export function prefixesOf(src: string, assigns: readonly Assignment[]): ShellPrefix[] {
  return assigns.map((a) => ({
    name: a.name,
    value:
      a.array || a.indexed || a.value === null
        ? a.value === null && !a.array
          ? ""
          : null
        : wordValue(a.value).value,
    raw: src.slice(a.start, a.end),
  }));
}

/** A declaration's words as a builtin's argv: the variant, then each argument as bash passes it. */
export function declArgv(src: string, cmd: Extract<Command, { type: "decl" }>): Arg[] {
  const argv: Arg[] = [{ value: cmd.variant, raw: cmd.variant, glob: false, tilde: false }];
  for (const a of cmd.args) {
    const raw = src.slice(a.start, a.end);
    if (a.naked) {
      const v = a.name !== "" ? a.name : a.value ? wordValue(a.value).value : null;
      argv.push({ value: v, raw, glob: false, tilde: false });
    } else {
      const value = a.array ? "(…)" : a.value ? wordValue(a.value).value : "";
      argv.push({
        value: value === null ? null : `${a.name}${a.append ? "+=" : "="}${value}`,
        raw,
        glob: false,
        tilde: false,
        ...(value === null && !a.indexed && a.name !== "" ? { declares: a.name } : {}),
      });
    }
  }
  return argv;
}

/** A statement's words as the command it runs sees them, or null for one that is not a command. */
export function statementArgv(src: string, event: StmtEvent): Arg[] | null {
  if (event.cmd?.type === "call") return argsOf(src, event.cmd.args);
  if (event.cmd?.type === "decl") return declArgv(src, event.cmd);
  return null;
}

/** Variables a statement sets from the script's own words (never `${X:=v}`, which keeps a set X). */
export function setNames(src: string, event: StmtEvent): string[] {
  const cmd = event.cmd;
  const names: string[] = [...event.loopNames];
  if (cmd?.type === "call") {
    if (cmd.args.length === 0) names.push(...prefixesOf(src, cmd.assigns).map((p) => p.name));
    else names.push(...namesSetBy(argsOf(src, cmd.args)));
  } else if (cmd?.type === "decl")
    for (const a of cmd.args) if (!a.naked && a.name !== "") names.push(a.name);
  return names;
}
