// git (2.39): global options, then a read-only subcommand placed by its own options
// (git-options.ts) and operands: revisions, `REV:PATH` blobs and pathspecs (pathspec.ts). What a
// subcommand prints the contents of is a read of each path it names (a pathspec that could
// match a secret is judged as that glob); with no path it reads the whole tree (a walk of `.` as
// git's index and history have it). -c, --git-dir, --work-tree, --exec-path=, -p and any
// subcommand not listed here (the writing ones, aliases, git-<name> programs) are not understood.
import { climbsAfterName } from "../../../paths.ts";
import { isRevision } from "../../git.ts";
import type { Arg } from "../../wrappers.ts";
import { DOT, raise } from "../effects.ts";
import { emptyEffects, parseWords, pathEffect } from "../parse.ts";
import { parsePathspec } from "../pathspec.ts";
import {
  type Effects,
  flag,
  type NotUnderstood,
  type OptionSpec,
  type Parsed,
  type ProgramGrammar,
  type Understanding,
} from "../spec.ts";
import { configForm } from "./git-config-forms.ts";
import { isDisplayConfig, isUrlConfigKey, patternMayPrintCredential } from "./git-config-keys.ts";
import {
  applyForm,
  cleanForm,
  difftoolForm,
  formatPatchForm,
  helpPage,
  remoteShowForm,
  subcommandForm,
  verifyPackForm,
} from "./git-forms.ts";
import {
  APPLY_OPTIONS,
  BLAME_OPTIONS,
  CAT_FILE_OPTIONS,
  CLEAN_OPTIONS,
  CONFIG_READ_OPTIONS,
  DESCRIBE_OPTIONS,
  DIFF_OPTIONS,
  FOR_EACH_REF_OPTIONS,
  GREP_OPTIONS,
  HASH_OBJECT_OPTIONS,
  HELP_OPTIONS,
  LISTING_REF_OPTIONS,
  LOG_OPTIONS,
  LS_FILES_OPTIONS,
  LS_TREE_OPTIONS,
  MISC_OPTIONS,
  REV_PARSE_OPTIONS,
  SHORTLOG_OPTIONS,
  SHOW_REF_OPTIONS,
  STATUS_OPTIONS,
} from "./git-options.ts";
import {
  FORMAT_PATCH_OPTIONS,
  INTERPRET_TRAILERS_OPTIONS,
  RANGE_DIFF_OPTIONS,
  STRIPSPACE_OPTIONS,
} from "./git-print-options.ts";

type Operands =
  | "none"
  | "revs-paths"
  | "paths"
  | "names"
  | "blame"
  | "grep"
  | "cat-file"
  | "refs"
  | "ls-tree"
  | "config"
  | "var"
  | "files";

interface Subcommand {
  options: readonly OptionSpec[];
  operands: Operands;
  /** It prints what the files hold (a read), not only their names. */
  content: boolean;
  /**
   * Its options end at the first operand (parse-options' STOP_AT_NON_OPTION): `git config KEY --get`
   * sets KEY to "--get" (red team, round 5), `git grep PATTERN -n` refuses the late option.
   */
  stopsAtOperand?: true;
}

const sub = (options: readonly OptionSpec[], operands: Operands, content: boolean): Subcommand => ({
  options,
  operands,
  content,
});

