// The values one configuration key has in one of git's configuration files, as git reads them: `[section]`
// and `[section "subsection"]` headers (section and variable names compared without case, the subsection
// with it; `[section.sub]` is the old lower-cased form), `name = value` lines, a variable after a header on
// its line, backslash-newline continuations, `#`/`;` comments. `git config KEY` prints only these, so
// only these are checked for a credential. A line this reader does not place makes the file unknown
// (null): the caller then judges the whole file, as for a listing.

export interface ConfigKey {
  section: string;
  subsection: string | null;
  name: string;
}

/** `remote.origin.url` → section `remote`, subsection `origin`, name `url`; null for a malformed key. */
export function configKey(key: string): ConfigKey | null {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first <= 0 || last === key.length - 1) return null;
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(section) || !/^[a-z][a-z0-9-]*$/.test(name)) return null;
  return { section, subsection: first === last ? null : key.slice(first + 1, last), name };
}

const HEADER = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]\s*(.*)$/;
const VARIABLE = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/;

/** One `name = value` of a configuration file, placed under its section and subsection. */
export interface PlacedEntry extends ConfigKey {
  /** The raw value (continuations joined, trimmed); empty for a bare `name`. */
  value: string;
}

/** Every entry of `text` in order, or null when some line is not one this reader places. */
export function placedEntries(text: string): PlacedEntry[] | null {
  const lines = text.split("\n");
  const out: PlacedEntry[] = [];
  let section: string | null = null;
  let subsection: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] as string).trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      const h = HEADER.exec(line);
      if (h === null) return null;
      const name = (h[1] as string).toLowerCase();
      const dot = name.indexOf(".");
      // `[section.sub]` (deprecated): the subsection is the rest, lower-cased.
      section = dot < 0 ? name : name.slice(0, dot);
      subsection = h[2] !== undefined ? h[2].replace(/\\(.)/g, "$1") : dot < 0 ? null : name.slice(dot + 1);
      line = (h[3] as string).trim();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    }
    const v = VARIABLE.exec(line);
    if (v === null || section === null) return null;
    let value = v[2] ?? "";
    while (value.endsWith("\\") && i + 1 < lines.length) value = `${value.slice(0, -1)}${lines[++i]}`;
    out.push({ section, subsection, name: (v[1] as string).toLowerCase(), value: value.trim() });
  }
  return out;
}

/** The key as git names it in a listing: `section.subsection.name`, section and name lower-cased. */
export function fullKey(e: ConfigKey): string {
  return e.subsection === null ? `${e.section}.${e.name}` : `${e.section}.${e.subsection}.${e.name}`;
}

/** Every raw value KEY has in `text`, or null when some line is not one this reader places. */
export function configValues(text: string, key: ConfigKey): string[] | null {
  const entries = placedEntries(text);
  if (entries === null) return null;
  return entries
    .filter((e) => e.section === key.section && e.subsection === key.subsection && e.name === key.name)
    .map((e) => e.value);
}
