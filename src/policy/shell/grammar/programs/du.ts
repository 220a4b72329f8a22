// du (GNU coreutils 9.1): walks its operands (names and sizes, not contents); `.` when none.
import { DOT, listOrWalk, unknownRead } from "../effects.ts";
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const du: ProgramGrammar = {
  names: ["du"],
  options: [
    ...GNU_COMMON,
    ...["-0 --null", "-a --all", "--apparent-size", "-b --bytes", "-c --total", "-h --human-readable"].map(
      (n) => flag(n),
    ),
    ...["--inodes", "-k", "-l --count-links", "-m", "-P --no-dereference", "-S --separate-dirs", "--si"].map(
      (n) => flag(n),
    ),
    ...["-s --summarize", "-x --one-file-system"].map((n) => flag(n)),
    flag("-D -H --dereference-args"),
    flag("-L --dereference", "follow"),
    opt("-B --block-size -t --threshold --time-style"),
    opt("-d --max-depth", "number"),
    opt("--exclude", "pattern"),
    opt("-X --exclude-from", "read"),
    opt("--files0-from", "read", { mode: "list-of-files" }),
    optional("--time", "string", ["atime", "access", "use", "ctime", "status", "birth", "creation"]),
  ],
  permute: true,
  abbreviate: true,
  operands: ["walk"],
  effect: "read",
  finish(p, out) {
    // -s prints one total per operand (with -a, du refuses to run): the walk reads sizes, shows no name below.
    const itself = p.has("-s") && !p.has("-a");
    listOrWalk(p, out, { recursive: true, follow: p.has("follow") ? "all" : "args", dflt: DOT, itself });
    if (p.has("list-of-files")) unknownRead(out);
    return null;
  },
};