export const GIT_SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  log: sub(LOG_OPTIONS, "revs-paths", true),
  whatchanged: sub(LOG_OPTIONS, "revs-paths", true),
  show: sub(LOG_OPTIONS, "revs-paths", true),
  "rev-list": sub(LOG_OPTIONS, "revs-paths", false),
  shortlog: sub(SHORTLOG_OPTIONS, "revs-paths", false),
  diff: sub(DIFF_OPTIONS, "revs-paths", true),
  "diff-tree": sub([...DIFF_OPTIONS, ...LOG_OPTIONS], "revs-paths", true),
  "diff-index": sub(DIFF_OPTIONS, "revs-paths", true),
  "diff-files": sub(DIFF_OPTIONS, "paths", true),
  blame: sub(BLAME_OPTIONS, "blame", true),
  annotate: sub(BLAME_OPTIONS, "blame", true),
  status: sub(STATUS_OPTIONS, "paths", false),
  "ls-files": sub(LS_FILES_OPTIONS, "paths", false),
  "ls-tree": sub(LS_TREE_OPTIONS, "ls-tree", false),
  grep: { ...sub(GREP_OPTIONS, "grep", true), stopsAtOperand: true },
  "cat-file": sub(CAT_FILE_OPTIONS, "cat-file", true),
  branch: sub(LISTING_REF_OPTIONS, "refs", false),
  tag: sub(LISTING_REF_OPTIONS, "refs", false),
  "rev-parse": sub(REV_PARSE_OPTIONS, "names", false),
  describe: sub(DESCRIBE_OPTIONS, "names", false),
  "show-ref": sub(SHOW_REF_OPTIONS, "names", false),
  "for-each-ref": sub(FOR_EACH_REF_OPTIONS, "names", false),
  config: { ...sub(CONFIG_READ_OPTIONS, "config", false), stopsAtOperand: true },
  var: sub([flag("-l")], "var", false),
  "stash list": sub(LOG_OPTIONS, "names", false),
  "stash show": sub(DIFF_OPTIONS, "names", true),
  remote: sub([flag("-v --verbose")], "none", false),
  // git reflog [show] takes the log's options (it is `git log -g`); expire/delete/exists: git-forms.ts.
  reflog: sub(LOG_OPTIONS, "revs-paths", true),
  "reflog show": sub(LOG_OPTIONS, "revs-paths", true),
  // `git notes` alone lists; `list [OBJECT]` lists one; every other form (add, edit, copy…) writes.
  notes: sub([], "none", false),
  "notes list": sub([], "names", false),
  help: sub(HELP_OPTIONS, "none", false),
  // Lists the untracked files it would remove (names only); their walk is added below.
  clean: sub(CLEAN_OPTIONS, "paths", false),
  // Object ids, types and sizes of the own repository's packs (git-forms.ts verifyPackForm, guards/git-packs.ts).
  "verify-pack": sub([flag("-v --verbose"), flag("-s --stat-only")], "names", false),
  // Only `--tool-help` (git-forms.ts difftoolForm): the tools' names; every other form runs one.
  difftool: sub([flag("--tool-help")], "none", false),
  // `git submodule [status]` runs git in each submodule's repository: the companion asks whenever the
  // repository has one (nested-repos.ts); every other form (update, foreach, add, sync…) is not understood.
  submodule: sub([], "none", false),
  "submodule status": sub([flag("--cached"), flag("--recursive"), flag("-q --quiet")], "names", false),
  "remote get-url": sub([flag("--push"), flag("--all")], "names", false),
  // Only with -n (git-forms.ts remoteShowForm): the remotes' URLs and branches as the configuration has them.
  "remote show": sub([flag("-n")], "names", false),
  "worktree list": sub([flag("--porcelain"), flag("-v --verbose"), flag("-z")], "none", false),
  // Plain files, not pathspecs: the blob to hash, the patch to check (git-forms.ts applyForm).
  "hash-object": sub(HASH_OBJECT_OPTIONS, "files", true),
  apply: sub(APPLY_OPTIONS, "files", true),
  // Text built from history or a file, printed (git-print-options.ts); format-patch only with --stdout.
  "range-diff": sub(RANGE_DIFF_OPTIONS, "revs-paths", true),
  "format-patch": sub(FORMAT_PATCH_OPTIONS, "revs-paths", true),
  stripspace: sub(STRIPSPACE_OPTIONS, "none", false),
  "interpret-trailers": sub(INTERPRET_TRAILERS_OPTIONS, "files", true),
  ...Object.fromEntries(Object.entries(MISC_OPTIONS).map(([k, o]) => [k, sub(o, "names", false)])),
};

