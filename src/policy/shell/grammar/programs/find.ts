// find (GNU findutils 4.9): starting points (`.` when none) walked for names, then an expression
// of tests, actions and operators. -L follows every symlink, -H those named as starting points.
// -exec/-execdir/-ok/-okdir run a command per file (judged as its own unit, `{}` only known at
// run time); -delete removes what it walks (a destroy, as rm -r is: untracked work is gone); -fprint* and
// -fls write a file. -files0-from takes the starting points from a file or standard input the judge does
// not read, so what it walks, lists or deletes is not known: not understood (red team, round 23: it listed
// and deleted ~/.ssh). Any other word is not understood.
import type { Arg } from "../../wrappers.ts";
import { DOT, placeholders, raise } from "../effects.ts";
import { emptyEffects, pathEffect } from "../parse.ts";
import type { ProgramGrammar, Understanding } from "../spec.ts";

/** Primaries with no argument. */
const NULLARY = new Set([
  ...[
    "-daystart",
    "-depth",
    "-follow",
    "-nowarn",
    "-warn",
    "-mount",
    "-xdev",
    "-noleaf",
    "-ignore_readdir_race",
  ],
  ...["-noignore_readdir_race", "-empty", "-false", "-true", "-nouser", "-nogroup", "-readable", "-writable"],
  ...["-executable", "-print", "-print0", "-ls", "-prune", "-quit", "-not", "!", "-a", "-and", "-o", "-or"],
  ...[",", "(", ")", "-help", "--help", "-version", "--version", "-d"],
]);
/** Primaries with one argument that is not a path. */
export const UNARY: ReadonlySet<string> = new Set([
  ...["-maxdepth", "-mindepth", "-regextype", "-amin", "-atime", "-cmin", "-ctime", "-mmin", "-mtime"],
  ...["-context", "-fstype", "-gid", "-group", "-ilname", "-iname", "-inum", "-ipath", "-iregex"],
  ...["-iwholename", "-links", "-lname", "-name", "-path", "-perm", "-regex", "-wholename", "-size"],
  ...["-type", "-uid", "-used", "-user", "-xtype", "-printf"],
]);
/** Primaries whose argument is a file it stats (-newer FILE). */
export const STATS = /^-(newer|anewer|cnewer|samefile|newer[acmB][acmBt])$/;
const WRITES: Readonly<Record<string, number>> = { "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2 };
const EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function refuse(out: ReturnType<typeof emptyEffects>, word: Arg, reason: string): Understanding {
  return { understood: false, why: { word: word.raw, reason }, effects: out };
}

function judgeFind(argv: readonly Arg[]): Understanding {
  const out = emptyEffects("read");
  let follow: "none" | "args" | "all" = "none";
  let i = 1;
  for (; i < argv.length; i++) {
    const v = argv[i]?.value;
    if (v === "-H") follow = "args";
    else if (v === "-L") follow = "all";
    else if (v === "-P") follow = "none";
    else if (v !== undefined && v !== null && /^-O\d$/.test(v)) continue;
    else if (v === "-D") i++;
    else break;
  }
  const roots: Arg[] = [];
  for (; i < argv.length; i++) {
    const a = argv[i] as Arg;
    if (a.value === null)
      return refuse(out, a, "it is only known at run time, so it could be -exec or -delete");
    if (a.glob && /^[*?[]/.test(a.value))
      return refuse(out, a, "the glob may expand to a name that find takes as an expression");
    if (/^[-(!,]/.test(a.value) && a.value !== "-") break;
    roots.push(a);
  }
  let deletes = false;
  for (; i < argv.length; i++) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) return refuse(out, a, "it is only known at run time, so it could be -exec or -delete");
    if (v === "-follow") follow = "all";
    if (NULLARY.has(v)) continue;
    if (UNARY.has(v)) {
      if (argv[i + 1] === undefined) return refuse(out, a, `${v} needs a value`);
      i++;
      continue;
    }
    if (STATS.test(v)) {
      const f = argv[++i];
      if (f === undefined) return refuse(out, a, `${v} needs a file`);
      out.paths.push(pathEffect("list", f));
      continue;
    }
    if (EXEC.has(v)) {
      let end = i + 1;
      while (end < argv.length && argv[end]?.value !== ";" && argv[end]?.value !== "+") end++;
      if (end === i + 1 || end >= argv.length) return refuse(out, a, `${v} needs a command ended by ; or +`);
      // find puts the file name wherever `{}` appears, even inside a word (`sh -c 'x {}'`).
      out.inner.push(placeholders(argv.slice(i + 1, end), /\{\}/));
      // -execdir/-okdir run it in the directory of each match: its relative paths are not known here.
      if (v.endsWith("dir")) out.innerElsewhere = true;
      raise(out, "run");
      i = end;
      continue;
    }
    if (v === "-delete") {
      deletes = true;
      continue;
    }
    const writes = WRITES[v];
    if (writes !== undefined && Object.hasOwn(WRITES, v)) {
      const f = argv[i + 1];
      if (f === undefined || argv[i + writes] === undefined) return refuse(out, a, `${v} needs a file`);
      out.paths.push(pathEffect("write", f));
      raise(out, "write");
      i += writes;
      continue;
    }
    if (v === "-files0-from")
      return refuse(
        out,
        a,
        "-files0-from takes find's starting points from a file or standard input, not known here",
      );
    return refuse(out, a, `${v} is not a find expression word this engine knows`);
  }
  for (const r of roots.length > 0 ? roots : [DOT]) {
    out.paths.push(pathEffect("walk", r, { follow, contents: false }));
    if (deletes) out.paths.push(pathEffect("write", r, { below: true }));
  }
  if (deletes) raise(out, "destroy");
  return { understood: true, effects: out };
}

export const find: ProgramGrammar = {
  names: ["find"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["walk"],
  effect: "read",
  custom: judgeFind,
};
