// Facts about a call that its text cannot show: what the companion found when it resolved the call's
// paths on the real filesystem (a symlink to a secret, a file with another name, a glob that matches
// `.env`, a walk that reaches one, another git repository), and input fields no mapping understands.
// A fact never lowers a verdict: an allow becomes ask (deny when no person can answer), and the fact is
// the first reason, one line naming the path and why.
import type { WrittenText } from "./package-hooks.ts";
import type { DecisionRecord } from "./types.ts";

export interface CallFact {
  /** The path the fact is about, as the call names it (or the field), when there is one. */
  subject: string | null;
  /** One line a person reads: what is there and why it needs them. */
  reason: string;
  /**
   * Where a path the rules judged by its name really leads (a link outside the workspace): the fact stands
   * unless the rules allow reading this path too, so a link out of a tree a rule allows is judged where it lands.
   */
  unlessReadable?: string;
}

/** How a recursive walk goes, as the program walks. */
export interface WalkStyle {
  /** Reads file contents (grep, rg, diff) rather than only listing names (find, du, tree). */
  content: boolean;
  /** Enters and reads dotfiles and dot-directories. */
  hidden: boolean;
  /** Skips what .gitignore, .ignore and .rgignore exclude (rg's default). */
  ignoreFiles: boolean;
  /** Follows symlinks met below the root. */
  follow: boolean;
  /** Never enters version-control directories (.git, .hg, …). */
  skipVcs: boolean;
  /** Only files whose name (or path, with a `/`) matches one of these globs are read; empty: all. */
  only: readonly string[];
  /** How deep it goes: 1 reads the files directly in the root (`diff DIR1 DIR2`); absent, all the way. */
  depth?: number;
  /** Directories by these names it never enters (node --test skips node_modules). */
  prune?: readonly string[];
  /**
   * The environment variable naming a file of options the program reads before its own words (rg's
   * RIPGREP_CONFIG_PATH, unless --no-config): what the file says widens the walk, and may run programs.
   */
  config?: string;
  /** Files whose base name matches one of these globs are skipped (grep --exclude). */
  exclude?: readonly string[];
  /** Directories whose base name matches one of these globs are not entered (grep --exclude-dir). */
  excludeDirs?: readonly string[];
  /** `only` is find's `-name`: fnmatch without FNM_PERIOD, so `*` matches a leading dot too. */
  onlyAnyDot?: true;
  /**
   * Names reach the reader as xargs splits them (at blanks, honouring quotes and backslashes): any name
   * below the root with a blank, a quote or a backslash splits into words that are other paths or options.
   */
  plainNames?: true;
  /** Names reach the reader as bash splits a `$(…)`: one with a glob character expands to other paths. */
  globNames?: true;
  /**
   * Prints nothing of a file with a NUL byte in the first block it reads (rg and grep without -a, --text
   * or decompression: the file is "binary"), so a compressed file's bytes are not shown (tree-walk.ts).
   */
  binarySilent?: true;
}

/**
 * What a git unit can print without naming a file: `git log -p`, `git show <blob>`, `git diff` print
 * contents of whatever paths their pathspecs (none: all) reach, in the index or in any commit; `git
 * remote -v` prints remote URLs, which may carry a token.
 */
export interface GitPrints {
  /** Pathspecs as written, relative to where git runs; null when it may print any path. */
  pathspecs: string[] | null;
  /** Paths from any commit (revisions, blobs by id), not only the index and work tree. */
  history: boolean;
  /** Remote URLs from the repository's configuration. */
  remotes: boolean;
  /**
   * `git config KEY` (`--get`, `--get-all`): of the configuration it prints only KEY's values, so only
   * those are judged (a token in another key's URL is not printed). Absent: any value, as a listing.
   */
  configKey?: string;
  /**
   * `git config --get-regexp PATTERN`: it prints the entries whose key PATTERN matches (a pattern
   * git-config-keys.ts reads as git does), so only those are judged. Absent: any value, as a listing.
   */
  configPattern?: string;
  /** Operands that are raw object ids (a blob's id prints that blob, whatever file it was). */
  objectIds?: string[];
  /** Files of the work tree (`git diff`, `git grep`): their contents now, not the index's. */
  workTree?: boolean;
  /**
   * `git show` with a names-only format (`--stat`, `--name-only`, `-s`): when each of these revisions
   * is a commit (through tags), it prints names, stats and messages only, no file's contents; a revision
   * that is a blob (`REV:PATH`, a tag of a blob) prints the blob whatever the format.
   */
  onlyCommits?: string[];
  /**
   * `git show REV:PATH …`, every revision a blob named by its path: it prints those files and nothing else
   * of the history, and the disk places each (`topPaths`, or a read of `REV:./PATH`).
   */
  namedBlobs?: true;
  /**
   * It prints only the tracked files whose work tree differs from the index (`git diff` with no revision,
   * no `--cached`): each as the index and the work tree have it.
   */
  changedOnly?: true;
  /**
   * It prints only the tracked files whose index entry differs from HEAD's (`git diff --cached` with no
   * revision): each as HEAD and the index have it, never the work tree.
   */
  stagedOnly?: true;
  /**
   * `git blame FILE` with no revision: it prints FILE's lines as the work tree has them (history only
   * names who wrote each line), so FILE's work-tree copy is what it prints, when there is one.
   */
  blamedFile?: string;
}