/** Subcommands read-only only in these two-word forms. */
const TWO_WORDS = new Set([
  ...["stash list", "stash show", "remote get-url", "worktree list", "reflog show", "notes list"],
  ...["submodule status", "remote show"],
]);

/** Global options that only tune output or pathspecs. */
const GLOBAL_FLAGS = new Set([
  ...[
    "-P",
    "--no-pager",
    "--no-replace-objects",
    "--literal-pathspecs",
    "--glob-pathspecs",
    "--noglob-pathspecs",
  ],
  ...[
    "--icase-pathspecs",
    "--no-optional-locks",
    "--version",
    "--help",
    "--html-path",
    "--man-path",
    "--info-path",
  ],
  "--exec-path",
]);
const GLOBAL_REFUSED: Readonly<Record<string, string>> = {
  "-c": "sets git configuration for this run (core.pager, core.fsmonitor and alias.* run programs)",
  "--config-env": "sets git configuration from the environment",
  "--git-dir": "uses another repository, whose configuration can run programs",
  "--work-tree": "uses another work tree",
  "--namespace": "uses another ref namespace",
  "--super-prefix": "is internal to git",
  "--bare": "treats the directory as a bare repository",
  "-p": "runs a pager, which has shell escapes",
  "--paginate": "runs a pager, which has shell escapes",
  "--list-cmds": "is internal to git",
};

/** Subcommands that write, or reach a remote, unless their options say otherwise (git-forms.ts). */
const PARSED_FORMS: Readonly<Record<string, (p: Parsed) => NotUnderstood | null>> = {
  clean: cleanForm,
  difftool: difftoolForm,
  "verify-pack": verifyPackForm,
  apply: applyForm,
  "format-patch": formatPatchForm,
  "remote show": remoteShowForm,
};

const grammars = new Map<string, ProgramGrammar>();
function grammarOf(name: string, s: Subcommand): ProgramGrammar {
  let g = grammars.get(name);
  if (g === undefined) {
    g = {
      names: [name],
      options: s.options,
      permute: s.stopsAtOperand !== true,
      abbreviate: true,
      negatable: true,
      operands: ["string"],
      effect: "read",
      ...(name === "log" ||
      name === "show" ||
      name === "whatchanged" ||
      name === "shortlog" ||
      name === "rev-list" ||
      name === "reflog" ||
      name === "reflog show" ||
      name === "format-patch"
        ? { numeric: { names: ["-n"], value: "required" as const, kind: "number" as const } }
        : {}),
    };
    grammars.set(name, g);
  }
  return g;
}

function refuse(out: Effects, word: string, reason: string): Understanding {
  return { understood: false, why: { word, reason }, effects: out };
}

