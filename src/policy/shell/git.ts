// git is the program read-only allowlists name most, and "read-only git" can write files
// (log --output), read any file (diff --no-index), run programs (--ext-diff, --textconv,
// -c core.pager=…, grep -O, rebase -x) or open an editor. The tables here say which
// subcommands only read and which options write, run or escape; judgeGit applies them.
import { isDenylistedPath } from "../secret-paths.ts";
import type { Effect } from "./file-programs.ts";
import { configForm } from "./grammar/programs/git-config-forms.ts";
import { isDisplayConfig } from "./grammar/programs/git-config-keys.ts";
import { lookup } from "./lookup.ts";
import type { Arg } from "./wrappers.ts";

export interface GitConcern {
  mention: null;
  reason: string;
}

export interface GitJudgement {
  subcommand: string | null;
  effect: Effect | "run";
  concerns: GitConcern[];
  reads: { arg: Arg; recursive: boolean }[];
  writes: Arg[];
  /** `-C dir` moves git (and the paths it is given) to another directory; null when not static. */
  chdir: Arg[];
  interactive: string | null;
  dynamic: string | null;
}

/**
 * Global options before the subcommand that take the next word as their value (`-C dir`, `-c k=v`). git reads
 * `--exec-path` and `--list-cmds` values only after `=`, and `-C`/`-c` only as a word of their own.
 */
const GLOBAL_VALUES = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
]);

/** Whether a word before git's subcommand takes the next word as its value: the one rule both git judges walk by. */
export function takesGlobalValue(word: string): boolean {
  return GLOBAL_VALUES.has(word);
}

/** Global options that make git read its configuration or programs from somewhere else. */
const GLOBAL_ESCAPES: Readonly<Record<string, string>> = {
  "-c": "sets git configuration for this run (core.pager, core.fsmonitor, alias.* run programs)",
  "--config-env": "sets git configuration from the environment",
  "--exec-path": "runs git's subcommands from another directory",
  "--git-dir": "uses another repository, whose configuration can run programs",
  "--work-tree": "uses another work tree",
};

/** Subcommands that only read (given no option below that writes or runs). */
const READ_ONLY = new Set([
  ...["status", "log", "show", "diff", "blame", "annotate", "shortlog", "describe", "rev-parse"],
  ...["rev-list", "ls-files", "ls-tree", "cat-file", "grep", "whatchanged", "range-diff", "for-each-ref"],
  ...["show-ref", "show-branch", "name-rev", "merge-base", "count-objects", "check-ignore", "check-attr"],
  ...[
    "check-ref-format",
    "check-mailmap",
    "var",
    "version",
    "cherry",
    "diff-tree",
    "diff-files",
    "diff-index",
  ],
  ...[
    "verify-commit",
    "verify-tag",
    "verify-pack",
    "fsck",
    "get-tar-commit-id",
    "ls-remote",
    "help",
    "stripspace",
  ],
]);

/** Subcommands that read only in their listing forms; otherwise they write. */
const LISTING: Readonly<Record<string, (args: readonly string[]) => boolean>> = {
  branch: (a) =>
    a.every((x) =>
      /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--verbose|--show-current|--column|--no-column|--color|--no-color|-i|--ignore-case|--contains|--no-contains|--merged|--no-merged|--sort=.*|--format=.*|--points-at|--abbrev=.*)$/.test(
        x,
      ),
    ) ||
    a.includes("--list") ||
    a.includes("-l"),
  tag: (a) =>
    a.length === 0 || a.includes("-l") || a.includes("--list") || a.every((x) => x.startsWith("-n")),
  remote: (a) =>
    a.length === 0 ||
    a.every((x) => x === "-v" || x === "--verbose") ||
    a[0] === "show" ||
    a[0] === "get-url",
  stash: (a) => a[0] === "list" || a[0] === "show",
  difftool: (a) => toolHelp("difftool", a),
  worktree: (a) => a[0] === "list",
  notes: (a) => a.length === 0 || a[0] === "list" || a[0] === "show",
  reflog: (a) =>
    a.length === 0 || a[0] === "show" || a[0] === "exists" || !["expire", "delete"].includes(a[0] ?? ""),
  config: (a) => {
    if (
      a.some(
        (x) => /^--(get|get-all|get-regexp|get-urlmatch|list|get-color|get-colorbool)$/.test(x) || x === "-l",
      )
    )
      return !a.some(
        (x) =>
          /^--(add|unset|unset-all|replace-all|rename-section|remove-section|edit)$/.test(x) || x === "-e",
      );
    return (
      a.filter((x) => !x.startsWith("-")).length <= 1 &&
      !a.some((x) => /^(--edit|-e|--add|--unset.*|--replace-all|--(rename|remove)-section)$/.test(x))
    );
  },
  "symbolic-ref": (a) => a.filter((x) => !x.startsWith("-")).length <= 1,
  submodule: (a) => a.length === 0 || a[0] === "status" || a[0] === "summary",
  bisect: (a) => a[0] === "log" || a[0] === "visualize" || a[0] === "view",
  apply: (a) =>
    a.includes("--check") || a.includes("--stat") || a.includes("--numstat") || a.includes("--summary"),
  "format-patch": (a) => a.includes("--stdout") && !a.some((x) => /^(-o|--o|--no-s)/.test(x)),
  "interpret-trailers": (a) => !a.some((x) => x.startsWith("--in")),
};

