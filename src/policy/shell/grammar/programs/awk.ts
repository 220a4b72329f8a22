// awk (POSIX awk; Debian's awk is mawk 1.3.4, gawk and nawk take the same short options): the
// program is the first operand unless -f gives a file; later operands are files it reads, or
// `name=value` assignments. The program is read by scanAwk: system(), pipes and getline from
// commands run programs (not understood); `print > f` writes f; `getline < f` reads f.

import { scanAwk } from "../../awk-program.ts";
import { raise } from "../effects.ts";
import { pathEffect } from "../parse.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export const awk: ProgramGrammar = {
  names: ["awk", "mawk", "gawk", "nawk", "original-awk"],
  options: [
    flag("--version", "version"),
    // mawk's -W takes many words (`-W exec FILE` runs a program file); only `-W version` is understood,
    // which mawk and gawk both read as --version.
    opt("-W", "string", { choices: ["version"], mode: "version" }),
    opt("-F --field-separator", "pattern"),
    opt("-v --assign"),
    opt("-f --file", "read", { mode: "program-file" }),
  ],
  permute: false,
  abbreviate: false,
  operands: ["pattern", "read"],
  effect: "read",
  finish(p, out) {
    const file = p.options.find((o) => o.spec.mode === "program-file");
    if (file !== undefined)
      return { word: file.word.raw, reason: "awk -f runs a program from a file, which may call system()" };
    const [program, ...rest] = p.operands;
    out.paths = out.paths.filter((e) => !rest.includes(e.arg));
    for (const a of rest)
      if (!ASSIGNMENT.test(a.value ?? "") && a.value !== "-") out.paths.push(pathEffect("read", a));
    if (program === undefined)
      return p.has("version") ? null : { word: p.program, reason: "awk without a program" };
    if (program.value === null)
      return { word: program.raw, reason: "the awk program is only known at run time" };
    const findings = scanAwk(program.value);
    if (findings === null)
      return { word: program.raw, reason: "the awk program cannot be read, so what it runs is not known" };
    for (const f of findings) {
      if (f.risk === "exec") return { word: program.raw, reason: `the awk program runs commands: ${f.why}` };
      const arg = { value: f.file ?? null, raw: f.file ?? program.raw, glob: false, tilde: false };
      if (f.risk === "write") {
        out.paths.push(pathEffect("write", arg));
        raise(out, "write");
      } else out.paths.push(pathEffect("read", arg));
    }
    return null;
  },
};