export function judgeGitGrammar(argv: readonly Arg[]): Understanding {
  const out = emptyEffects("read");
  const mode = { literal: false, glob: false, icase: false };
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) return refuse(out, a.raw, "it is only known at run time, so it could be any git option");
    if (!v.startsWith("-")) break;
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    // `-c color.ui=never`: a setting that only changes how git prints (git-config-keys.ts).
    const setting = argv[i + 1]?.value;
    if (v === "-c" && setting !== null && setting !== undefined && isDisplayConfig(setting)) {
      i++;
      continue;
    }
    const refused = GLOBAL_REFUSED[name];
    if (refused !== undefined && Object.hasOwn(GLOBAL_REFUSED, name))
      return refuse(out, a.raw, `git ${name} ${refused}`);
    if (name === "-C") {
      const dir = argv[++i];
      if (dir === undefined) return refuse(out, a.raw, "-C needs a directory");
      // chdir() is physical: `git -C link/..` goes to the parent of the link's target (round 12).
      if (dir.value !== null && climbsAfterName(dir.value))
        return refuse(
          out,
          dir.raw,
          "-C climbs with `..` after a directory name, which chdir() resolves through links",
        );
      out.chdir.push(dir);
      continue;
    }
    if (name === "--exec-path" && v.includes("="))
      return refuse(out, a.raw, "git --exec-path= runs git's subcommands from another directory");
    if (!GLOBAL_FLAGS.has(name)) return refuse(out, a.raw, `unknown git option ${name}`);
    if (name === "--literal-pathspecs" || name === "--noglob-pathspecs") mode.literal = true;
    if (name === "--glob-pathspecs") mode.glob = true;
    if (name === "--icase-pathspecs") mode.icase = true;
  }
  const subArg = argv[i];
  if (subArg === undefined) return { understood: true, effects: out };

  if (subArg.value === null) return refuse(out, subArg.raw, "the git subcommand is only known at run time");
  const second = argv[i + 1]?.value;
  const name = TWO_WORDS.has(`${subArg.value} ${second}`) ? `${subArg.value} ${second}` : subArg.value;
  const s = GIT_SUBCOMMANDS[name];
  if (s === undefined || !Object.hasOwn(GIT_SUBCOMMANDS, name))
    return refuse(
      out,
      subArg.raw,
      `git ${name} is not a read-only subcommand this engine understands (it may write, or run an alias or a git-${name} program)`,
    );
  const listing = subcommandForm(name, argv.slice(i + 1));
  if (listing !== null) return refuse(out, listing.word, listing.reason);
  const start = name.includes(" ") ? i + 2 : i + 1;
  // `git config list`, `get`, `set`, … (git 2.46): judged as the old form of the same request.
  const form = name === "config" ? configForm(argv.slice(start)) : null;
  if (form?.refusal) return refuse(out, form.refusal.word, form.refusal.reason);
  const words = form === null ? argv : [...argv.slice(0, start), ...form.words];
  const { parsed, failure } = parseWords(grammarOf(name, s), words, start);
  if (failure !== null) return refuse(out, failure.word, failure.reason);
  const formCheck = Object.hasOwn(PARSED_FORMS, name) ? PARSED_FORMS[name] : undefined;
  const why = formCheck?.(parsed) ?? place(name, s, parsed, out, mode);
  if (why !== null) return refuse(out, why.word, why.reason);
  if (name === "clean") out.paths.push(pathEffect("walk", DOT, { contents: false, follow: "none" }));
  // Forms that compare the work tree with the index read the files' contents (and refresh the index).
  const refreshes =
    name === "status" ||
    parsed.has("--dirty") ||
    parsed.has("--broken") ||
    (name === "ls-files" && (parsed.has("-m") || parsed.has("--eol")));
  repository(out, name, refreshes);
  return { understood: true, effects: out };
}

const GIT_DIR: Arg = Object.freeze({ value: ".git", raw: "<repository>", glob: false, tilde: false });

/**
 * Every subcommand reads its repository (HEAD, refs, objects, config, info/exclude); those that
 * look at the work tree refresh the index (`git status` writes `.git/index` unless
 * --no-optional-locks).
 */
function repository(out: Effects, name: string, refreshes: boolean): void {
  out.paths.push(pathEffect("walk", GIT_DIR, { contents: true, follow: "none", repository: true }));
  if (
    refreshes ||
    ["diff", "diff-files", "diff-index", "blame", "annotate", "grep", "stash show"].includes(name)
  )
    out.paths.push(
      pathEffect("write", { ...GIT_DIR, value: ".git/index*", glob: true }, { repository: true }),
    );
  // Refreshing the index hashes every tracked file whose stat information cannot tell (racy git),
  // whatever the pathspec: the whole work tree's contents, as git's index has it.
  if (refreshes) out.paths.push(pathEffect("walk", DOT, { contents: true, follow: "none", pathspec: true }));
}

