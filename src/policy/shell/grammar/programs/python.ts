// python3 (3.11): options (clustered single letters), then `-c CODE`, `-m MODULE` or a script
// file it runs, then the program's own arguments. No script: a session (interpreters.ts).
import { printsPythonFact, printsPythonUuid } from "../../interpreters.ts";
import type { Arg } from "../../wrappers.ts";
import { parseWords, pathEffect } from "../parse.ts";
import { runner } from "../runner.ts";
import { type Effects, flag, type NotUnderstood, opt, type Parsed } from "../spec.ts";
import { pip } from "./pip.ts";
import { PRINTING_MODULES } from "./python-modules.ts";

/** `-X` options that only tune diagnostics or decoding: any other (`presite=MODULE`, `pycache_prefix=DIR`) is not modelled. */
const X_OPTIONS =
  /^(importtime|dev|utf8(=[01])?|tracemalloc(=\d+)?|showrefcount|warn_default_encoding|no_debug_ranges|frozen_modules=(on|off)|int_max_str_digits=\d+|faulthandler|perf)$/;

/**
 * `-W action:message:category:module:lineno`: a dotted category (`venv.__main__.X`) makes python import
 * that module at start-up, and a module whose import runs code (`venv.__main__`, `unittest.__main__`)
 * then runs with the script's arguments (red team, round 7). A builtin category (no dot) imports nothing.
 */
function optionNotUnderstood(p: Parsed): NotUnderstood | null {
  for (const v of p.values("-W")) {
    if (v.value === null)
      return { word: v.raw, reason: "a warning filter known only at run time may import a module" };
    const category = v.value.split(":")[2] ?? "";
    if (category.includes("."))
      return {
        word: v.raw,
        reason: `python imports the module of the warning category \`${category}\` at start-up, running its code`,
      };
  }
  for (const v of p.values("-X"))
    if (v.value === null || !X_OPTIONS.test(v.value))
      return {
        word: v.raw,
        reason: `python -X ${v.value ?? "…"} is an implementation option this engine does not model`,
      };
  return null;
}

/**
 * Modules `-m` runs that are commands of their own, judged by their grammars (json-tool.ts, pip.ts) as the
 * inner unit: the standard library's JSON printer and pip. python finds them on sys.path, where (without
 * -P or -I) the directory it runs in comes first: which file that is, the disk says (python-path.ts).
 */
const COMMAND_MODULES = new Set(["json.tool", "pip", ...PRINTING_MODULES.keys()]);

const moduleWords = (p: Parsed) => p.options.find((o) => o.spec.mode === "module")?.command;

/** `-m tokenize …` is judged as `python -m tokenize …` (python-modules.ts), not as a program called `tokenize`. */
function nameModule(p: Parsed, out: Effects): void {
  const words = moduleWords(p);
  const module = words?.[0];
  if (words === undefined || module?.value == null || !PRINTING_MODULES.has(module.value)) return;
  const named = [{ ...module, value: `python -m ${module.value}` }, ...words.slice(1)];
  out.inner = out.inner.map((inner) => (inner === words ? named : inner));
}

export const python = runner({
  names: ["python", "python3", "python3.11", "python3.12", "python3.13"],
  options: [
    ...["-b", "-B", "-d", "-E", "-i", "-I", "-O", "-OO", "-P", "-q", "-s", "-S", "-u", "-v", "-V", "-x"].map(
      (n) => flag(n),
    ),
    opt("-W"),
    opt("-X"),
    opt("-c", "pattern", { mode: "inline" }),
    // `-m MODULE ARGS…` ends python's options: the module runs as a command of its own (`python3 -m pytest -q`).
    { names: ["-m"], command: [], mode: "module" },
    flag("--check-hash-based-pycs"),
  ],
  permute: false,
  definedBy: ["pyproject.toml"],
  check(p, out) {
    const refused = optionNotUnderstood(p);
    if (refused !== null) return refused;
    // `-c`/`-m` end python's options: what follows is the program's (parsed as operands here, when not options).
    nameModule(p, out);
    const script = p.operands[0];
    if (script !== undefined && !p.has("inline") && !p.has("module")) {
      out.paths.push(pathEffect("exec", script));
      out.definedBy.push(script.value ?? script.raw);
    }
    return null;
  },
  // `-i` opens a session on standard input after the module.
  runsNothingOfTheProject: (p) =>
    (COMMAND_MODULES.has(moduleWords(p)?.[0]?.value ?? "") && !p.has("-i")) ||
    printsPythonFact(p.argv.slice(1).map((a) => a.value)) ||
    printsPythonUuid(p.argv.slice(1).map((a) => a.value)),
});

/** Other python programs with a read-only grammar, started like pip from their console script (fix21c). */
const PYTHON_SCRIPTS = new Set(["yamllint"]);

/**
 * A python start the disk must look at: `python -m` of a module understood as a command (with the module
 * when the directory it runs in is first on sys.path, not with -P or -I, python 3.11), a `-c` that prints
 * a fact of `sys` or a uuid4, or pip itself, whose sys.path starts at its script's directory. Null for any other
 * program or form.
 */
export function pythonStart(program: string, argv: readonly Arg[]): { module: string | null } | null {
  if (pip.names.includes(program) || PYTHON_SCRIPTS.has(program)) return { module: null };
  if (!python.names.includes(program)) return null;
  // `-c "import sys; print(sys.version)"` imports nothing, but site runs first (a venv's .pth files).
  if (printsPythonFact(argv.slice(1).map((a) => a.value))) return { module: null };
  // `-c` puts the working directory first on sys.path, as -m does, before uuid's imports.
  if (printsPythonUuid(argv.slice(1).map((a) => a.value))) return { module: "uuid" };
  const { parsed, failure } = parseWords(python, argv, 1);
  const module = failure === null ? moduleWords(parsed)?.[0]?.value : undefined;
  if (module === undefined || module === null || !COMMAND_MODULES.has(module)) return null;
  return { module: parsed.has("-P") || parsed.has("-I") ? null : module };
}