/** Subcommands that throw work away or delete (high risk), in any form. */
const DESTRUCTIVE = new Set([
  "clean",
  "rm",
  "prune",
  "filter-branch",
  "filter-repo",
  "update-ref",
  "replace",
]);

/** Options (any subcommand) that write a file, run a program, or read files anywhere. */
const OPTION_RISKS: Readonly<
  Record<
    string,
    {
      risk: "write" | "exec" | "escape" | "read" | "recursive";
      why: string;
      value?: boolean;
      only?: readonly string[];
    }
  >
> = {
  "--output": { risk: "write", why: "writes the output to the file", value: true },
  "--output-directory": {
    risk: "write",
    why: "writes patches into the directory",
    value: true,
    only: ["format-patch"],
  },
  "-o": { risk: "write", why: "writes patches into the directory", value: true, only: ["format-patch"] },
  "--ext-diff": { risk: "exec", why: "runs the external diff program from the configuration" },
  "--textconv": { risk: "exec", why: "runs the text conversion programs from the configuration" },
  "--filters": { risk: "exec", why: "runs the filter programs from the configuration", only: ["cat-file"] },
  "--open-files-in-pager": { risk: "exec", why: "opens the matches in a pager it runs" },
  "-O": { risk: "exec", why: "opens the matches in a pager it runs", only: ["grep"] },
  "--upload-pack": { risk: "exec", why: "runs the program on the other side", value: true },
  "-u": {
    risk: "exec",
    why: "runs the program as upload-pack",
    value: true,
    only: ["clone", "fetch", "pull", "ls-remote"],
  },
  "--receive-pack": { risk: "exec", why: "runs the program as receive-pack", value: true },
  "--exec": { risk: "exec", why: "runs the command", value: true },
  "-x": { risk: "exec", why: "runs the command after each commit", value: true, only: ["rebase"] },
  "--config": {
    risk: "escape",
    why: "sets configuration (which can run programs) in the new repository",
    value: true,
    only: ["clone"],
  },
  "--template": { risk: "escape", why: "copies hooks from the directory into the repository", value: true },
  "--no-index": { risk: "read", why: "reads the files it is given, anywhere" },
  "--untracked": { risk: "recursive", why: "searches untracked files too", only: ["grep"] },
  "--contents": { risk: "read", why: "reads the file", value: true },
  "-F": {
    risk: "read",
    why: "reads the message from the file",
    value: true,
    only: ["commit", "tag", "merge", "notes"],
  },
  "--file": { risk: "read", why: "reads the file", value: true, only: ["commit", "tag", "merge", "config"] },
  "--pathspec-from-file": { risk: "read", why: "reads paths from the file", value: true },
};

/**
 * `git difftool --tool-help` lists the tools' names (and the configured tools' commands) and runs none:
 * git-mergetool's script checks each with `type` (strace: git, grep, sort, cut, ls, env, sed and gettext ran).
 */
function toolHelp(sub: string, args: readonly string[]): boolean {
  return sub === "difftool" && args.length === 1 && args[0] === "--tool-help";
}

