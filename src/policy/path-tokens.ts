// Every absolute path a configuration file's text spells, whatever its format (red team, round 19: the
// list of programs whose user configuration names a project file never ends, so the scan is by class):
// `/abs`, `~/…`, `$HOME/…`, `${HOME}/…`, `$XDG_CONFIG_HOME/…`, quoted or not, after `=`, `:` or a
// space, inside JSON, TOML, YAML and shell strings, and brace forms (`~/proj/{a,b}.sh`) expanded. Pure:
// which files are read is guards/user-config-scan.ts.
import { normalizePath } from "./paths.ts";

/** One path the text names, absolute and tidied. */
export interface PathToken {
  /** Cut before a glob or variable (`~/proj/rc.d/*.sh`): the directory whose files a program loads. */
  path: string;
  /** It is what `cd`/`pushd` (a shell's, vim's) goes to: a place to be, not a file run or read. */
  cd: boolean;
}

/** What the spellings expand to. */
export interface TokenHome {
  home: string;
  xdgConfig: string;
}

/** A path's start: `~`, `$HOME`, `${HOME}`, `$XDG_CONFIG_HOME` (braced or not) before a `/`, or a `/`. */
const START = String.raw`(?:~|\$\{?HOME\}?|\$\{?XDG_CONFIG_HOME\}?)(?=/)|/`;
/** What may come before a path: the line's start, a space, a quote, or a separator of the formats. */
const BEFORE = String.raw`(?<=^|[\s"'\`=:(,\[{;|&<>!@])`;
/** A path's characters: none of the separators, a backslash escape, or a brace group `{a,b}`. */
const BODY = String.raw`(?:[^\s"'\`;|&<>(),={}:\\]|\\.|\{[^\s{}"'\`]*\})*`;
const UNQUOTED = new RegExp(`${BEFORE}(?:${START})${BODY}`, "gm");
/** A quoted string starting with a path, spaces and all (`"~/My Projects/x.sh"`). */
const QUOTED = new RegExp(`(["'])((?:${START})[^"'\\n]*)\\1`, "gm");
const CD = /(?:^|[\s;&|(!'"])(?:builtin\s+)?(?:cd|pushd|chdir|lcd|tcd)\s+["']?$/;
/** Brace expansion stops here: a spelling with more alternatives names a family, and its prefix is kept. */
const MAX_ALTERNATIVES = 64;

/** `{a,b}` groups expanded as bash does (nested too); null past the bound. */
export function expandBraces(text: string, budget = MAX_ALTERNATIVES): string[] | null {
  const group = firstGroup(text);
  if (group === null) return [text];
  const { open, close, commas } = group;
  const cuts = [open, ...commas, close];
  const out: string[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const choice = text.slice((cuts[i] as number) + 1, cuts[i + 1]);
    const more = expandBraces(text.slice(0, open) + choice + text.slice(close + 1), budget - out.length);
    if (more === null || out.length + more.length > budget) return null;
    out.push(...more);
  }
  return out;
}

/** The first `{…}` group with a comma at its own level (`{x}` is literal in bash): where it opens, closes and splits. */
function firstGroup(text: string): { open: number; close: number; commas: number[] } | null {
  for (let open = text.indexOf("{"); open >= 0; open = text.indexOf("{", open + 1)) {
    const commas: number[] = [];
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (c === "{") depth++;
      else if (c === "," && depth === 1) commas.push(i);
      else if (c === "}" && --depth === 0) {
        if (commas.length > 0) return { open, close: i, commas };
        break;
      }
    }
  }
  return null;
}

/** The spelling's start as the path it names. */
function expandStart(text: string, h: TokenHome): string {
  return text
    .replace(/^~(?=\/)/, h.home)
    .replace(/^\$\{?HOME\}?(?=\/)/, h.home)
    .replace(/^\$\{?XDG_CONFIG_HOME\}?(?=\/)/, h.xdgConfig);
}

/** A spelling as paths: unescaped, its braces expanded, cut before a glob or variable (then a directory). */
function tokensOf(spelled: string, h: TokenHome, cd: boolean): PathToken[] {
  // `//host/…` after `https:` is a URL's authority; `file:///x` names `/x`.
  if (/^\/\/(?!\/)/.test(spelled)) return [];
  const text = expandStart(spelled.replace(/\\(.)/g, "$1"), h);
  const alternatives = expandBraces(text) ?? [text.slice(0, text.indexOf("{"))];
  return alternatives.flatMap((a) => {
    const cut = a.search(/[*?[$]/);
    const known = cut < 0 ? a : a.slice(0, a.lastIndexOf("/", cut) + 1);
    const path = normalizePath(known);
    return path === "/" || !path.startsWith("/") ? [] : [{ path, cd }];
  });
}

/** Every absolute path the text names, in any of the spellings above. */
export function pathTokens(text: string, h: TokenHome): PathToken[] {
  const plain = text.replace(/\\\//g, "/"); // JSON may escape `/`
  const out: PathToken[] = [];
  const cdAt = (at: number) => CD.test(plain.slice(Math.max(0, at - 24), at));
  for (const m of plain.matchAll(UNQUOTED)) out.push(...tokensOf(m[0], h, cdAt(m.index)));
  for (const m of plain.matchAll(QUOTED)) {
    const spelled = m[2] ?? "";
    if (/\s/.test(spelled)) out.push(...tokensOf(spelled, h, cdAt(m.index + 1)));
  }
  return out;
}
