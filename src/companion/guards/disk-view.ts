// The companion's look at the disk for one decision: every target the policy derived from the call
// (files, globs, walks, `cd` directories, git's repository discovery, rust-toolchain files) resolved on
// the real filesystem now, as the command would meet it. It answers with facts that make the call need
// a person; none means the text told the truth. Used by the hook, the daemon and `airlock policy explain` alike.
import { dirname } from "node:path";
import type { CallFact, DiskCheck, DiskTarget } from "../../policy/call-facts.ts";
import { inSecretDir, walksAboveHome } from "../../policy/secret-listings.ts";
import { isDenylistedPath, isProtectedWritePath, secretFamilyOf } from "../../policy/secret-paths.ts";
import { GO_WALK } from "../../policy/walk-styles.ts";
import { airlockHomeWalkFact } from "./airlock-home.ts";
import { expandGlob } from "./bash-glob.ts";
import { cargoWorkspaceFacts } from "./cargo-workspace.ts";
import { checksumListFacts } from "./checksum-lists.ts";
import { copyLandingFacts, extractLandingFacts } from "./copy-landings.ts";
import type { Context } from "./disk-context.ts";
import { movedSecretWalkFact, programLoadsFact, shellStartFact } from "./env-loads.ts";
import { gitFacts } from "./git-facts.ts";
import { goModuleFacts, goReleaseFact } from "./go-module.ts";
import { heldHome, homeStateFact, realHome } from "./home-state.ts";
import { jvmOptionsFact } from "./jvm-options.ts";
import { linterConfigFact } from "./linter-configs.ts";
import { loopbackFacts } from "./loopback-listeners.ts";
import { manPathFact } from "./man-path.ts";
import { nodePreloadFact } from "./node-preload.ts";
import { npmConfigFact } from "./npm-config.ts";
import { npmTreeFact } from "./npm-tree.ts";
import { npxFact } from "./npx-bin.ts";
import { packageHookWriteFact } from "./package-hook-writes.ts";
import { pathFacts } from "./path-facts.ts";
import { pathView, programFact, runsShim } from "./path-lookup.ts";
import { pathModeFact } from "./path-shadow.ts";
import { pythonStartFact } from "./python-path.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { withConfig } from "./rg-config.ts";
import { runnerPathsFact } from "./runner-paths.ts";
import { trackedBelow } from "./tracked-reads.ts";
import { shownPath, WALK_BOUND, walkFact } from "./tree-walk.ts";
import { pickerFile, versionFileFacts } from "./upward-files.ts";

const MAX_GLOB_PATHS = 1_000;

export interface DiskViewOptions {
  /** The environment the agent's shell has (CDPATH, GIT_DIR); the deciding process's own by default. */
  env?: NodeJS.ProcessEnv;
  walkBound?: number;
}

