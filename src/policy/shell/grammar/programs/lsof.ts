// lsof (4.95, Linux; lsof -h, lsof(8)): lists the open files of processes from /proc, which /proc shows
// this user for its own processes (and root for all): no file's contents. Options take `-` or `+`, in
// clusters (`-nP`, `-ti:3000`); a letter with a value takes the rest of its word or the next word, and an
// optional value (`-i [i]`) takes the next word unless that starts with `-` or `+` (`lsof -i README.md`
// reads README.md as an address). The first other word ends the options: the rest are names whose open
// instances it looks for (stat, never opened: a `list`). `+d D` looks at a directory's own entries and
// `+D D` at every entry below it, not following symlinks below it. Not understood: what reads or writes
// files by name or reaches further (-D device cache, +m mount supplement, -e exempt paths, -x crossing
// into links, -k, -m, -A), +M portmapper, -f/+f name modes, -Z, and anything else not listed here.
// An -i address names its host after `@`: a name there is looked up in the DNS, a label the agent chose
// leaving the machine (red team round 21, r21-02), so only numeric addresses are understood.
import type { Arg } from "../../wrappers.ts";
import { emptyEffects, pathEffect } from "../parse.ts";
import type { Effects, NotUnderstood, ProgramGrammar, Understanding } from "../spec.ts";

type Value = "none" | "string" | "optional" | "walk" | "walk1";

/** What each letter takes after `-` and after `+`. */
const MINUS: Readonly<Record<string, Value>> = {
  ...Object.fromEntries([..."abhlnNOPQRtUvVXEw"].map((c) => [c, "none"])),
  ...Object.fromEntries([..."cdpu"].map((c) => [c, "string"])),
  ...Object.fromEntries([..."isFgrSToLK"].map((c) => [c, "optional"])),
};
const PLUS: Readonly<Record<string, Value>> = {
  E: "none",
  w: "none",
  c: "string",
  d: "walk1",
  D: "walk",
  r: "optional",
  L: "optional",
};

/** A glob at the start of a word may expand to a name lsof reads as options. */
const STARTS_LIKE_OPTION = /^[*?[]/;
const mayBeOption = (a: Arg): boolean =>
  a.value === null || (a.glob && STARTS_LIKE_OPTION.test(a.value)) || /^[-+]/.test(a.value);

/** `-i [46][protocol][@host][:service]`: the host part, when there is one, must be a numeric address. */
const NUMERIC_HOST = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\])$/;
function addressLooksUp(c: string, value: Arg | undefined): NotUnderstood | null {
  if (c !== "i" || value === undefined || value.value === null) return null;
  const at = value.value.indexOf("@");
  if (at < 0) return null;
  const host = value.value.slice(at + 1).replace(/^(\[[^\]]*\]|[^:]*).*$/, "$1");
  return NUMERIC_HOST.test(host)
    ? null
    : { word: value.raw, reason: `lsof -i looks the host \`${host}\` up in the DNS: a name it sends out` };
}

/** The directory a `+d`/`+D` walks (only entries' metadata; symlinks below it not followed). */
function walk(effects: Effects, arg: Arg, depth: number | undefined): void {
  effects.paths.push(pathEffect("walk", arg, { follow: "args", ...(depth ? { depth } : {}) }));
}

/** One word of options (`-nP`, `+D`, `-ti:3000`); the index of the next word, or why it is not understood. */
function cluster(argv: readonly Arg[], i: number, effects: Effects): number | NotUnderstood {
  const a = argv[i] as Arg;
  const v = a.value as string;
  const table = v.startsWith("+") ? PLUS : MINUS;
  if (v.length === 1) return { word: a.raw, reason: `lsof takes no bare ${v}` };
  for (let k = 1; k < v.length; k++) {
    const c = v[k] as string;
    const kind = Object.hasOwn(table, c) ? table[c] : undefined;
    if (kind === undefined) return { word: a.raw, reason: `lsof has no option ${v[0]}${c} understood here` };
    if (kind === "none") continue;
    const rest = v.slice(k + 1);
    const glued = rest === "" ? undefined : { ...a, value: rest, raw: rest, tilde: false };
    const next = argv[i + 1];
    if (kind === "optional") {
      if (glued !== undefined || next === undefined) return addressLooksUp(c, glued) ?? i + 1;
      if (next.value === null || (next.glob && STARTS_LIKE_OPTION.test(next.value)))
        return { word: next.raw, reason: `lsof ${v[0]}${c} may take this word as its value or as options` };
      return /^[-+]/.test(next.value) ? i + 1 : (addressLooksUp(c, next) ?? i + 2);
    }
    const value = glued ?? next;
    if (value === undefined) return { word: a.raw, reason: `lsof ${v[0]}${c} needs a value` };
    // lsof refuses some values that look like options and takes others (`-p -t` is a bad process id).
    if (glued === undefined && mayBeOption(value))
      return { word: value.raw, reason: `lsof ${v[0]}${c} may read this word as an option` };
    if (kind === "walk") walk(effects, value, undefined);
    if (kind === "walk1") walk(effects, value, 1);
    return glued ? i + 1 : i + 2;
  }
  return i + 1;
}

function judgeLsof(argv: readonly Arg[]): Understanding {
  const effects = emptyEffects("read");
  const no = (why: NotUnderstood): Understanding => ({ understood: false, why, effects });
  let i = 1;
  while (i < argv.length) {
    const a = argv[i] as Arg;
    if (a.value === "--") {
      i++;
      break;
    }
    if (!mayBeOption(a)) break;
    if (a.value === null || a.glob)
      return no({ word: a.raw, reason: "an lsof word only known at run time may be any option" });
    const next = cluster(argv, i, effects);
    if (typeof next !== "number") return no(next);
    i = next;
  }
  for (const name of argv.slice(i)) effects.paths.push(pathEffect("list", name));
  return { understood: true, effects };
}

export const lsof: ProgramGrammar = {
  names: ["lsof"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["list"],
  effect: "read",
  custom: judgeLsof,
};
