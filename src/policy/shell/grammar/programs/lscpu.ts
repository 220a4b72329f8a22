// lscpu (util-linux 2.38): prints the CPU architecture from the kernel's public summaries (/proc/cpuinfo,
// /sys/devices/system/cpu); no operand. `-C`, `-e`, `-p` take an optional column list (glued or `=`).
// `-s`/`--sysroot DIR` reads those files below DIR instead and prints what they hold (a link there can
// lead anywhere): not understood.
import { noOperand } from "../effects.ts";
import { flag, opt, optional, type ProgramGrammar } from "../spec.ts";

export const lscpu: ProgramGrammar = {
  names: ["lscpu"],
  options: [
    ...[
      "-a --all",
      "-b --online",
      "-B --bytes",
      "-c --offline",
      "-J --json",
      "-x --hex",
      "-y --physical",
    ].map((n) => flag(n)),
    ...["--output-all", "-h --help", "-V --version"].map((n) => flag(n)),
    optional("-C --caches"),
    optional("-e --extended"),
    optional("-p --parse"),
    opt("-s --sysroot", "string", { mode: "sysroot" }),
  ],
  permute: true,
  abbreviate: true,
  operands: [],
  effect: "read",
  finish(p) {
    const root = p.options.find((o) => o.spec.mode === "sysroot");
    if (root !== undefined)
      return { word: root.word.raw, reason: "lscpu reads and prints the system files below its --sysroot" };
    return noOperand(p, "lscpu takes no operand");
  },
};