function place(
  name: string,
  s: Subcommand,
  p: Parsed,
  out: Effects,
  mode: { literal: boolean; glob: boolean; icase: boolean },
): NotUnderstood | null {
  const runs = p.options.find((o) => o.spec.mode === "runs" || (o.spec.kind === "exec" && name === "grep"));
  if (runs !== undefined)
    return { word: runs.word.raw, reason: `git ${name} ${runs.name} runs programs from the configuration` };
  // A format's signature placeholders (`%G?`, `%GS`, `%GK`, `%GG`, for-each-ref's `%(signature…)`) make git
  // verify each signature as --show-signature does: it runs gpg.program, which reads GNUPGHOME's gpg.conf
  // and starts its agents (red team, round 12).
  const signed = p.options.find(
    (o) =>
      /^--(format|pretty)$/.test(o.name) &&
      (o.value?.value === null || /%G|%\(signature/.test(o.value?.value ?? "")),
  );
  if (signed !== undefined)
    return {
      word: signed.word.raw,
      reason: `git ${name} ${signed.name} with signature placeholders runs gpg to verify them`,
    };
  for (const o of p.options) {
    if (o.value === null) continue;
    const kind = o.spec.kind;
    if (kind === "read" || kind === "write" || kind === "list") out.paths.push(pathEffect(kind, o.value));
    if (kind === "write") raise(out, "write");
  }
  for (const range of p.values("line-range")) {
    const v = range.value ?? "";
    const colon = v.lastIndexOf(":");
    if (colon < 0) continue; // `git blame -L 1,5 FILE`: the file is an operand
    out.paths.push(pathEffect("read", { ...range, value: v.slice(colon + 1), glob: false, tilde: false }));
  }
  const noIndex = p.has("no-index");
  const ops = p.operands;
  if (noIndex) {
    // Plain files and directories anywhere, not pathspecs; directories are compared or searched recursively.
    const files = name === "grep" && !p.has("pattern") ? ops.slice(1) : ops;
    for (const f of files.length > 0 ? files : name === "grep" ? [DOT] : [])
      out.paths.push(pathEffect("walk", f, { contents: true, follow: "all" }));
    return null;
  }
  if (p.has("untracked"))
    out.paths.push(pathEffect("walk", DOT, { contents: true, follow: "none", ignores: true }));
  const access = s.content ? "read" : "list";
  const paths: Arg[] = [];
  switch (s.operands) {
    case "names":
      return null;
    case "none":
      // With a listing option (-a, -g, -c, …) git refuses a page name.
      if (name === "help" && ops.length === 1 && p.options.length === 0) return helpPage(ops[0] as Arg, out);
      return ops[0] === undefined
        ? null
        : {
            word: ops[0].raw,
            reason:
              name === "help"
                ? "git help takes one page name"
                : `git ${name} takes no operand here (with one it changes the repository)`,
          };
    case "config":
      return config(p, out);
    case "var":
      // `git var -l` lists every configuration variable after the logical ones (red team, round 5).
      if (p.has("-l")) printsConfiguration(out);
      return null;
    case "refs":
      return null;
    case "files":
      for (const o of ops) out.paths.push(pathEffect("read", o));
      return null;
    case "ls-tree":
      paths.push(...ops.slice(1));
      break;
    case "paths":
      paths.push(...ops);
      break;
    case "blame": {
      const file = ops[ops.length - 1];
      if (file !== undefined) out.paths.push(pathEffect("read", file));
      return null;
    }
    case "cat-file": {
      // The content batches print the objects whose ids come on standard input (or every object): ids the
      // text does not name, dangling blobs of a once-staged .env among them (red team, round 10).
      const batch = p.options.find((o) => o.name === "--batch" || o.name === "--batch-command");
      if (batch !== undefined)
        return {
          word: batch.word.raw,
          reason: `git cat-file ${batch.name} prints objects the command does not name (their ids come on standard input, or every object), which may be a file no history names`,
        };
      for (const o of ops) blob(o, out);
      return null;
    }
    case "grep":
    case "revs-paths": {
      const candidates = s.operands === "grep" && !p.has("pattern") ? ops.slice(1) : ops;
      const before = s.operands === "grep" && !p.has("pattern") ? p.beforeDashes - 1 : p.beforeDashes;
      candidates.forEach((o, k) => {
        const v = o.value ?? "";
        const rev = k < before;
        if (rev && ((v.includes(":") && !v.startsWith(":")) || /^:[0-3]:/.test(v))) blob(o, out);
        else if (!(rev && isRevision(v))) paths.push(o);
      });
      break;
    }
  }
  const placed: Arg[] = [];
  for (const a of paths) {
    const spec = parsePathspec(a, mode);
    if (spec.kind === "refused") return { word: a.raw, reason: spec.reason };
    if (spec.kind === "exclude") continue;
    placed.push(spec.arg);
  }
  // A pathspec names a path and everything below it that matches: the path is what rules judge,
  // the walk below it is the resolver's (against the index and history).
  for (const a of placed) {
    out.paths.push(pathEffect(access, a, { pathspec: true }));
    out.paths.push(pathEffect("walk", a, { contents: s.content, follow: "none", pathspec: true }));
  }
  // No path (or only exclusions): the whole tree as git has it.
  if (placed.length === 0)
    out.paths.push(pathEffect("walk", DOT, { contents: s.content, pathspec: true, follow: "none" }));
  return null;
}

/** `REV:PATH`, `:PATH`, `:N:PATH`: a file as a commit or the index has it (relative to the top, or `./` to here). */
function blob(o: Arg, out: Effects): NotUnderstood | null {
  const v = o.value;
  if (v === null) {
    out.paths.push(pathEffect("read", o));
    return null;
  }
  const colon = v.indexOf(":");
  if (colon < 0) return null;
  const path = v.slice(colon + 1).replace(/^[0-3]:/, "");
  if (path !== "")
    out.paths.push(pathEffect("read", { ...o, value: path, glob: false, tilde: false }, { pathspec: true }));
  return null;
}

/** `git config` read forms; the whole configuration or keys that hold tokens are a read of `.git/config`. */
function config(p: Parsed, out: Effects): NotUnderstood | null {
  const gets = p.options.some((o) => /^--get|^-l$|^--list$/.test(o.name));
  const keys = p.operands;
  if (
    keys.length > (p.has("--get-regexp") || p.has("--get-all") || p.has("--get") ? 2 : 1) ||
    (!gets && keys.length !== 1 && !p.has("--list") && !p.has("-l"))
  )
    return {
      word: keys[1]?.raw ?? keys[0]?.raw ?? "config",
      reason: "git config with a value sets it (and configuration can run programs)",
    };
  // `--get-regexp PATTERN` prints the keys PATTERN matches: wide when they may be a credential's by name.
  const wide =
    p.has("-l") ||
    p.has("--list") ||
    (p.has("--get-regexp") && patternMayPrintCredential(keys[0]?.value ?? null)) ||
    p.has("--get-urlmatch") ||
    p.has("--show-origin");
  // A URL key's value is checked on disk for user-info (git-config-keys.ts), unless it comes from a file
  // named here (`-f`, `--blob`), whose reading is judged as a read of that file and says nothing of it.
  const fromFile = p.has("-f") || p.has("--blob");
  const secretKey = (p.has("--get-regexp") ? [] : keys).some(
    (k) =>
      /header|url|credential|token|pass|auth|secret|proxy/i.test(k.value ?? "x") &&
      (fromFile || k.value === null || !isUrlConfigKey(k.value)),
  );
  if (wide || secretKey) printsConfiguration(out);
  return null;
}

/**
 * A subcommand that prints configuration values (`git config -l`, `git var -l`): remote URLs with tokens,
 * extra headers. One rule for every such form: it is a read of the repository's configuration, a secret.
 */
function printsConfiguration(out: Effects): void {
  out.paths.push(pathEffect("read", { value: ".git/config", raw: ".git/config", glob: false, tilde: false }));
}

export const git: ProgramGrammar = {
  names: ["git"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgeGitGrammar,
};
