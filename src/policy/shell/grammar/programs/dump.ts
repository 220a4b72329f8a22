// base64/base32 (GNU coreutils 9.1), od (coreutils 9.1), strings (binutils 2.40) and xxd (vim
// 9.0): read their operands and print them encoded or dumped; xxd writes OUTFILE when given one.
import { raise } from "../effects.ts";
import { responseFileWord } from "../response-files.ts";
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const base64: ProgramGrammar = {
  names: ["base64", "base32", "basenc"],
  options: [...GNU_COMMON, flag("-d --decode"), flag("-i --ignore-garbage"), opt("-w --wrap", "number")],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};

export const od: ProgramGrammar = {
  names: ["od"],
  options: [
    ...GNU_COMMON,
    ...["-b", "-c", "-d", "-f", "-i", "-l", "-o", "-s", "-x", "-v --output-duplicates"].map((n) => flag(n)),
    opt("--endian", "string", { choices: ["big", "little"] }),
    opt("-A --address-radix -j --skip-bytes -N --read-bytes -t --format"),
    opt("-S --strings -w --width", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};

export const strings: ProgramGrammar = {
  names: ["strings"],
  options: [
    ...[
      "-a --all",
      "-d --data",
      "-f --print-file-name",
      "-w --include-all-whitespace",
      "-h --help",
      "-v -V --version",
    ].map((n) => flag(n)),
    opt("-n --bytes -t --radix -e --encoding -T --target -s --output-separator -U --unicode"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  // binutils expands any word `@FILE` (option values too) before parsing.
  finish: responseFileWord,
};

export const xxd: ProgramGrammar = {
  names: ["xxd"],
  options: [
    ...[
      "-a -autoskip",
      "-b -bits",
      "-C -capitalize",
      "-E -EBCDIC",
      "-e",
      "-h -help",
      "-i -include",
      "-p -ps -postscript -plain",
      "-r -revert",
      "-u",
      "-v -version",
      "-d",
    ].map((n) => flag(n)),
    opt("-c -cols -g -groupsize -l -len -n -name -o -offset -s -seek"),
  ],
  permute: true,
  abbreviate: false,
  singleDash: true,
  // xxd reads `-c8`, `-s+16`, `-l0x40` as `-c 8`, … (it compares its words by prefix; vim 9.0's xxd.c).
  gluedNumbers: true,
  operands: ["read", "write"],
  effect: "read",
  finish(p, out) {
    if (p.operands.length > 2)
      return { word: p.operands[2]?.raw ?? "", reason: "xxd takes at most two operands" };
    if (p.operands.length === 2) raise(out, "write");
    return null;
  },
};
