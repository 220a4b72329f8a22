// The companion's look at the disk for one decision: every target the policy derived from the call
// (files, globs, walks, `cd` directories, git's repository discovery, rust-toolchain files) resolved on
// the real filesystem now, as the command would meet it. It answers with facts that make the call need
// a person; none means the text told the truth. Used by the hook, the daemon and `airlock policy explain` alike.
import { lstatSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CallFact, DiskCheck, DiskTarget } from "../../policy/call-facts.ts";
import { isGitMetadataPath, KEY_SCAN_MAX_BYTES } from "../../policy/secret-families.ts";
import { isDenylistedPath, isProtectedWritePath, secretFamilyOf } from "../../policy/secret-paths.ts";
import { GO_WALK, WIDEST } from "../../policy/walk-styles.ts";
import { expandGlob } from "./bash-glob.ts";
import { readOnlyHook, repositoryProgram } from "./git-config-programs.ts";
import { gitContentsFact } from "./git-contents.ts";
import { gitDirFile, gitDirHolding } from "./git-dir-files.ts";
import {
  discoverRepository,
  foreignGitFile,
  looksLikeGitDir,
  type Repository,
  repositoryAt,
} from "./git-discovery.ts";
import { gitMessagesFact } from "./git-messages.ts";
import { notesReason } from "./git-notes.ts";
import { rawObjectStore } from "./git-raw-objects.ts";
import { repositoryStateFact } from "./git-state-files.ts";
import { unnamedObjectFact } from "./git-unnamed.ts";
import { goModuleFacts, goReleaseFact } from "./go-module.ts";
import { PACKED_REASON, scanFile } from "./key-scan.ts";
import { manPathFact } from "./man-path.ts";
import { nestedRepositoryFact } from "./nested-repos.ts";
import { nodePreloadFact } from "./node-preload.ts";
import { npmConfigFact } from "./npm-config.ts";
import { npmTreeFact } from "./npm-tree.ts";
import { npxFact } from "./npx-bin.ts";
import { type PathView, pathView, programFact } from "./path-lookup.ts";
import { pythonStartFact } from "./python-path.ts";
import { virtualenvHolding } from "./python-venv.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { withConfig } from "./rg-config.ts";
import { runnerPathsFact } from "./runner-paths.ts";
import { trackedBelow } from "./tracked-reads.ts";
import { shownPath, WALK_BOUND, walkFact } from "./tree-walk.ts";

const MAX_GLOB_PATHS = 1_000;

export interface DiskViewOptions {
  /** The environment the agent's shell has (CDPATH, GIT_DIR); the deciding process's own by default. */
  env?: NodeJS.ProcessEnv;
  walkBound?: number;
}

interface Context {
  cwd: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  walkBound: number;
  ownRepo?: Repository | null;
  /** repositoryStateFact's answers in this decision (several git units walk the same `.git` once). */
  states?: Map<string, string | null>;
  /** The agent's PATH as this decision looks programs up (null: no entry can name a project file). */
  path?: PathView | null;
}

/** A directory read file by file (`diff DIR1 DIR2`, `file -m DIR`): every file directly in it, dotfiles too. */
const ENTRIES_READ = { ...WIDEST, depth: 1 };