/** Forms that open an editor or a pager with shell escapes. */
function interactive(sub: string, args: readonly string[]): string | null {
  const has = (...xs: string[]) =>
    args.some(
      (a) =>
        xs.includes(a) ||
        xs.some((x) => x.length === 2 && /^-[a-zA-Z]+$/.test(a) && a.includes(x[1] as string)),
    );
  if (["difftool", "mergetool"].includes(sub) && !toolHelp(sub, args))
    return `git ${sub} runs the configured diff or merge tool`;
  if (sub === "help" && args.some((a) => !a.startsWith("-")))
    return "git help opens a manual page in a pager";
  if (
    ["add", "checkout", "reset", "stash", "restore", "clean", "commit"].includes(sub) &&
    (args.includes("-p") || args.includes("--patch") || args.includes("-i") || args.includes("--interactive"))
  )
    return `git ${sub} in interactive mode reads commands from the terminal`;
  if (sub === "rebase" && has("-i", "--interactive")) return "git rebase -i opens an editor";
  if (has("-e", "--edit")) return `git ${sub} --edit opens an editor`;
  if (
    sub === "commit" &&
    !args.some(
      (a) =>
        /^(-m|--message|-F|--file|-C|--reuse-message|--no-edit|--fixup|--squash)(=|$)/.test(a) ||
        /^-[a-zA-Z]*[mFC]/.test(a),
    )
  )
    return "git commit without a message opens an editor";
  if (
    sub === "tag" &&
    has("-a", "-s", "--annotate", "--sign") &&
    !args.some((a) => /^(-m|-F|--message|--file)/.test(a))
  )
    return "git tag -a without a message opens an editor";
  return null;
}

function effectOf(sub: string, args: readonly string[]): Effect | "run" {
  if (READ_ONLY.has(sub)) return "read";
  const listing = lookup(LISTING, sub);
  if (listing?.(args)) return "read";
  if (DESTRUCTIVE.has(sub)) return "destroy";
  if (sub === "reset" && args.includes("--hard")) return "destroy";
  if (
    (sub === "checkout" || sub === "restore") &&
    (args.includes("--") || args.includes("-f") || args.includes("--force") || args.includes("."))
  )
    return "destroy";
  if ((sub === "branch" || sub === "tag") && args.some((a) => /^(-d|-D|--delete)$/.test(a))) return "destroy";
  if (sub === "stash" && ["drop", "clear"].includes(args[0] ?? "")) return "destroy";
  if (
    sub === "push" &&
    args.some(
      (a) =>
        /^(-f|--force|--force-with-lease.*|--delete|-d|--mirror|--prune)$/.test(a) ||
        a.startsWith("+") ||
        a.startsWith(":"),
    )
  )
    return "destroy";
  if (
    [
      "push",
      "send-email",
      "daemon",
      "instaweb",
      "credential",
      "credential-store",
      "credential-cache",
      "svn",
      "p4",
      "lfs",
    ].includes(sub)
  )
    return "run";
  if (
    [
      "add",
      "commit",
      "mv",
      "checkout",
      "switch",
      "restore",
      "reset",
      "merge",
      "rebase",
      "cherry-pick",
      "revert",
      "am",
      "apply",
      "init",
      "stash",
      "gc",
      "repack",
      "fetch",
      "pull",
      "clone",
      "tag",
      "branch",
      "notes",
      "update-index",
      "read-tree",
      "write-tree",
      "commit-tree",
      "hash-object",
      "worktree",
      "sparse-checkout",
      "format-patch",
      "archive",
      "remote",
      "config",
      "symbolic-ref",
      "submodule",
      "bisect",
      "reflog",
      "maintenance",
      "pack-refs",
      "prune-packed",
    ].includes(sub)
  )
    return "write";
  // An alias or a git-<name> program on PATH: anything.
  return "run";
}

