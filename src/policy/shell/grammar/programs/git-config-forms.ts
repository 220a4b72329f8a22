// git ≥ 2.46's `git config` subcommands (git-config(1), builtin/config.c): `list`, `get`, `set`, `unset`,
// `rename-section`, `remove-section`, `edit`, each with its own options. git takes one only as the first word
// after `config` (`git config --global list` is the old form, a key named "list"). Each is rewritten as the old
// form of the same request (`list` as `--list`, `get --all` as `--get-all`, `edit` as `--edit`; the manual's
// DEPRECATED MODES), so every judge of the old form (the grammar, git's tables, the disk's key check) decides
// the new one identically: one rule, not two (red team, round 14).
import type { Arg } from "../../wrappers.ts";
import { parseWords } from "../parse.ts";
import {
  flag,
  type GivenOption,
  type NotUnderstood,
  type OptionSpec,
  opt,
  type Parsed,
  type ProgramGrammar,
} from "../spec.ts";
import { CONFIG_DISPLAY_OPTIONS, CONFIG_LOCATION_OPTIONS } from "./git-options.ts";

/**
 * One subcommand: the options it takes (those whose meaning is a mode or an operand of the old form carry
 * it as their `mode`), whether its options end at the first operand, and the old form's mode option.
 */
interface ConfigSubcommand {
  options: readonly OptionSpec[];
  stopsAtOperand: boolean;
  /** The old form's mode option, null for a plain `KEY VALUE`; a subcommand's option may change it. */
  legacy: string | null;
  /** Why it is never judged a read: it writes git's configuration, or opens an editor on it. */
  writes?: string;
}

const WRITES =
  "writes git's configuration, which decides what git runs (core.fsmonitor, core.pager, alias.*)";
const VALUE = opt("--value", "string", { mode: "value-pattern" });

const SUBCOMMANDS: Readonly<Record<string, ConfigSubcommand>> = {
  list: {
    options: [...CONFIG_LOCATION_OPTIONS, ...CONFIG_DISPLAY_OPTIONS, flag("--includes")],
    stopsAtOperand: false,
    legacy: "--list",
  },
  get: {
    options: [
      ...CONFIG_LOCATION_OPTIONS,
      ...CONFIG_DISPLAY_OPTIONS,
      flag("--all", "--get-all"),
      flag("--regexp", "--get-regexp"),
      opt("--url", "string", { mode: "--get-urlmatch" }),
      VALUE,
      flag("--fixed-value"),
      flag("--includes"),
      opt("--default"),
    ],
    stopsAtOperand: true,
    legacy: "--get",
  },
  set: {
    options: [
      ...CONFIG_LOCATION_OPTIONS,
      ...CONFIG_DISPLAY_OPTIONS.filter((o) => !o.names.some((n) => /null|name-only|show-/.test(n))),
      flag("--all", "--replace-all"),
      flag("--append", "--add"),
      VALUE,
      flag("--fixed-value"),
      opt("--comment"),
    ],
    stopsAtOperand: true,
    legacy: null,
    writes: WRITES,
  },
  unset: {
    options: [...CONFIG_LOCATION_OPTIONS, flag("--all", "--unset-all"), VALUE, flag("--fixed-value")],
    stopsAtOperand: true,
    legacy: "--unset",
    writes: WRITES,
  },
  "rename-section": {
    options: CONFIG_LOCATION_OPTIONS,
    stopsAtOperand: true,
    legacy: "--rename-section",
    writes: WRITES,
  },
  "remove-section": {
    options: CONFIG_LOCATION_OPTIONS,
    stopsAtOperand: true,
    legacy: "--remove-section",
    writes: WRITES,
  },
  edit: {
    options: CONFIG_LOCATION_OPTIONS,
    stopsAtOperand: false,
    legacy: "--edit",
    writes: "opens an editor on git's configuration (a session, and a write of what decides what git runs)",
  },
};

/** Which subcommand option decides the old form's mode when several are given (git refuses most mixes). */
const MODE_ORDER = ["--get-urlmatch", "--get-regexp", "--get-all", "--replace-all", "--add", "--unset-all"];

export interface ConfigForm {
  /** The words after `config` as the old form spells the same request. */
  words: Arg[];
  /** Why the form is not understood as a read (a write, an editor, an option it does not take); null: a read. */
  refusal: NotUnderstood | null;
}

const grammars = new Map<string, ProgramGrammar>();
function grammarOf(name: string, s: ConfigSubcommand): ProgramGrammar {
  let g = grammars.get(name);
  if (g === undefined) {
    g = {
      names: [`git config ${name}`],
      options: s.options,
      permute: !s.stopsAtOperand,
      abbreviate: true,
      negatable: true,
      operands: ["string"],
      effect: "read",
    };
    grammars.set(name, g);
  }
  return g;
}

/**
 * The subcommand form of `git config` (`rest` is every word after `config`) as the old form; null when the
 * first word is not a subcommand, so the words are the old form already.
 */
export function configForm(rest: readonly Arg[]): ConfigForm | null {
  const first = rest[0];
  const name = first?.value;
  if (first === undefined || name === null || name === undefined || !Object.hasOwn(SUBCOMMANDS, name))
    return null;
  const s = SUBCOMMANDS[name] as ConfigSubcommand;
  const { parsed, failure } = parseWords(grammarOf(name, s), rest, 1);
  const mode = (spelling: string): Arg => ({ ...first, value: spelling, glob: false, tilde: false });
  if (failure !== null) {
    // Not understood; the old form's mode word keeps what git's tables see (an editor, a write) the same.
    const words = [...(s.legacy === null ? [] : [mode(s.legacy)]), ...rest.slice(1)];
    return { words, refusal: failure };
  }
  const words = legacyWords(s, parsed, mode);
  const refusal =
    s.writes === undefined ? null : { word: first.raw, reason: `git config ${name} ${s.writes}` };
  return { words, refusal };
}

/** The old form's words: its mode, the options both forms share, then the operands, a value pattern last. */
function legacyWords(s: ConfigSubcommand, p: Parsed, mode: (spelling: string) => Arg): Arg[] {
  const chosen = MODE_ORDER.find((m) => p.has(m)) ?? s.legacy;
  const words: Arg[] = chosen === null ? [] : [mode(chosen)];
  for (const o of p.options) {
    // An option the old form spells as its mode or as an operand.
    if (o.spec.mode !== undefined) continue;
    words.push(...optionWords(o));
  }
  if (p.beforeDashes < p.operands.length) words.push({ ...mode("--"), raw: "--" });
  words.push(...p.operands);
  // `get --url=URL NAME` is `--get-urlmatch NAME URL`; `--value=PATTERN` is the old forms' last operand.
  words.push(...p.values("--get-urlmatch"), ...p.values("value-pattern"));
  return words;
}

/**
 * An option as the old form spells it: a long one's plain value glued (`--type=bool`, one word, as git's
 * tables and the disk's key check read `--type=bool` given so); a short one's (`-f FILE`), or a value bash
 * expands (`--file ~/x`, a glob), as its own word, as written.
 */
function optionWords(o: GivenOption): Arg[] {
  const v = o.value;
  if (v === null) return [{ ...o.word, value: o.name }];
  if (o.name.startsWith("--") && v.value !== null && !v.tilde && !v.glob)
    return [{ ...o.word, value: `${o.name}=${v.value}` }];
  return [{ ...o.word, value: o.name }, v];
}