/** One concrete path (no glob left): what reading or writing it really touches. */
function pathFacts(
  access: "read" | "write",
  lexical: string,
  subject: string,
  ctx: Context,
  entries = false,
): CallFact[] {
  const r = realPathOf(lexical);
  if (!r.ok) return [{ subject, reason: `cannot be resolved (${r.reason})` }];
  const { real, stat } = r;
  const facts: CallFact[] = [];
  if (entries && access === "read" && stat?.isDirectory()) {
    const f = walkFact(real, ENTRIES_READ, ctx.workspace, subject, ctx.walkBound);
    if (f !== null) facts.push(f);
  }
  const where = shownPath(real, ctx.workspace);
  // Rules judged the path tidied (`a/lnk/../x` as `a/x`); the kernel applies `..` after the symlink.
  if (/\/\.\.(\/|$)/.test(lexical)) {
    const tidy = realPathOf(resolve(lexical));
    if (tidy.ok && tidy.real !== real)
      facts.push({
        subject,
        reason: `\`..\` after a symlink leads to \`${where}\`, not to \`${shownPath(tidy.real, ctx.workspace)}\` as the rules read it`,
      });
  }
  if (real !== lexical) {
    if (access === "read" && isDenylistedPath(real) && !isDenylistedPath(lexical)) {
      const family = secretFamilyOf(real);
      facts.push({
        subject,
        reason: `is a link to \`${where}\`, a secret${family ? ` (${family.family})` : ""}`,
      });
    } else if (access === "write" && isProtectedWritePath(real) && !isProtectedWritePath(lexical))
      facts.push({
        subject,
        reason: `is a link to \`${where}\`, a file that holds secrets or decides what runs`,
      });
    if (isWithin(ctx.cwd, lexical) && !isWithin(ctx.workspace, real))
      facts.push({ subject, reason: `leads out of the workspace through a symlink, to \`${real}\`` });
  }
  // A write inside a directory git takes for a repository (HEAD, objects, refs: a bare one shipped in the
  // workspace, or one the agent built file by file) may set its config's programs (red team, round 7).
  if (access === "write" && isWithin(ctx.workspace, real)) {
    for (let d = dirname(real); isWithin(ctx.workspace, d) && d !== ctx.workspace; d = dirname(d))
      if (looksLikeGitDir(d)) {
        facts.push({
          subject,
          reason: `is inside \`${shownPath(d, ctx.workspace)}\`, a git repository directory whose files decide what git runs`,
        });
        break;
      }
  }
  // So is a write inside a Python virtual environment under any name (python-venv.ts, round 14).
  const venv = access === "write" ? virtualenvHolding(real, realWorkspace(ctx)) : null;
  if (venv !== null)
    facts.push({
      subject,
      reason: `is inside \`${shownPath(venv, ctx.workspace)}\`, a Python virtual environment whose files run when it is used`,
    });
  // A file of a repository directory under another name (`gitstore/config`, `mirror.git/logs/HEAD`) is
  // git's own file as `.git/…` is (round 12).
  const gitDir = access === "read" && stat?.isFile() ? gitDirHolding(real, realWorkspace(ctx)) : null;
  const store = access === "read" && stat?.isFile() ? rawObjectStore(real) : null;
  if (store !== null)
    facts.push({
      subject,
      reason: `is a raw object file of the git repository \`${shownPath(store, ctx.workspace)}\`: its history compressed, which the history check and the content scan do not see through`,
    });
  else if (gitDir !== null && gitDirFile(gitDir, real) === "secret")
    facts.push({
      subject,
      reason: `is \`${shownPath(real, ctx.workspace)}\` of the git repository directory \`${shownPath(gitDir, ctx.workspace)}\`, which holds its remotes' credentials as .git/config does`,
    });
  else if (stat?.isFile()) {
    if (stat.nlink > 1)
      facts.push({
        subject,
        reason: `has ${stat.nlink - 1} other name${stat.nlink > 2 ? "s" : ""} (a hard link), which may be a secret such as ~/.aws/credentials`,
      });
    else if (access === "read" && !isDenylistedPath(real)) {
      // Git's own files (reflogs, FETCH_HEAD, .git/remotes) keep URLs as typed: `pull https://u:PASS@h`.
      const gitFile = isGitMetadataPath(real) || isGitMetadataPath(lexical) || gitDir !== null;
      const scan = scanFile(real, stat.size, KEY_SCAN_MAX_BYTES, gitFile);
      if (scan === "key")
        facts.push({
          subject,
          reason: gitFile
            ? "is a file of git's own that holds a credential (a URL with a password, a token or a key)"
            : "holds a private key or a credential",
        });
      else if (scan === "too-large")
        facts.push({ subject, reason: `is ${stat.size} bytes, too large to check for a private key` });
      else if (scan === "packed") facts.push({ subject, reason: PACKED_REASON });
    }
  }
  return facts;
}

/** The workspace as the disk has it (links resolved), for comparing with real paths. */
function realWorkspace(ctx: Context): string {
  const r = realPathOf(ctx.workspace);
  return r.ok ? r.real : ctx.workspace;
}

function ownRepository(ctx: Context): Repository | null {
  if (ctx.ownRepo === undefined) ctx.ownRepo = discoverRepository(ctx.workspace);
  return ctx.ownRepo;
}