export function judgeGit(argv: readonly Arg[]): GitJudgement {
  const out: GitJudgement = {
    subcommand: null,
    effect: "read",
    concerns: [],
    reads: [],
    writes: [],
    chdir: [],
    interactive: null,
    dynamic: null,
  };
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) {
      out.dynamic = `git option ${a.raw} is not static`;
      return out;
    }
    if (!v.startsWith("-")) break;
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    const glued =
      name === "-C" || name === "-c" ? null : v.includes("=") ? v.slice(v.indexOf("=") + 1) : null;
    const takes = takesGlobalValue(v);
    const value = takes ? (argv[i + 1] ?? null) : glued === null ? null : { ...a, value: glued };
    if (takes) i++;
    if (name === "-C") {
      out.chdir.push(value ?? { value: null, raw: "", glob: false, tilde: false });
      continue;
    }
    const why = lookup(GLOBAL_ESCAPES, name);
    const display = name === "-c" && value?.value != null && isDisplayConfig(value.value);
    if (why && !display && !(name === "--exec-path" && value === null))
      out.concerns.push({ mention: null, reason: `git ${name} ${why}` });
    if (name === "-p" || name === "--paginate") out.interactive = "git -p runs a pager with shell escapes";
  }
  const subArg = argv[i];
  if (subArg === undefined) return out;
  if (subArg.value === null) {
    out.dynamic = `git subcommand ${subArg.raw} is not static`;
    return out;
  }
  const sub = subArg.value;
  out.subcommand = sub;
  // `git config list`, `get`, `edit`, … (git 2.46) are judged as the old form of the same request.
  const rest = (sub === "config" ? configForm(argv.slice(i + 1))?.words : undefined) ?? argv.slice(i + 1);
  const restValues = rest.map((r) => r.value);
  if (restValues.includes(null)) {
    out.dynamic = `an argument of git ${sub} is not static (it could be an option that writes or runs)`;
  }
  const args = restValues.filter((x): x is string => x !== null);
  out.effect = effectOf(sub, args);
  out.interactive ??= interactive(sub, args);
  if (sub === "rebase" && args.includes("--exec"))
    out.concerns.push({ mention: null, reason: "git rebase --exec runs the command" });
  if (sub === "bisect" && args[0] === "run")
    out.concerns.push({ mention: null, reason: "git bisect run runs the command" });
  if (sub === "submodule" && args[0] === "foreach")
    out.concerns.push({ mention: null, reason: "git submodule foreach runs the command" });
  if (sub === "filter-branch")
    out.concerns.push({ mention: null, reason: "git filter-branch runs its filters" });
  if (sub === "credential" || sub.startsWith("credential-"))
    out.concerns.push({ mention: null, reason: "git credential prints stored passwords" });
  if (sub === "config" && out.effect !== "read")
    out.concerns.push({
      mention: null,
      reason: "git config can set programs git runs (core.pager, core.fsmonitor, alias.*)",
    });
  let noIndex = false;
  let afterDashes = false;
  const operands: Arg[] = [];
  const pathspecs = new Set<Arg>();
  for (let k = 0; k < rest.length; k++) {
    const a = rest[k] as Arg;
    const v = a.value;
    if (v === null) continue;
    if (afterDashes || !v.startsWith("-") || v === "-") {
      operands.push(a);
      if (afterDashes) pathspecs.add(a);
      continue;
    }
    if (v === "--") {
      afterDashes = true;
      continue;
    }
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    // Unique prefixes of long options count as the option (parse-options accepts `--out=f`),
    // and a short option may carry its value (`-O./pager`).
    const key =
      lookup(OPTION_RISKS, name) !== undefined
        ? name
        : name.startsWith("--") && name.length > 4
          ? Object.keys(OPTION_RISKS).find((k2) => k2.startsWith(name))
          : !name.startsWith("--") && lookup(OPTION_RISKS, name.slice(0, 2)) !== undefined
            ? name.slice(0, 2)
            : undefined;
    const risk = key === undefined ? undefined : lookup(OPTION_RISKS, key);
    if (risk === undefined || key === undefined || (risk.only && !risk.only.includes(sub))) continue;
    let value: Arg | null = null;
    if (risk.value) {
      if (v.includes("=")) value = { ...a, value: v.slice(v.indexOf("=") + 1) };
      else if (key.length === 2 && v.length > 2) value = { ...a, value: v.slice(2) };
      else value = rest[++k] ?? null;
    }
    if (risk.risk === "write")
      out.writes.push(value ?? { value: null, raw: a.raw, glob: false, tilde: false });
    else if (risk.risk === "read") {
      if (key === "--no-index") noIndex = true;
      else
        out.reads.push({
          arg: value ?? { value: null, raw: a.raw, glob: false, tilde: false },
          recursive: false,
        });
    } else if (risk.risk === "recursive")
      out.reads.push({ arg: { value: ".", raw: ".", glob: false, tilde: false }, recursive: true });
    else out.concerns.push({ mention: null, reason: `git ${sub} ${key} ${risk.why}` });
  }
  if (noIndex) {
    if (sub === "grep") for (const p of operands.slice(1)) out.reads.push({ arg: p, recursive: true });
    else for (const p of operands) out.reads.push({ arg: p, recursive: false });
    if (sub === "grep" && operands.length <= 1)
      out.reads.push({ arg: { value: ".", raw: ".", glob: false, tilde: false }, recursive: true });
  }
  if (!noIndex) out.reads.push(...contentReads(sub, rest, operands, pathspecs));
  if (sub === "config" && out.effect === "read" && printsConfigSecrets(args))
    out.reads.push({
      arg: { value: ".git/config", raw: ".git/config", glob: false, tilde: false },
      recursive: false,
    });
  if (out.writes.length > 0 && out.effect === "read") out.effect = "write";
  return out;
}

