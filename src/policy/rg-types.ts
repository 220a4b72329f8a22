// ripgrep's file types (`-t NAME`): which files a selection names. A type match is a whitelist match in
// ripgrep's ignore crate, and a whitelist match skips the hidden-file filter as a `-g` glob does (round 20,
// r20-09, r20-10: `rg --type-add 'e:*' -t e API` printed .env, `rg -t sh TOKEN` in HOME printed .bashrc).
// Only common types are known here, their globs as ripgrep 13 and 14 ship them (crates/ignore/src/
// default_types.rs), none naming a dotfile; any other type (sh, zsh, ruby, vim name start-up files) or one
// `--type-add`/`--type-clear` may redefine is taken to select every file.

const KNOWN_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  cpp: [
    "*.[ChH]",
    "*.cc",
    "*.[ch]pp",
    "*.[ch]xx",
    "*.hh",
    "*.inl",
    "*.[ChH].in",
    "*.cc.in",
    "*.[ch]pp.in",
    "*.[ch]xx.in",
    "*.hh.in",
  ],
  css: ["*.css", "*.scss"],
  go: ["*.go"],
  html: ["*.htm", "*.html", "*.ejs"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"],
  json: ["*.json", "composer.lock"],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn"],
  py: ["*.py"],
  rust: ["*.rs"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx", "*.cts", "*.mts"],
  txt: ["*.txt"],
  yaml: ["*.yaml", "*.yml"],
};

/** The types a command selects (`-t`/`--type`), and whether it may have redefined any. */
export interface TypeSelection {
  types: string[];
  redefined: boolean;
}

/**
 * The globs the selected types name, or null when one is not known here (every file may be selected).
 * ripgrep matches them as `-g` globs are matched (filter-globs.ts): `*` takes a leading dot too.
 */
export function selectedTypeGlobs(sel: TypeSelection): readonly string[] | null {
  if (sel.redefined) return null;
  const globs: string[] = [];
  for (const t of sel.types) {
    // `all` selects every type ripgrep knows, some of which name dotfiles.
    const known = Object.hasOwn(KNOWN_TYPES, t) ? KNOWN_TYPES[t] : undefined;
    if (known === undefined) return null;
    globs.push(...known);
  }
  return globs;
}
