// `find … | xargs CMD`: xargs gives CMD the names find prints. When find only walks (no action that runs,
// writes or formats its output) and xargs only splits its input (no file, delimiter, end string, tty or
// variable of its own), those words are paths below find's starting points; CMD is understood when its
// grammar reads or lists them where every one of them lands (the last operand kind, which repeats). The
// reads are judged as a walk of the starting points (disk: every file find could print, narrowed by its
// `-name` when the expression is a plain conjunction). Without `-print0 | xargs -0` xargs splits names
// at blanks and honours quotes and backslashes, so the walk also asks if any name there has one.
import type { WalkStyle } from "../call-facts.ts";
import { basename } from "../paths.ts";
import { grammarFor } from "./grammar/index.ts";
import { parseWords, understand } from "./grammar/parse.ts";
import { find, STATS, UNARY } from "./grammar/programs/find.ts";
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "./grammar/spec.ts";
import { redirOps, type StmtEvent, type Word } from "./parser.ts";
import type { Arg, FoundPaths } from "./wrappers.ts";

export type { FoundPaths };

/** What a `find` producer prints, as the words xargs hands on. */
/** Operators that make find's expression more than one conjunction (what it prints is then not one test's). */
const NOT_CONJUNCTION = new Set(["-o", "-or", ",", "!", "-not", "(", ")"]);
/** Actions that print something other than one path per name, or elsewhere. */
const OTHER_OUTPUT = new Set(["-printf", "-fprintf", "-ls", "-fls", "-fprint", "-fprint0"]);
/** A starting point xargs would pass as one word (no blank, quote or backslash). */
const ONE_WORD = /^[^\s'"\\]+$/;

/** The names a simple `find` command prints, or null when it does anything else. */
export function foundByFind(argv: readonly Arg[], shown: string): FoundPaths | null {
  if (argv[0]?.value !== "find" || argv[0].glob) return null;
  const u = understand(find, argv);
  if (!u.understood) return null;
  const e = u.effects;
  if (
    e.effect !== "read" ||
    e.inner.length > 0 ||
    e.paths.some((p) => p.access === "read" || p.access === "write")
  )
    return null;
  const roots = e.paths.filter((p) => p.access === "walk").map((p) => p.arg);
  if (roots.length === 0 || roots.some((r) => r.value === null || r.glob || r.pipe === true)) return null;
  let i = 1;
  while (i < argv.length && /^-([HLP]|O\d)$/.test(argv[i]?.value ?? "")) i++;
  while (i < argv.length && !/^[-(!,]/.test(argv[i]?.value ?? "-")) i++;
  const expr = argv.slice(i).map((a) => a.value as string);
  if (expr.some((w) => OTHER_OUTPUT.has(w))) return null;
  const nul = expr.includes("-print0");
  if (nul && expr.includes("-print")) return null;
  if (!nul && roots.some((r) => !ONE_WORD.test(r.value as string))) return null;
  // `-name P` narrows what is printed when every test is and-ed and no print comes before it. The
  // expression is read primary by primary: `-newer -name` names a file, not a test.
  let name: string | null = null;
  let conjunction = true;
  let printed = false;
  for (let k = 0; k < expr.length; k++) {
    const w = expr[k] as string;
    if (NOT_CONJUNCTION.has(w)) conjunction = false;
    else if (w === "-print" || w === "-print0") printed = true;
    else if (UNARY.has(w) || STATS.test(w)) {
      if (w === "-name" && !printed && name === null) name = expr[k + 1] ?? null;
      k++;
    }
  }
  return { roots, nul, name: conjunction ? name : null, shown };
}

/**
 * What a statement reads on standard input when a plain `find` prints it (`find … | xargs CMD`): the
 * producer's words and only its standard output (`2>/dev/null` aside), and no redirection of the
 * statement's own input.
 */
export function pipedPaths(
  src: string,
  event: StmtEvent,
  argsOf: (words: readonly Word[]) => Arg[],
): FoundPaths | null {
  const from = event.stdinFrom;
  if (from === undefined) return null;
  const argv = plainCall(src, from, argsOf);
  if (argv === null) return null;
  const ops = redirOps();
  const input = [ops.in, ops.dupIn, ops.readWrite, ops.hdoc, ops.dashHdoc, ops.word];
  if (event.redirs.some((r) => input.includes(r.op))) return null;
  const shown = src.slice(from.start, from.end);
  return foundByFind(argv, shown) ?? foundByGitNames(argv, shown);
}

/** The plain command a statement is, with only `2>/dev/null` redirected: its words, or null. */
function plainCall(src: string, from: StmtEvent, argsOf: (words: readonly Word[]) => Arg[]): Arg[] | null {
  if (from.cmd?.type !== "call" || from.cmd.assigns.length > 0 || from.hazards.length > 0) return null;
  if (from.redirs.some((r) => !/^2>\s*\/dev\/null$/.test(src.slice(r.start, r.end)))) return null;
  return argsOf(from.cmd.args);
}

/**
 * `CMD … $(find …)`: bash splits what a plain find prints at blanks and expands the globs in each name, so
 * with every name plain (the walk asks for one with a blank, a quote, a backslash or a glob character) the
 * words are the paths find prints, as `find … | xargs CMD` hands them on. Each such word stands for them
 * when CMD only reads or lists it where they land; else the words stay as they are (known at run time).
 * `$(git ls-files)` likewise stands for the tracked names (the disk asks for one with a glob character), not
 * with -z (bash drops the NULs and joins the names); nothing once the script has set IFS.
 */
export function substitutedPaths(
  src: string,
  argv: Arg[],
  argsOf: (words: readonly Word[]) => Arg[],
  assigned: ReadonlySet<string>,
): Arg[] {
  if (assigned.has("IFS") || !argv.some((a) => a.subst !== undefined)) return argv;
  const out = argv.map((a) => {
    if (a.subst === undefined) return a;
    const inner = plainCall(src, a.subst, argsOf);
    const shown = src.slice(a.subst.start, a.subst.end);
    const found = inner === null ? null : (foundByFind(inner, shown) ?? foundByGitNames(inner, shown));
    return found === null || found.nul ? a : foundArg({ ...found, split: true });
  });
  const words = out.filter((a) => a.found !== undefined);
  if (words.length === 0 || out.some((a) => a.subst !== undefined && a.found === undefined)) return argv;
  return words.every((w) => readsFound(out, w, false)) ? out : argv;
}

const DOT: Arg = { value: ".", raw: ".", glob: false, tilde: false };

/** A pathspec that only narrows git's names below where it runs: no magic, no option, not absolute, no `..`. */
const BELOW_PATHSPEC = /^(?![-:/])(?!(?:.*\/)?\.\.(?:\/|$)).+$/s;

/**
 * `git ls-files` (or `-z`), with nothing else but pathspecs below where it runs (`git ls-files '*.md'`): the
 * paths git's index names below the directory it runs in (a pathspec keeps some of them), relative to it,
 * one per line (quoted, with core.quotePath, when unusual) or NUL-ended. Which those are is the disk's to
 * read (guards/tracked-reads.ts), all of them; the git unit itself is judged as git.
 */
function foundByGitLsFiles(argv: readonly Arg[], shown: string): FoundPaths | null {
  const words = argv.map((a) => (a.glob ? null : a.value));
  if (words[0] !== "git" || words[1] !== "ls-files") return null;
  const nul = words[2] === "-z";
  const rest = words.slice(nul ? 3 : 2);
  const specs = rest[0] === "--" ? rest.slice(1) : rest;
  if (!specs.every((w) => w !== null && BELOW_PATHSPEC.test(w))) return null;
  return { roots: [DOT], nul, name: null, shown, tracked: true };
}

/**
 * `git diff --name-only` (or with `-z`), nothing else: the tracked files whose work tree differs from the index,
 * so some of the index's names (never a name only HEAD has, as `--cached` prints), from the work tree's top.
 */
function foundByGitDiffNames(argv: readonly Arg[], shown: string): FoundPaths | null {
  const words = argv.map((a) => (a.glob ? null : a.value));
  if (words[0] !== "git" || words[1] !== "diff") return null;
  const rest = words.slice(2).sort();
  const nul = rest.length === 2 && rest[1] === "-z";
  if (rest[0] !== "--name-only" || rest.length !== (nul ? 2 : 1)) return null;
  return { roots: [DOT], nul, name: null, shown, tracked: true, top: true };
}

const foundByGitNames = (argv: readonly Arg[], shown: string) =>
  foundByGitLsFiles(argv, shown) ?? foundByGitDiffNames(argv, shown);

/** GNU xargs 4.9's options; `mode` marks those that change where its words come from or what it runs. */
const XARGS: ProgramGrammar = {
  names: ["xargs"],
  options: [
    ...GNU_COMMON.map((o) => ({ ...o, mode: "info" })),
    flag("-0 --null", "null"),
    opt("-a --arg-file", "read", { mode: "other-input" }),
    opt("-d --delimiter", "string", { mode: "other-input" }),
    opt("-E", "string", { mode: "other-input" }),
    { ...optional("-e --eof"), mode: "other-input" },
    opt("-I", "string", { mode: "replace" }),
    { ...optional("-i --replace"), mode: "replace" },
    opt("-L", "number"),
    optional("-l --max-lines", "number"),
    opt("-n --max-args -P --max-procs -s --max-chars", "number"),
    flag("-o --open-tty -p --interactive", "tty"),
    opt("--process-slot-var", "string", { mode: "other-input" }),
    flag("-r --no-run-if-empty -t --verbose -x --exit --show-limits"),
  ],
  permute: false,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
};
const REFUSED_MODES = ["info", "other-input", "tty"];

/** One word standing for every path find prints (each run's words, as the reader gets them). */
function foundArg(found: FoundPaths): Arg {
  const roots = found.roots.map((r) => r.value).join(" ");
  return {
    value: `<${found.tracked ? "git ls-files" : "find"} ${roots}>`,
    raw: `<the names \`${found.shown}\` prints>`,
    glob: false,
    tilde: false,
    found,
  };
}

/**
 * `xargs [options] CMD ARGS` fed by `found`: CMD's argv with the found paths in their place (appended, or
 * for each word that is exactly `-I`'s replace string), or null when that is not understood.
 */
export function xargsOverFound(argv: readonly Arg[], found: FoundPaths): Arg[] | null {
  if (basename(argv[0]?.value ?? "") !== "xargs") return null;
  const { parsed, failure } = parseWords(XARGS, argv);
  if (failure !== null || parsed.operands.length === 0) return null;
  if (REFUSED_MODES.some((m) => parsed.has(m))) return null;
  if (parsed.has("null") !== found.nul) return null;
  const replaces = parsed.options.filter((o) => o.spec.mode === "replace");
  const word = foundArg(found);
  let inner: Arg[];
  if (replaces.length === 0) inner = [...parsed.operands, word];
  else {
    const last = replaces[replaces.length - 1];
    const mark = last?.value === null ? "{}" : (last?.value?.value ?? null);
    if (mark === null || mark === "") return null;
    // -I runs CMD once per name, with the name in every word that is exactly the replace string.
    if (parsed.operands.some((a) => a.value === null || (a.value !== mark && a.value.includes(mark))))
      return null;
    if (!parsed.operands.slice(1).some((a) => a.value === mark) || parsed.operands[0]?.value === mark)
      return null;
    inner = parsed.operands.map((a) => (a.value === mark ? word : a));
    return readsFound(inner, word, true) ? inner : null;
  }
  return readsFound(inner, word, false) ? inner : null;
}

/**
 * Whether CMD's grammar understands `argv` and only reads or lists `word`, where each path it stands for
 * lands (`one`: a single path per run; else every later operand takes the same kind). Only programs
 * with a plain grammar that reads (no custom placement, nothing run, written or walked).
 */
function readsFound(argv: readonly Arg[], word: Arg, one: boolean): boolean {
  const head = argv[0];
  if (head === undefined || head.value === null || head.glob || head.value.includes("/")) return false;
  const g = grammarFor(head.value);
  if (g === undefined || g.custom !== undefined) return false;
  const u = understand(g, argv);
  if (!u.understood) return false;
  const e = u.effects;
  if (e.effect !== "read" || e.inner.length > 0 || e.definedBy.length > 0 || e.chdir.length > 0) return false;
  const uses = e.paths.filter((p) => p.arg === word);
  if (uses.length === 0 || uses.some((p) => p.access !== "read" && p.access !== "list")) return false;
  if (one) return true;
  const at = parseWords(g, argv).parsed.operands.indexOf(word);
  return at >= 0 && at >= g.operands.length - 1;
}

/**
 * `find … -exec CMD … {} +` (or `{} \;`) as the last words of a find that otherwise only walks: CMD gets
 * the names find finds, whole (as `-print0 | xargs -0` gives them), so it is judged as `find … -print0 |
 * xargs -0 CMD …` is: CMD's argv with the found paths in their place, or null when that is not understood.
 * Not `-execdir`/`-ok` (another directory, a question on the terminal), nor a `{}` inside a word.
 */
export function execOverFound(argv: readonly Arg[]): Arg[] | null {
  if (argv[0]?.value !== "find" || argv[0].glob) return null;
  // find's own reading: exactly one command, run here, to the end of the words.
  const u = understand(find, argv);
  if (!u.understood || u.effects.inner.length !== 1 || u.effects.innerElsewhere === true) return null;
  const at = argv.findIndex((a) => a.value === "-exec");
  if (at < 0) return null;
  const last = argv[argv.length - 1]?.value;
  if (last !== "+" && last !== ";") return null;
  const cmd = argv.slice(at + 1, -1);
  // The first `;` or `+` ends the command: a second -exec, or anything after this one, is more than it.
  if (cmd.length < 2 || cmd.length !== u.effects.inner[0]?.length) return null;
  if (cmd.some((a) => a.value === null || a.value === ";" || a.value === "+")) return null;
  if (cmd.some((a) => a.value !== "{}" && (a.value as string).includes("{}"))) return null;
  const found = foundByFind(
    [...argv.slice(0, at), { value: "-print0", raw: "-print0", glob: false, tilde: false }],
    argv
      .slice(0, at)
      .map((a) => a.raw)
      .join(" "),
  );
  if (found === null) return null;
  const word = foundArg(found);
  const marks = cmd.filter((a) => a.value === "{}").length;
  if (last === "+") {
    // find appends the names where `{}` ends the command, as many as fit; it must be the only one.
    if (marks !== 1 || cmd[cmd.length - 1]?.value !== "{}") return null;
    const inner = [...cmd.slice(0, -1), word];
    return readsFound(inner, word, false) ? inner : null;
  }
  if (marks === 0 || cmd[0]?.value === "{}") return null;
  const inner = cmd.map((a) => (a.value === "{}" ? word : a));
  return readsFound(inner, word, true) ? inner : null;
}

/** The walk that covers every file the reader may get: find's tree, as find prints it. */
export function foundWalk(found: FoundPaths): WalkStyle {
  return {
    content: true,
    hidden: true,
    ignoreFiles: false,
    // find prints a symlink's name; the reader opens what it points to.
    follow: true,
    skipVcs: false,
    only: found.name === null ? [] : [found.name],
    ...(found.name === null ? {} : { onlyAnyDot: true as const }),
    ...(found.nul ? {} : { plainNames: true as const }),
    ...(found.split === true ? { globNames: true as const } : {}),
  };
}