/** What a configuration key of the repository makes git do on a read-only command. */
function keyEffect(key: string): string {
  if (key === "core.worktree") return "so git reads a work tree outside the project";
  if (/ignorerevsfile|^mailmap\.|excludesfile|attributesfile|orderfile|^gpg\.ssh\./.test(key))
    return "a file outside the project git reads and may print";
  if (/\.promisor$|^extensions\.partialclone$/.test(key))
    return "so git fetches missing objects from a remote on a read";
  return "a program git may run";
}

/**
 * Why a `REV:PATH` git reads from the top of the work tree is not a plain read in the workspace: the top is
 * above the workspace and PATH leads out of it, or PATH there is a secret by name.
 */
function topPathsFact(paths: readonly string[], top: string, workspace: string): string | null {
  const ws = realPathOf(workspace);
  const root = ws.ok ? ws.real : workspace;
  for (const p of paths) {
    const abs = resolve(top, p);
    if (abs !== root && !abs.startsWith(`${root}/`))
      return `git reads \`${p}\` from the top of the repository (\`${abs}\`), outside the workspace`;
    if (isDenylistedPath(abs.slice(root.length + 1)))
      return `git reads \`${p}\` from the top of the repository, a secret`;
  }
  return null;
}

function gitFacts(t: Extract<DiskTarget, { kind: "git" }>, ctx: Context): CallFact[] {
  // GIT_DIR in the agent's environment names the repository as surely as --git-dir does.
  const envDir = ctx.env.GIT_DIR;
  const named = t.gitDir ?? (envDir ? resolve(t.dir, envDir) : null);
  const repo = named !== null ? repositoryAt(named) : discoverRepository(t.dir);
  if (repo === null) return [];
  const own = ownRepository(ctx);
  if (own !== null && own.commonDir === repo.commonDir) {
    // The workspace's own repository; git may still enter a submodule of it, with its configuration.
    const top = t.workTree ?? repo.workTree;
    const program = repositoryProgram(repo);
    if (program !== null)
      return [
        {
          subject: t.shown,
          reason: `the repository's own configuration (\`${program.file}\`) sets ${program.key}, ${keyEffect(program.key)}`,
        },
      ];
    const ws = realPathOf(ctx.workspace);
    const foreign = foreignGitFile(repo, ws.ok ? ws.real : ctx.workspace);
    if (foreign !== null) return [{ subject: t.shown, reason: foreign }];
    const hook = readOnlyHook(repo);
    if (hook !== null)
      return [
        {
          subject: t.shown,
          reason: `the repository has the hook \`${hook}\`, which git runs on a read-only command`,
        },
      ];
    const printsHistory = t.prints !== null || t.printsMessages !== undefined || t.printsNotes === true;
    const printsContents = t.prints !== null;
    ctx.states ??= new Map();
    const stateKey = `${repo.gitDir}\0${top}\0${printsHistory}\0${printsContents}`;
    let state = ctx.states.get(stateKey);
    if (state === undefined) {
      const o = { workspace: ctx.workspace, env: ctx.env, top, printsHistory, printsContents };
      state = repositoryStateFact(repo, o);
      ctx.states.set(stateKey, state);
    }
    if (state !== null) return [{ subject: t.shown, reason: state }];
    const placed = top === null ? null : topPathsFact(t.topPaths ?? [], top, ctx.workspace);
    if (placed !== null) return [{ subject: t.shown, reason: placed }];
    const printed =
      t.prints === null ? null : gitContentsFact(repo, t.prints, t.dir, t.shown, realWorkspace(ctx));
    if (printed !== null) return [printed];
    const unnamed = t.prints?.objectIds ? unnamedObjectFact(repo, t.prints.objectIds) : null;
    if (unnamed !== null) return [{ subject: t.shown, reason: unnamed }];
    const notes = t.printsNotes === true ? notesReason(repo.commonDir) : null;
    if (notes !== null) return [{ subject: t.shown, reason: notes }];
    const messages = t.printsMessages === undefined ? null : gitMessagesFact(repo, t.printsMessages, top);
    if (messages !== null) return [{ subject: t.shown, reason: messages }];
    if (!t.entersSubmodules || top === null) return [];
    const nested = nestedRepositoryFact(repo, top, t.shown, {
      workspace: realWorkspace(ctx),
      env: ctx.env,
      plain: t.plainSubmodules === true,
    });
    return nested === null ? [] : [nested];
  }
  const at = shownPath(repo.gitDir, ctx.workspace);
  return [
    {
      subject: t.shown,
      reason: `git would use the repository at \`${at}\`, not the workspace's own; its configuration can run programs (core.fsmonitor, hooks, aliases)`,
    },
  ];
}

