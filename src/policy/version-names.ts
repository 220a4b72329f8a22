// What a version file names (red team, round 20, r20-s04). A version manager's shim looks the name up as a
// directory: jenv runs `$JENV_ROOT/versions/NAME/bin/java`, checking only that the directory exists, so a
// `.java-version` of `../../../home/dev/proj/jdk` makes every `java` (`java -version` too) run the project's
// program. pyenv (2.3.3) and rbenv (1.2.0) reject such names since their 2022 fixes; jenv and older releases
// of the others do not. A plain name, or pyenv-virtualenv's `3.12.1/envs/x` and nvm's `lts/*`, stays within
// the manager's own directory. Pure.

/** The version files whose words are names a shim joins onto its versions directory. */
export const NAMED_VERSION_FILES: readonly string[] = [
  ".java-version",
  ".python-version",
  ".ruby-version",
  ".node-version",
  ".go-version",
  ".nvmrc",
];

/** The first word of a name that climbs out of the directory it is joined onto, or null when none does. */
export function climbingVersionName(text: string): string | null {
  // Every word, comments' too: which one a manager reads (jenv the first, pyenv each line) is the manager's.
  for (const word of text.split(/\s+/)) if (word.split(/[\\/]/).includes("..")) return word;
  return null;
}