/**
 * What a git unit prints (or searches, an oracle as good as printing) besides files' contents: the
 * commit and tag objects' messages and author, committer and tagger lines, and the reflogs' messages
 * and identities (`git log -g`, `git reflog`, `git stash list`).
 */
export interface GitMessages {
  commits: boolean;
  tags: boolean;
  reflogs: boolean;
  /**
   * Only the first `head` commits of HEAD's walk are printed (`git log -3`, `git show -s`); "all": only
   * commits of HEAD's walk, any of them (`git log`, `git blame FILE`), never one a ref or name leads to.
   */
  head?: number | "all";
}

/**
 * What the companion must look at on disk for one canonical call. Paths are absolute; a glob keeps its
 * pattern characters.
 */
export type DiskTarget =
  | {
      kind: "path";
      access: "read" | "write";
      path: string;
      glob: boolean;
      shown: string;
      /** A git pathspec's wildcards, which git matches against its index and history (git-contents.ts). */
      pathspec?: true;
      /**
       * The file an interpreter runs: it must be a file as named. A directory or a name that is not
       * there makes the interpreter look for another one (`DIR/__main__.py`, `DIR/index.js`, the `main`
       * of `DIR/package.json`, `X.js`), which the word never names.
       */
      runs?: true;
      /**
       * A directory there is read file by file, one level (`diff DIR1 DIR2`, `file -m DIR`): every file
       * directly in it, dotfiles too, is judged as read.
       */
      entries?: true;
      /** It must be a file there to open (`exec 3<FILE`): a failed redirection leaves fd 3 as the shell inherited it. */
      opens?: true;
      /** What a write or edit tool puts there, as its input says (package-hooks.ts judges package.json's). */
      writes?: WrittenText;
      /** The write changes the file's mode (chmod), which may make it runnable where PATH looks (path-shadow.ts). */
      modes?: true;
    }
  | {
      /**
       * A tree a copy or move puts at `to` whole (`cp -r tmpl newdir`): each name listed below `from` lands
       * below `to` and is judged as a write there. A glob `from` lands each match under its own name beside
       * `to`'s other matches (`cp -r tmpl/* out` puts `tmpl/a` at `out/a`).
       */
      kind: "copy";
      from: string;
      to: string;
      glob: boolean;
      /** Which links the copy follows into what it copies (cp -L: all, -H: those named). */
      follow: "none" | "args" | "all";
      home: string | null;
      shown: string;
    }
  /**
   * A checksum list `sha256sum -c` reads in `dir` (round 22): each file its lines name is hashed there, and
   * OK or FAILED tells whether a guessed content is what it holds, so each is judged as a read of it.
   */
  | { kind: "checksums"; list: string; dir: string; shown: string }
  /** A GET or HEAD of loopback `port` (curl): which program serves it, and the agent's proxy variables. */
  | { kind: "loopback"; port: number; shown: string }
  /** An archive extracted below `to` (`tar -xf A -C DIR`): each member's name is judged as a write there. */
  | { kind: "extract"; archive: string; to: string; home: string | null; shown: string }
  | {
      kind: "walk";
      root: string;
      style: WalkStyle;
      shown: string;
      /** The root is a glob (`grep -r KEY su?`): each directory it matches is walked. */
      glob?: true;
    }
  /**
   * A glob at the start of a command's word (`*`, `*.md`): the words bash passes are its matches relative
   * to `dir`, and the command is understood only if none of them starts with `-` (an option to it).
   */
  | { kind: "names"; dir: string; pattern: string; shown: string }
  | {
      kind: "git";
      dir: string;
      gitDir: string | null;
      workTree: string | null;
      /** The subcommand may run git inside submodules (status, diff, …), with their configuration. */
      entersSubmodules: boolean;
      /**
       * It shows of each submodule only git's default summary, a commit id and whether it is dirty (`git
       * status`, `git diff`; no word naming submodules, no `GIT_…` prefix): a plain submodule is then judged
       * by its own repository, not asked about for being there.
       */
      plainSubmodules?: true;
      /** It prints the notes attached to the commits it shows (`git log`, `git show`, `--notes`). */
      printsNotes?: true;
      /** It may run the clean filters the files' attributes select (`git status`, git-filters.ts). */
      runsFilters?: true;
      /** It opens a help page (`git help NAME`), in the viewer the configuration may name (git-help-viewer.ts). */
      opensHelp?: true;
      /** What it prints of commit and tag objects and of the reflogs (git-messages.ts); absent: neither. */
      printsMessages?: GitMessages;
      /** What it can print the contents of (files as the index or history has them, remote URLs); null: names only. */
      prints: GitPrints | null;
      /**
       * Paths of `REV:PATH`, `:PATH` and `:N:PATH` operands: git reads them from the top of the work tree,
       * not from where it runs (only `REV:./PATH` and `REV:../PATH` are), so the disk places them there.
       */
      topPaths?: string[];
      /** `git verify-pack`: the packs (absolute) it reads, which must be the workspace's own repository's (git-packs.ts). */
      packs?: string[];
      /** `git apply --check`: the patch files (absolute) whose named files it reads line by line (git-patches.ts). */
      patches?: { files: string[]; strip: number };
      shown: string;
    }
  | { kind: "cd"; dir: string; shown: string }
  /**
   * A directory a listing program prints the names of (`ls keys`, `cd keys; ls`): one that is a link into a
   * secret directory lists that directory's names, as `ls ~/.ssh` would (red team, round 15).
   */
  | {
      kind: "listing";
      dir: string;
      shown: string;
      /**
       * The glob the names come from, when `dir` is only its fixed start (`~/.s*h/*`): each directory it
       * matches names in is listed, and each match itself when the program lists it (`lists`: `ls ~/.ss*`).
       */
      pattern?: string;
      lists?: true;
      /** It walks the names below `dir` (`find`, `ls -R`): one whose real start is HOME or above asks. */
      walks?: true;
    }
  /**
   * npm (or npx) run in `dir`: its configuration (the project's and the user's `.npmrc`, `npm_config_*`
   * variables) may move where it writes (`logs-dir`, `cache`, `prefix`) or run code (`script-shell`,
   * `node-options`): the disk says whether any key does (red team, round 10).
   */
  | { kind: "npm-config"; dir: string; shown: string }
  /**
   * npm loading the project's tree from `dir` (`npm ls`, `outdated`, `explain`, …): it reads every
   * workspace member's and installed package's package.json and prints one it cannot parse (round 12).
   */
  | { kind: "npm-tree"; dir: string; shown: string }
  /**
   * A program that may be a toolchain manager's proxy (rustup's `rustc`, `cargo`): a file by one of
   * `names` in `dir` or any directory above picks which program really runs (rust-toolchain.toml's
   * `path` runs any directory's binary; a channel not installed is downloaded). Its presence is a fact.
   */
  | {
      kind: "picker";
      dir: string;
      names: readonly string[];
      /** Only a file whose text matches this (a regular expression's source) picks: go.mod's `toolchain` line. */
      contains?: string;
      /** What such a file makes it run, after its name (rustup's and go's toolchain when absent). */
      picks?: string;
      /**
       * Only while the program PATH finds for this name is a shim whose real path holds `holds` (corepack's
       * npm shim: a plain npm does not read packageManager).
       */
      shim?: { program: string; holds: string };
      shown: string;
    }
  /**
   * A program run in `dir`, which a version manager's shim may be (pyenv, asdf, mise, nodenv, rbenv,
   * rustup): the shim reads a version file by one of `names` in `dir` or any directory above and prints a
   * word it rejects. Such a file that is a link out of the workspace or onto a secret (or a hard link)
   * would print what it points at (red team, round 11).
   */
  | { kind: "version-file"; dir: string; names: readonly string[]; shown: string }
  /**
   * A program `npx` runs by its bare name: the project's own bin, an installed one (node_modules/.bin here
   * or above, the global bin), or, when none has it, the registry package of that name, downloaded.
   */
  | { kind: "npx"; dir: string; name: string; shown: string }
  /**
   * A runner that looks for the file defining what it runs in `dir` and every directory above (npm's and
   * `node --run`'s package.json, Cargo.toml, go.mod, pytest's rootdir files): the nearest one out of the
   * workspace runs code from outside it.
   */
  | { kind: "upward"; dir: string; names: readonly string[]; shown: string }
  /**
   * A runner running project code: the directory it runs in and the paths its words name (a test file, a
   * `make -C` directory). One whose real path leads out of the workspace runs another project's code
   * (red team, round 14: `ext -> ../other-checkout`, then `cd ext && npm test` or `pytest ext/test_x.py`).
   */
  | { kind: "runner-paths"; paths: readonly { path: string; glob: boolean }[]; shown: string }
  /**
   * A linter run in `dir` (biome, ruff): its configuration files, nested and above, and every path they
   * name (an `extends` out of the workspace made biome print ~/.netrc: red team, round 20, r20-s05).
   */
  | { kind: "linter-config"; linter: string; dir: string; shown: string }
  /**
   * The go command loading packages in `dir` (`go list`, `go doc`, `go fmt`; `go build`, `test`, `vet`,
   * `run`, `install`): modules go.mod requires that are not in the module cache are downloaded (red team,
   * round 12; fix15e). `walk`: the main module's .go files are parsed and quoted back (the nearest go.mod's
   * directory, walked), for the listers; a builder runs the project's code, judged as such.
   */
  | { kind: "go-module"; dir: string; walk: boolean; shown: string }
  /**
   * A cargo command run in `dir` that loads the workspace (`cargo metadata --no-deps` too): the manifests of
   * its members and path dependencies, which cargo prints and quotes (red team, round 16).
   */
  | { kind: "cargo-workspace"; dir: string; shown: string }
  /** Any go command run in `dir`: a go.work/go.mod `go` line newer than the installed go downloads that release. */
  | { kind: "go-release"; dir: string; shown: string }
  /**
   * A unit run in `dir`: NODE_OPTIONS or NODE_PATH in the agent's environment may lead node to a project file,
   * when the unit starts node (`known`: by its name; otherwise when `program` is a node script on disk).
   */
  | { kind: "node-env"; dir: string; program: string; known: boolean; shown: string }
  /**
   * python (or pip) started in `dir` to run a module of its own (`python3 -m json.tool`, `pip list`): what its
   * start-up loads and, for `module` (null when the directory is not first on sys.path), which file python
   * imports for it and the standard library (guards/python-path.ts).
   */
  | { kind: "python-start"; dir: string; program: string; module: string | null; shown: string }
  /**
   * `git ls-files | xargs CMD`: CMD reads every file git's index names below `dir`, as xargs passes the names
   * (split at blanks and quotes without `nul`), or `CMD $(git ls-files)` as bash splits and globs them
   * (`split`); `top`: the names are relative to the work tree's top (`git diff --name-only`):
   * guards/tracked-reads.ts.
   */
  | { kind: "tracked"; dir: string; nul: boolean; split?: true; top?: true; shown: string }
  /** `man NAME`: where its manual path leads, from the agent's environment (guards/man-path.ts). */
  | { kind: "man-path"; shown: string }
  /** `java`: the JVM options the agent's environment adds, agents among them (guards/jvm-options.ts). */
  | { kind: "jvm-env"; shown: string }
  /**
   * A program run by its bare name (`ls`, `git`): bash finds the file in the agent's PATH, in order. An
   * entry inside the workspace, or a relative one (from `dir`, null when not known), may hold a project
   * file of that name; `written`: paths the command's earlier units write, which may put one there.
   */
  | { kind: "program"; name: string; dir: string | null; written: readonly string[]; shown: string }
  /**
   * A shell call: the shell itself and every program it starts load what the agent's environment names
   * for every process (BASH_ENV, LD_PRELOAD, LD_LIBRARY_PATH: policy/env-loads.ts), whatever the command.
   */
  | { kind: "shell-start"; shown: string }
  /** `program`, which runs what a loading variable of the agent's environment names (env-loads.ts `runBy`) when it runs. */
  | { kind: "env-runs"; program: string; shown: string }
  | { kind: "unknown"; shown: string; reason: string };

/**
 * The companion's look at the disk: the facts that make a call need a person (none when all is well).
 * `workspace` is the session's directory when the call runs elsewhere (a Codex `workdir`): the
 * workspace and its repository stay the session's, and a workdir leading out of it is a fact.
 */
export type DiskCheck = (targets: readonly DiskTarget[], callCwd: string, workspace?: string) => CallFact[];

export function factLine(fact: CallFact): string {
  return fact.subject === null ? fact.reason : `\`${fact.subject}\`: ${fact.reason}`;
}

/** A record raised by facts: allow → ask (deny headless), the facts first among the reasons. */
export function raiseForFacts(
  record: DecisionRecord,
  facts: readonly CallFact[],
  hasUI: boolean,
): DecisionRecord {
  if (facts.length === 0) return record;
  const lines = facts.map(factLine);
  const reasons = [...lines, ...record.reasons];
  if (record.action !== "allow") return { ...record, reasons };
  const why = `${lines[0]}, so it is never allowed without a person`;
  return hasUI
    ? { ...record, action: "ask", reasons: [why, ...reasons.slice(1)] }
    : {
        ...record,
        action: "deny",
        reasons: [why, ...reasons.slice(1), "no one can answer (headless), so it is denied"],
        headless: true,
      };
}