/**
 * `git config` forms that print the whole configuration or keys that hold tokens (a CI checkout's
 * `http.*.extraheader`, a remote URL with a password): a read of `.git/config`.
 */
function printsConfigSecrets(args: readonly string[]): boolean {
  if (args.some((a) => /^(--list|-l|--get-regexp|--show-origin|--show-scope|--get-urlmatch)$/.test(a)))
    return true;
  return args.some((a) => !a.startsWith("-") && /header|url|credential|token|pass|auth|secret/i.test(a));
}

/** Subcommands that print what files hold (in the work tree, the index or history). */
const SHOWS_CONTENT = new Set([
  ...["show", "cat-file", "diff", "log", "whatchanged", "blame", "annotate", "grep"],
  ...["diff-tree", "diff-index", "diff-files", "archive", "format-patch", "range-diff"],
]);

/**
 * The files a content-showing subcommand prints: the path of each `REV:PATH` (or `:PATH`,
 * `:N:PATH`) operand, and every other operand but grep's pattern, since git takes an operand
 * that names a file as a path (`git log -p .env`, `git show HEAD:.env`, `git blame .env`).
 * A revision read as a path is a harmless read of a name in the work tree.
 */
function contentReads(
  sub: string,
  rest: readonly Arg[],
  operands: readonly Arg[],
  pathspecs: ReadonlySet<Arg>,
): { arg: Arg; recursive: boolean }[] {
  if (!SHOWS_CONTENT.has(sub)) return [];
  const patternGiven = rest.some(
    (a) => a.value !== null && /^(-e|-f|--regexp|--file)(=|$)|^-[a-zA-Z]*[ef]$/.test(a.value),
  );
  const paths = sub === "grep" && !patternGiven ? operands.slice(1) : operands;
  const out: { arg: Arg; recursive: boolean }[] = [];
  for (const a of paths) {
    const v = a.value;
    if (v === null || v === "-" || v.startsWith(":/") || v.startsWith(":!") || v.startsWith(":^")) continue;
    const colon = v.indexOf(":");
    if (colon < 0) {
      if (!pathspecs.has(a) && isRevision(v)) continue;
      out.push({ arg: a, recursive: false });
      continue;
    }
    // `:0:path` names a stage of the index; `rev:path` a file of a commit (relative to the top).
    const path = v.slice(colon + 1).replace(/^[0-3]:/, "");
    if (path !== "") out.push({ arg: { ...a, value: path, glob: false, tilde: false }, recursive: false });
  }
  return out;
}

const REV = String.raw`(?:HEAD|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|[0-9a-f]{7,40})(?:[~^][0-9]*)*`;
const REVISION = new RegExp(`^${REV}(?:\\.{2,3}${REV})?$`);

/**
 * An operand before `--` that only a revision looks like (`HEAD~1`, `HEAD^`, a sha, `A..B` of
 * those): git reads a file of that name only when it is not a revision (both is an "ambiguous
 * argument" error), and no such name is a secret, so it is not judged as a file read. Branch
 * names (`main`) are ordinary file names too and stay reads.
 */
export function isRevision(v: string): boolean {
  return REVISION.test(v) && !isDenylistedPath(v);
}
