// tree (2.1.0): walks its operands (`.` when none) for names; -o writes the listing; -R reruns
// with -o in every directory (writes files: not understood); --fromfile reads its operands as lists;
// --info prints the comments of every `.info` file met (a content read of any file one links to).
import { DOT, listOrWalk, raise, unknownRead } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const tree: ProgramGrammar = {
  names: ["tree"],
  options: [
    ...["--help", "--version", "-a", "-d", "-f", "-x", "--gitignore", "--ignore-case", "--matchdirs"].map(
      (n) => flag(n),
    ),
    ...["--metafirst", "--prune", "--noreport", "-q", "-N", "-Q", "-p", "-u", "-g", "-s", "-h"].map((n) =>
      flag(n),
    ),
    ...["--si", "--du", "-D", "-F", "--inodes", "--device", "-v", "-t", "-c", "-U", "-r", "--dirsfirst"].map(
      (n) => flag(n),
    ),
    ...["--filesfirst", "-i", "-A", "-S", "-n", "-C", "-X", "-J", "--nolinks", "--fflinks"].map((n) =>
      flag(n),
    ),
    flag("-l", "follow"),
    flag("-R", "rerun"),
    flag("--fromfile", "fromfile"),
    flag("--info", "info-files"),
    opt("-L --filelimit", "number"),
    opt("-P -I", "pattern"),
    opt("--charset --timefmt --sort -H -T"),
    opt("--gitfile --infofile --hintro --houtro", "read"),
    opt("-o", "write"),
  ],
  permute: true,
  abbreviate: false,
  operands: ["walk"],
  effect: "read",
  finish(p, out) {
    if (p.has("rerun")) return { word: "-R", reason: "tree -R writes a listing file into every directory" };
    if (p.has("info-files"))
      return {
        word: "--info",
        reason: "tree --info prints what `.info` files in every directory it walks hold, through symlinks",
      };
    if (p.has("-o")) raise(out, "write");
    if (p.has("fromfile")) {
      listOrWalk(p, out, { recursive: false, follow: "args", dflt: null, contents: true });
      if (p.operands.length === 0) unknownRead(out);
      return null;
    }
    listOrWalk(p, out, { recursive: true, follow: p.has("follow") ? "all" : "none", dflt: DOT });
    return null;
  },
};