/** Each file `git ls-files` names, read as a file named in the command is (a secret by name too). */
function trackedFacts(t: Extract<DiskTarget, { kind: "tracked" }>, ctx: Context): CallFact[] {
  const paths = trackedBelow(t.dir, t.nul, ctx.env);
  if ("unknown" in paths) return [{ subject: t.shown, reason: paths.unknown }];
  for (const p of paths) {
    const where = shownPath(p, ctx.workspace);
    const shown = `${t.shown} → ${where}`;
    if (isDenylistedPath(where)) return [{ subject: shown, reason: "is tracked, and a secret by its name" }];
    const facts = pathFacts("read", p, shown, ctx);
    if (facts.length > 0) return facts;
  }
  return [];
}

function isFileThere(path: string): boolean {
  const r = realPathOf(path);
  return r.ok && r.stat?.isFile() === true;
}

function targetFacts(t: DiskTarget, ctx: Context): CallFact[] {
  switch (t.kind) {
    case "unknown":
      return [{ subject: t.shown, reason: t.reason }];
    case "cd": {
      const cdpath = ctx.env.CDPATH;
      const word = t.shown.replace(/^\S+\s+/, "");
      if (cdpath && !/^\.{1,2}(\/|$)/.test(word))
        return [
          {
            subject: t.shown,
            reason: "CDPATH is set, so `cd` may enter a directory other than the one named",
          },
        ];
      return [];
    }
    case "git":
      return gitFacts(t, ctx);
    case "names":
      return optionNameFacts(t);
    case "picker": {
      const found = pickerFile(t.dir, t.names, t.contains);
      return found === null
        ? []
        : [
            {
              subject: t.shown,
              reason:
                t.picks !== undefined
                  ? `\`${shownPath(found, ctx.workspace)}\` ${t.picks}`
                  : t.contains === undefined
                    ? `\`${shownPath(found, ctx.workspace)}\` picks the toolchain it runs (rustup runs a \`path\` it names, and downloads a channel not installed)`
                    : `\`${shownPath(found, ctx.workspace)}\` names a toolchain, which go downloads and runs when it is not the one installed`,
            },
          ];
    }
    case "version-file":
      return versionFileFacts(t.dir, t.names, t.shown, ctx);
    case "go-release": {
      const f = goReleaseFact(t.dir, ctx.env, ctx.workspace, t.shown);
      return f === null ? [] : [f];
    }
    case "go-module": {
      const { facts, root } = goModuleFacts(t.dir, ctx.workspace, t.shown, ctx.env);
      return root === null ? facts : targetFacts({ kind: "walk", root, style: GO_WALK, shown: t.shown }, ctx);
    }
    case "tracked":
      return trackedFacts(t, ctx);
    case "man-path": {
      const f = manPathFact(ctx.env, ctx.workspace, t.shown);
      return f === null ? [] : [f];
    }
    case "python-start": {
      const f = pythonStartFact(t.dir, t.program, t.module, ctx.env, ctx.workspace, t.shown);
      return f === null ? [] : [f];
    }
    case "upward": {
      const found = pickerFile(t.dir, t.names);
      if (found === null) return [];
      // By its real path: a linked package.json is the other checkout's (red team, round 14).
      const r = realPathOf(found);
      if (r.ok && isWithin(ctx.workspace, r.real)) return [];
      return [
        {
          subject: t.shown,
          reason: `the nearest \`${t.names.join("`/`")}\` it reads is \`${r.ok ? r.real : found}\`, out of the workspace: what runs is defined there`,
        },
      ];
    }
    case "runner-paths": {
      const f = runnerPathsFact(t, ctx.workspace);
      return f === null ? [] : [f];
    }
    case "npx": {
      const f = npxFact(t.dir, t.name, ctx.workspace, t.shown);
      return f === null ? [] : [f];
    }
    case "npm-config": {
      const f = npmConfigFact(t.dir, ctx.env, ctx.workspace, t.shown);
      return f === null ? [] : [f];
    }
    case "node-env": {
      const f = nodePreloadFact(ctx.env, t.dir, ctx.workspace, t.shown);
      return f === null ? [] : [f];
    }
    case "program": {
      if (ctx.path === undefined) ctx.path = pathView(ctx.env, ctx.workspace);
      const f = ctx.path === null ? null : programFact(t, ctx.path, ctx.workspace);
      return f === null ? [] : [f];
    }
    case "npm-tree": {
      const f = npmTreeFact(t.dir, ctx.workspace, t.shown);
      return f === null ? [] : [f];
    }
    case "walk": {
      if (t.glob === true) return globWalkFacts(t, ctx);
      const r = realPathOf(t.root);
      if (!r.ok) return [{ subject: t.shown, reason: `cannot be resolved (${r.reason})` }];
      if (r.stat === null) return [];
      if (!r.stat.isDirectory()) return t.style.content ? pathFacts("read", t.root, t.shown, ctx) : [];
      if (isWithin(ctx.cwd, t.root) && !isWithin(ctx.workspace, r.real))
        return [
          { subject: t.shown, reason: `leads out of the workspace through a symlink, to \`${r.real}\`` },
        ];
      const configured = withConfig(t.style, ctx.env, t.shown);
      if ("fact" in configured) return [configured.fact];
      const f = walkFact(r.real, configured.style, ctx.workspace, t.shown, ctx.walkBound);
      return f === null ? [] : [f];
    }
    case "path": {
      if (t.runs === true && !t.glob) {
        const r = realPathOf(t.path);
        if (r.ok && !r.stat?.isFile())
          return [
            {
              subject: t.shown,
              reason: `${r.stat === null ? "is not there" : r.stat.isDirectory() ? "is a directory, not a file" : "is not a regular file"}: the interpreter would run another file (\`DIR/__main__.py\`, \`DIR/index.js\`, a package.json \`main\`, \`X.js\`) the word does not name`,
            },
          ];
      }
      if (t.opens === true && !t.glob && !isFileThere(t.path))
        return [
          {
            subject: t.shown,
            reason:
              "is not a file there to open: the redirection would fail, and bash would go on with the descriptor as the shell inherited it",
          },
        ];
      if (!t.glob) return pathFacts(t.access, t.path, t.shown, ctx, t.entries === true);
      // Quotes or escapes in a glob word hide which characters bash expands: not judged from the value.
      if (/['"\\]/.test(t.shown))
        return [
          { subject: t.shown, reason: "a glob with quoted or escaped parts, which Airlock does not expand" },
        ];
      // Every name it could reach under any of bash's glob settings: the rules may judge a glob by these
      // matches alone (judge-bash.ts), so a dotfile or a name in another case must be among them.
      const e = expandGlob(t.path, MAX_GLOB_PATHS, true);
      if ("unknown" in e) return [{ subject: t.shown, reason: e.unknown }];
      const out: CallFact[] = [];
      for (const p of e.paths) {
        const where = shownPath(p, ctx.workspace);
        if (t.access === "read" ? isDenylistedPath(where) : isProtectedWritePath(where)) {
          const family = secretFamilyOf(where);
          out.push({
            subject: t.shown,
            reason: `the glob matches \`${where}\`, ${t.access === "read" ? `a secret${family ? ` (${family.family})` : ""}` : "a file that holds secrets or decides what runs"}`,
          });
        } else out.push(...pathFacts(t.access, p, `${t.shown} → ${where}`, ctx, t.entries === true));
        if (out.length > 0) return out;
      }
      return out;
    }
  }
}

/**
 * A recursive read whose root is a glob (`grep -r KEY su?`): every match, under any of bash's glob settings,
 * is walked as a root (red team: a glob root was taken as a literal name that is not there, so nothing was
 * walked). A glob that matches nothing is passed as it is, or dropped under nullglob, and then the program
 * reads its default (grep -r, rg: the working directory), so it is a question too.
 */
function globWalkFacts(t: Extract<DiskTarget, { kind: "walk" }>, ctx: Context): CallFact[] {
  if (/['"\\]/.test(t.shown))
    return [
      { subject: t.shown, reason: "a glob with quoted or escaped parts, which Airlock does not expand" },
    ];
  const e = expandGlob(t.root, MAX_GLOB_PATHS, true);
  if ("unknown" in e) return [{ subject: t.shown, reason: e.unknown }];
  if (e.paths.length === 0)
    return [
      {
        subject: t.shown,
        reason:
          "the glob matches nothing here: with nullglob bash drops the word, and the program then reads what it reads with no operand (grep -r, rg: every file below the working directory)",
      },
    ];
  for (const p of e.paths) {
    const { glob: _glob, ...one } = t;
    const facts = targetFacts({ ...one, root: p, shown: `${t.shown} → ${shownPath(p, ctx.workspace)}` }, ctx);
    if (facts.length > 0) return facts;
  }
  return [];
}

/** A leading glob's matches as bash passes them (relative to `dir`): one that starts with `-` is an option. */
function optionNameFacts(t: Extract<DiskTarget, { kind: "names" }>): CallFact[] {
  // Quotes or escapes in a glob word hide which characters bash expands: not judged from the value.
  if (/['"\\]/.test(t.shown))
    return [
      { subject: t.shown, reason: "a glob with quoted or escaped parts, which Airlock does not expand" },
    ];
  const e = expandGlob(`${t.dir === "/" ? "" : t.dir}/${t.pattern}`, MAX_GLOB_PATHS);
  if ("unknown" in e) return [{ subject: t.shown, reason: e.unknown }];
  const start = t.dir === "/" ? 1 : t.dir.length + 1;
  const option = e.paths.find((p) => p.slice(start).startsWith("-"));
  return option === undefined
    ? []
    : [
        {
          subject: t.shown,
          reason: `the glob matches \`${option.slice(start)}\`, a name the program takes as an option`,
        },
      ];
}

/**
 * The first file by one of `names` in `dir` or a directory above it (as rustup looks), or null; with
 * `contains`, the first whose text matches it (an unreadable one counts).
 */
function pickerFile(dir: string, names: readonly string[], contains?: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    for (const n of names) {
      const p = join(d, n);
      if (lstatSync(p, { throwIfNoEntry: false }) === undefined) continue;
      if (contains === undefined) return p;
      let text: string;
      try {
        text = readFileSync(p, "utf8");
      } catch {
        return p;
      }
      if (new RegExp(contains, "m").test(text)) return p;
    }
    if (dirname(d) === d) return null;
  }
}

/**
 * Version files in `dir` and above that a shim would print (a word it rejects is echoed back): one that
 * links onto a secret, or, in the workspace, one that links out of it or is a hard link, asks. A plain
 * file is the project's own words; the person's own links above the workspace are theirs.
 */
function versionFileFacts(dir: string, names: readonly string[], shown: string, ctx: Context): CallFact[] {
  const facts: CallFact[] = [];
  for (let d = dir; ; d = dirname(d)) {
    for (const n of names) {
      const p = join(d, n);
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (st === undefined) continue;
      const inside = isWithin(ctx.workspace, p);
      const r = realPathOf(p);
      const real = r.ok ? r.real : null;
      const why =
        real === null
          ? "cannot be resolved"
          : isDenylistedPath(real) && !isDenylistedPath(p)
            ? `is a link to \`${shownPath(real, ctx.workspace)}\`, a secret`
            : inside && st.isSymbolicLink() && !isWithin(ctx.workspace, real)
              ? `leads out of the workspace through a symlink, to \`${real}\``
              : inside && st.isFile() && st.nlink > 1
                ? "is a hard link, whose other name may be a secret"
                : null;
      if (why !== null)
        facts.push({
          subject: shown,
          reason: `\`${shownPath(p, ctx.workspace)}\` ${why}; the program or a version manager's shim reads it and may print its words`,
        });
    }
    if (dirname(d) === d) return facts;
  }
}

/** A DiskCheck over the real filesystem. */
export function diskCheck(options: DiskViewOptions = {}): DiskCheck {
  return (targets, callCwd, workspace) => {
    const facts: CallFact[] = [];
    const session = workspace ?? callCwd;
    const real = realPathOf(session);
    const ctx: Context = {
      cwd: session,
      workspace: real.ok ? real.real : session,
      env: options.env ?? process.env,
      walkBound: options.walkBound ?? WALK_BOUND,
    };
    if (workspace !== undefined) {
      // A tool's own working directory inside the workspace by name may lead out of it on disk.
      const wd = realPathOf(callCwd);
      if (!wd.ok)
        facts.push({ subject: callCwd, reason: `the working directory cannot be resolved (${wd.reason})` });
      else if (!isWithin(ctx.workspace, wd.real))
        facts.push({
          subject: callCwd,
          reason: `the working directory leads out of the workspace, to \`${wd.real}\``,
        });
    }
    if (targets.length === 0) return facts;
    for (const t of targets) {
      facts.push(...targetFacts(t, ctx));
      if (facts.length >= 4) break;
    }
    return facts;
  };
}
