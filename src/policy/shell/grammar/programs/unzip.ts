// unzip (Info-ZIP UnZip 6.00, Debian): in its listing forms only — -l and -v list the members, -t tests
// them, -z prints the comment, -c and -p print the members' text — it reads the archive (its first
// operand, or that name with .zip or .ZIP added when no such file exists); later operands are member
// names. A member's text is judged as a read of the archive, as tar's are. Every other form extracts
// (writes), and a wildcard in the archive name is expanded by unzip itself: not understood. Alone, -v
// prints the version.
import type { Arg } from "../../wrappers.ts";
import { pathEffect } from "../parse.ts";
import { flag, type ProgramGrammar } from "../spec.ts";

const WILDCARD = /[*?[]/;

const withSuffix = (a: Arg, suffix: string): Arg => ({
  ...a,
  value: `${a.value}${suffix}`,
  raw: `${a.raw}${suffix}`,
});

export const unzip: ProgramGrammar = {
  names: ["unzip"],
  options: [
    ...["-l", "-v", "-t", "-z", "-c", "-p"].map((n) => flag(n, "lists")),
    ...["-q", "-C", "-a", "-h --help"].map((n) => flag(n)),
  ],
  // Options end at the archive: after it every word is a member name (`unzip a.zip -l` extracts, looking
  // for a member named -l), and -x's exclusion list (not modelled) comes there too.
  permute: false,
  abbreviate: false,
  operands: ["read", "pattern"],
  effect: "read",
  finish(p, out) {
    const [archive] = p.operands;
    if (archive === undefined)
      return p.options.every((o) => o.name === "-v" || o.name === "-h" || o.name === "--help")
        ? null
        : { word: p.program, reason: "unzip without an archive" };
    if (!p.has("lists"))
      return { word: archive.raw, reason: "unzip without -l, -v, -t, -z, -c or -p extracts the archive" };
    if (archive.value === null || WILDCARD.test(archive.value))
      return { word: archive.raw, reason: "unzip expands a wildcard in the archive name itself" };
    if (!/\.zip$/i.test(archive.value))
      out.paths.push(
        pathEffect("read", withSuffix(archive, ".zip")),
        pathEffect("read", withSuffix(archive, ".ZIP")),
      );
    return null;
  },
};