/** Each file `git ls-files` names, read as a file named in the command is (a secret by name too). */
function trackedFacts(t: Extract<DiskTarget, { kind: "tracked" }>, ctx: Context): CallFact[] {
  const paths = trackedBelow(t.dir, t.nul, ctx.env, { globbed: t.split === true, fromTop: t.top === true });
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

/** A listed directory that a link takes into a secret directory: its names are that directory's. */
function listingFacts(t: Extract<DiskTarget, { kind: "listing" }>, ctx: Context): CallFact[] {
  const r = realPathOf(t.dir);
  if (!r.ok) return [{ subject: t.shown, reason: r.reason }];
  if (t.pattern !== undefined) return globListingFacts(t, t.pattern, ctx);
  // The words are judged against the home the call names; the disk against the agent's own HOME, where the
  // walk really starts (a link to it, a HOME that is not where the account's home is kept: red team, round 23b).
  if (t.walks) {
    if (walksAboveHome(r.real, realHome(ctx.env)))
      return [
        {
          subject: t.shown,
          reason: `\`${shownPath(t.dir, ctx.workspace)}\` is \`${r.real}\`, and a walk of the names below it reaches the home directory's hidden entries (keys, credential stores)`,
        },
      ];
  }
  if (r.real === t.dir || !inSecretDir(r.real)) return [];
  return [
    {
      subject: t.shown,
      reason: `\`${shownPath(t.dir, ctx.workspace)}\` is a link into the secret directory \`${shownPath(r.real, ctx.workspace)}\`, whose names say what keys and credentials exist`,
    },
  ];
}

/**
 * A glob's listing: each directory its matches are named in (and each match a listing program lists) where
 * the disk puts it, as bash expands the glob (with dotglob and nocaseglob too, as a start-up file may set).
 */
function globListingFacts(t: { shown: string; lists?: true }, pattern: string, ctx: Context): CallFact[] {
  const found = expandGlob(pattern, MAX_GLOB_PATHS, true);
  if ("unknown" in found) return [{ subject: t.shown, reason: found.unknown }];
  for (const match of found.paths) {
    const listed = [dirname(match), ...(t.lists ? [match] : [])];
    for (const dir of listed) {
      const r = realPathOf(dir);
      if (!r.ok || r.stat?.isDirectory() !== true || !inSecretDir(r.real)) continue;
      return [
        {
          subject: t.shown,
          reason: `the glob \`${pattern}\` lists the names in \`${shownPath(r.real, ctx.workspace)}\`, a secret directory whose names say what keys and credentials exist`,
        },
      ];
    }
  }
  return [];
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
    case "listing":
      return listingFacts(t, ctx);
    case "git":
      return gitFacts(t, ctx);
    case "names":
      return optionNameFacts(t);
    case "picker": {
      if (t.shim !== undefined && !runsShim(t.shim, t.dir, ctx.env)) return [];
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
    case "cargo-workspace":
      return cargoWorkspaceFacts(t.dir, t.shown, ctx);
    case "go-module": {
      const { facts, root } = goModuleFacts(t.dir, ctx.workspace, t.shown, ctx.env);
      return root === null || !t.walk
        ? facts
        : targetFacts({ kind: "walk", root, style: GO_WALK, shown: t.shown }, ctx);
    }
    case "tracked":
      return trackedFacts(t, ctx);
    case "jvm-env": {
      const f = jvmOptionsFact(ctx.env, t.shown);
      return f === null ? [] : [f];
    }
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
    case "linter-config": {
      const f = linterConfigFact(t, ctx);
      return f === null ? [] : [f];
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
    case "env-runs": {
      const f = programLoadsFact(ctx, t.program, t.shown);
      return f === null ? [] : [f];
    }
    case "shell-start": {
      const f = shellStartFact(ctx, t.shown);
      return f === null ? [] : [f];
    }
    case "node-env": {
      const f = nodePreloadFact(ctx.env, t, ctx.workspace);
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
    case "copy":
      return copyLandingFacts(t, ctx);
    case "extract":
      return extractLandingFacts(t, ctx);
    case "checksums":
      return checksumListFacts(t, ctx);
    case "loopback":
      return loopbackFacts(t, ctx);
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
      const own = airlockHomeWalkFact(r.real, ctx, t.shown);
      if (own !== null) return [own];
      const configured = withConfig(t.style, ctx.env, t.shown);
      if ("fact" in configured) return [configured.fact];
      const f =
        walkFact(r.real, configured.style, ctx.workspace, t.shown, ctx.walkBound, undefined, heldHome(ctx)) ??
        (t.style.content ? movedSecretWalkFact(r.real, ctx, t.shown) : null);
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
      if (!t.glob) {
        const facts = pathFacts(t.access, t.path, t.shown, ctx, t.entries === true);
        const hooks = t.writes === undefined ? null : packageHookWriteFact(t.path, t.writes, t.shown);
        const mode = t.modes === true ? pathModeFact(t.path, ctx, t.shown) : null;
        return [...facts, ...[hooks, mode].filter((f) => f !== null)];
      }
      // A quoted pathspec glob reaches git as written, and git matches it against tracked paths, not the disk:
      // what it prints is judged over every path of the index and history (git-contents.ts), a tracked .env too.
      if (t.pathspec === true) return [];
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
      const home = t.access === "read" ? heldHome(ctx) : null;
      for (const p of e.paths) {
        const where = shownPath(p, ctx.workspace);
        const state = homeStateFact(p, home, t.shown, "the glob matches");
        if (t.access === "read" ? isDenylistedPath(where) : isProtectedWritePath(where)) {
          const family = secretFamilyOf(where);
          out.push({
            subject: t.shown,
            reason: `the glob matches \`${where}\`, ${t.access === "read" ? `a secret${family ? ` (${family.family})` : ""}` : "a file that holds secrets or decides what runs"}`,
          });
        } else if (state !== null) out.push(state);
        else out.push(...pathFacts(t.access, p, `${t.shown} → ${where}`, ctx, t.entries === true));
        // A package.json the glob matches is written as a named one is (touch's names excepted: no `writes`).
        const hooks =
          t.writes === undefined ? null : packageHookWriteFact(p, t.writes, `${t.shown} → ${where}`);
        if (hooks !== null) out.push(hooks);
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
