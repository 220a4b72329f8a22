// md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum, b2sum, cksum (GNU coreutils 9.1): read
// their operands and print a digest (cksum by the algorithm its -a names; it has no -b or -t). -c/--check
// reads checksum lists and then every file each list names: the disk reads each list's names
// (guards/checksum-lists.ts); a list on standard input is not seen, so it is not understood.
import { flag, GNU_COMMON, type OptionSpec, opt, type ProgramGrammar } from "../spec.ts";

const COMMON: readonly OptionSpec[] = [
  ...GNU_COMMON,
  ...["--tag", "-z --zero", "--ignore-missing", "--quiet", "--status"].map((n) => flag(n)),
  flag("--strict"),
  flag("-w --warn"),
  flag("-c --check", "check-list"),
];

const MODES: readonly OptionSpec[] = [flag("-b --binary"), flag("-t --text")];
const ALGORITHMS = [
  "sysv",
  "bsd",
  "crc",
  "md5",
  "sha1",
  "sha224",
  "sha256",
  "sha384",
  "sha512",
  "blake2b",
  "sm3",
];

const sum = (names: string[], extra: readonly OptionSpec[] = MODES): ProgramGrammar => ({
  names,
  options: [...COMMON, ...extra],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    const check = p.options.find((o) => o.spec.mode === "check-list");
    if (check === undefined) return null;
    if (p.operands.length === 0 || p.operands.some((o) => o.value === "-"))
      return {
        word: check.word.raw,
        reason: "--check reads a list on standard input, whose names are not known here",
      };
    for (const e of out.paths) if (e.access === "read") e.checksums = true;
    return null;
  },
});

export const sums = sum(["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"]);
export const b2sum = sum(["b2sum"], [...MODES, opt("-l --length", "number")]);
export const cksum = sum(
  ["cksum"],
  [
    opt("-a --algorithm", "string", { choices: ALGORITHMS }),
    opt("-l --length", "number"),
    flag("--untagged"),
    flag("--debug"),
  ],
);
