// A module specifier a JavaScript program loads as code (`node --import X`, `-r X`, `--loader X`,
// `--test-reporter X`, `prettier --plugin X`). Node reads it three ways: with a URL scheme it is a URL
// (`data:` carries the code itself, `file:` and `https:` point anywhere); starting with `/`, `./` or
// `../` it is a file path, judged as any file the program runs; anything else is a package name,
// resolved through `node_modules` of the directory it runs in and of every directory above it (and, for
// `-r`, NODE_PATH, ~/.node_modules, ~/.node_libraries), so `evil` or even `src/setup.js` may load code
// from outside the project. Only the path form names a file the engine judges (red team, round 7).
import type { Arg } from "../wrappers.ts";
import type { NotUnderstood } from "./spec.ts";

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const PATH_FORM = /^(\.{1,2}(\/|$)|\/)/;

/** Why a specifier a program loads as code is not one the engine can judge, or null for a file path. */
export function specifierNotUnderstood(
  program: string,
  value: Arg,
  builtins: ReadonlySet<string> = new Set(),
): NotUnderstood | null {
  const v = value.value;
  // Only known at run time, or `~/x` (bash made it a path): judged as the file it names.
  if (v === null || value.tilde || PATH_FORM.test(v) || builtins.has(v)) return null;
  if (URL_SCHEME.test(v))
    return {
      word: value.raw,
      reason: `${program} loads code from the URL \`${v.slice(0, 60)}\`, which Airlock never reads`,
    };
  return {
    word: value.raw,
    reason: `${program} resolves \`${v.slice(0, 60)}\` as a package, through node_modules of this directory and every one above it: code Airlock has not judged (a file in the project is \`./${v.slice(0, 60)}\`)`,
  };
}
