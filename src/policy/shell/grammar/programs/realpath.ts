// realpath (GNU coreutils 9.1) and readlink: resolve the names they are given (metadata only).
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const realpath: ProgramGrammar = {
  names: ["realpath"],
  options: [
    ...GNU_COMMON,
    ...["-e --canonicalize-existing", "-m --canonicalize-missing", "-L --logical", "-P --physical"].map((n) =>
      flag(n),
    ),
    ...["-q --quiet", "-s --strip --no-symlinks", "-z --zero"].map((n) => flag(n)),
    opt("--relative-to --relative-base", "list"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["list"],
  effect: "read",
};

export const readlink: ProgramGrammar = {
  names: ["readlink"],
  options: [
    ...GNU_COMMON,
    ...[
      "-f --canonicalize",
      "-e --canonicalize-existing",
      "-m --canonicalize-missing",
      "-n --no-newline",
    ].map((n) => flag(n)),
    ...["-q --quiet -s --silent", "-v --verbose", "-z --zero"].map((n) => flag(n)),
  ],
  permute: true,
  abbreviate: true,
  operands: ["list"],
  effect: "read",
};
