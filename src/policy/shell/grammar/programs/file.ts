// file (file 5.44): reads the start of each operand; -f reads a list of names; -m a colon-separated
// list of magic files, where a directory means every file directly in it (libmagic loads each, and prints
// every line it cannot parse: red team, round 8); -z/-Z may run decompressors and -C writes a compiled
// magic file (not understood).
import { unknownRead } from "../effects.ts";
import { pathEffect } from "../parse.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const file: ProgramGrammar = {
  names: ["file"],
  options: [
    ...["--help", "-v --version", "-b --brief", "-c --checking-printout", "-i --mime", "--apple"].map((n) =>
      flag(n),
    ),
    ...["--extension", "--mime-type", "--mime-encoding", "-k --keep-going", "-l --list"].map((n) => flag(n)),
    ...["-L --dereference", "-h --no-dereference", "-n --no-buffer", "-N --no-pad", "-0 --print0"].map((n) =>
      flag(n),
    ),
    ...["-p --preserve-date", "-r --raw", "-s --special-files", "-S --no-sandbox", "-d --debug"].map((n) =>
      flag(n),
    ),
    flag("-z --uncompress -Z --uncompress-noreport", "runs"),
    flag("-C --compile", "runs"),
    opt("-m --magic-file", "string", { mode: "magic" }),
    opt("-e --exclude --exclude-quiet -F --separator -P --parameter"),
    opt("-f --files-from", "read", { mode: "list-of-files" }),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    const runs = p.options.find((o) => o.spec.mode === "runs");
    if (runs !== undefined)
      return { word: runs.word.raw, reason: "file -z/-Z may run decompressors, and -C writes a magic file" };
    if (p.has("list-of-files")) unknownRead(out);
    for (const m of p.values("magic")) {
      if (m.value === null) {
        unknownRead(out);
        continue;
      }
      for (const part of m.value.split(":")) {
        if (part === "") continue;
        const arg = { ...m, value: part, raw: part === m.value ? m.raw : part };
        out.paths.push(pathEffect("walk", arg, { contents: true, follow: "all", depth: 1 }));
      }
    }
    return null;
  },
};
