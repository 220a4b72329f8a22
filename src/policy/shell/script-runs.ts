// What running a script means beyond the program's name: the script file a shell or an interpreter runs
// is read by it (and shown by `sh -v`, in tracebacks), the words it gets are its to read, a script outside
// the project is not the project's code; and util-linux `script` writes its typescript. Pure.
import { normalizePath } from "../paths.ts";
import { isDenylistedPath } from "../secret-paths.ts";
import type { CwdSet } from "./cwd.ts";
import type { Concern } from "./units.ts";
import type { Arg } from "./wrappers.ts";

/**
 * The script file a shell runs (`bash x.sh`, `sh -v FILE`), or null when it runs none (`-c`, standard
 * input). The shell reads that file, and prints it under -v or -x: it is a read of the file.
 */
export function shellScriptFile(argv: readonly Arg[]): Arg | null {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) return null;
    if (v === "--" || v === "-") return v === "--" ? (argv[i + 1] ?? null) : null;
    if (v === "-o" || v === "+o" || v === "-O" || v === "+O" || v === "--rcfile" || v === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v.startsWith("-") && /[cs]/.test(v)) return null;
      continue;
    }
    if (v.startsWith("--")) continue;
    return a.pipe ? null : a;
  }
  return null;
}

const TYPESCRIPT_VALUES = new Set(["-E", "--echo", "-o", "--output-limit", "-c", "--command"]);
const TYPESCRIPT_LOGS = new Set([
  "-B",
  "--log-io",
  "-I",
  "--log-in",
  "-O",
  "--log-out",
  "-T",
  "--log-timing",
]);

/**
 * The files util-linux `script` writes: its operand (the typescript, `typescript` when none) and the
 * logs its options name. Its output is the inner command's, so whoever picks the command picks what lands
 * in the file (`script -qc 'echo …' ~/.bashrc`).
 */
export function typescriptWrites(argv: readonly Arg[]): Arg[] {
  const out: Arg[] = [];
  let operand = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as Arg;
    const v = a.value ?? "";
    const name = v.startsWith("--") && v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    const inline = name !== v ? { ...a, value: v.slice(name.length + 1) } : null;
    if (TYPESCRIPT_LOGS.has(name)) {
      const file = inline ?? argv[++i];
      if (file) out.push(file);
    } else if (TYPESCRIPT_VALUES.has(name)) {
      if (inline === null) i++;
    } else if (/^-t./.test(v)) out.push({ ...a, value: v.slice(2) });
    else if (a.value === null || !v.startsWith("-")) {
      out.push(a);
      operand = true;
    }
  }
  if (!operand) out.push({ value: "typescript", raw: "typescript", glob: false, tilde: false });
  return out;
}

/** A word naming a file outside the directory the command runs in, or a directory not known. */
export function outsideProject(value: string, tilde: boolean, cwd: CwdSet): boolean {
  if (tilde || value.startsWith("/")) return true;
  if (normalizePath(value).startsWith("..")) return true;
  return cwd === null || cwd.some((d) => d.startsWith("/") || d.startsWith("~") || d.startsWith(".."));
}

/**
 * What running a script file means beyond the program's name: a secret as the script (or as a word the
 * script gets) is read and shown; a script outside the project is not the project's code, and runs its
 * arguments as it pleases (timeit.py runs them as Python).
 */
export function scriptConcerns(name: string, script: Arg, argv: readonly Arg[], cwd: CwdSet): Concern[] {
  const out: Concern[] = [];
  const words = [script, ...argv.slice(argv.indexOf(script) + 1)];
  for (const a of words) {
    const v = a.value;
    if (v === null || a.pipe || (a !== script && v.startsWith("-"))) continue;
    const role = a === script ? `the script ${name} runs` : "a word the script gets";
    if (isDenylistedPath(v))
      out.push({ mention: "sensitive", reason: `\`${a.raw}\` is a secret, and ${role}: it reads it` });
    else if (outsideProject(v, a.tilde, cwd) && (a === script || /\//.test(v) || a.tilde))
      out.push({
        mention: null,
        reason:
          a === script
            ? `\`${a.raw}\` is a script outside the project, whose arguments the engine cannot place`
            : `\`${a.raw}\` names a file outside the project, which the script may read`,
      });
  }
  return out;
}
