// A git unit's repository as the disk has it: the workspace's own (then what its configuration, hooks,
// state, notes and submodules would make a read-only command do or print) or another one, which asks.
import { join, resolve } from "node:path";
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { type Context, realWorkspace } from "./disk-context.ts";
import { configLayers, type LayerEntry } from "./git-config-layers.ts";
import { programKeyOf, readOnlyHook, repositoryProgram } from "./git-config-programs.ts";
import { gitContentsFact } from "./git-contents.ts";
import { discoverRepository, foreignGitFile, type Repository, repositoryAt } from "./git-discovery.ts";
import { helpViewerReason } from "./git-help-viewer.ts";
import { gitMessagesFact } from "./git-messages.ts";
import { notesReason } from "./git-notes.ts";
import { foreignPackReason } from "./git-packs.ts";
import { patchFacts } from "./git-patches.ts";
import { repositoryStateFact } from "./git-state-files.ts";
import { unnamedObjectFact } from "./git-unnamed.ts";
import { nestedRepositoryFact } from "./nested-repos.ts";
import { realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

function ownRepository(ctx: Context): Repository | null {
  if (ctx.ownRepo === undefined) ctx.ownRepo = discoverRepository(ctx.workspace);
  return ctx.ownRepo;
}

/** What a configuration key of the repository makes git do on a read-only command. */
function keyEffect(key: string): string {
  if (key === "core.worktree") return "so git reads a work tree outside the project";
  if (/ignorerevsfile|^mailmap\.|excludesfile|attributesfile|orderfile|skiplist|^gpg\.ssh\./.test(key))
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

/**
 * A program key in a user's layer the agent's environment (or an include) leads into the workspace: the
 * project's file, judged as .git/config is (git-config-layers.ts's scopeOf; red team, round 15).
 */
function projectLayerProgram(
  repo: Repository,
  ctx: Context,
  dir: string,
): { file: string; key: string } | null {
  const ws = realWorkspace(ctx);
  const own = new Set([join(repo.commonDir, "config"), join(repo.gitDir, "config.worktree")]);
  const byFile = new Map<string, LayerEntry[]>();
  for (const e of configLayers(repo, ctx.env, ws, dir))
    if (e.scope === "repo" && !own.has(e.from)) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e]);
  for (const [file, entries] of byFile) {
    const key = programKeyOf(entries);
    if (key !== null) return { file: shownPath(file, ws), key };
  }
  return null;
}

export function gitFacts(t: Extract<DiskTarget, { kind: "git" }>, ctx: Context): CallFact[] {
  // GIT_DIR in the agent's environment names the repository as surely as --git-dir does.
  const envDir = ctx.env.GIT_DIR;
  const named = t.gitDir ?? (envDir ? resolve(t.dir, envDir) : null);
  const repo = named !== null ? repositoryAt(named) : discoverRepository(t.dir);
  const viewer = t.opensHelp === true ? helpViewerReason(repo, ctx.env) : null;
  if (viewer !== null) return [{ subject: t.shown, reason: viewer }];
  if (t.patches !== undefined) {
    // From the top of the work tree, or outside a repository from where git runs (`../x` too).
    const top = t.workTree ?? repo?.workTree ?? null;
    const patched = patchFacts(t.patches, top === null ? [t.dir] : [top, t.dir], ctx, t.shown);
    if (patched.length > 0) return patched;
  }
  if (t.packs !== undefined) {
    const foreign = foreignPackReason(t.packs, ownRepository(ctx));
    if (foreign !== null) return [{ subject: t.shown, reason: foreign }];
  }
  if (repo === null) return [];
  const own = ownRepository(ctx);
  if (own !== null && own.commonDir === repo.commonDir) {
    // The workspace's own repository; git may still enter a submodule of it, with its configuration.
    const top = t.workTree ?? repo.workTree;
    const program = repositoryProgram(repo) ?? projectLayerProgram(repo, ctx, t.dir);
    if (program !== null)
      return [
        {
          subject: t.shown,
          reason: `${program.file.startsWith(".git/") ? "the repository's own configuration" : "a user's git configuration that leads into the project"} (\`${program.file}\`) sets ${program.key}, ${keyEffect(program.key)}`,
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
    const runsFilters = t.runsFilters === true;
    ctx.states ??= new Map();
    const stateKey = `${repo.gitDir}\0${top}\0${printsHistory}\0${printsContents}\0${runsFilters}`;
    let state = ctx.states.get(stateKey);
    if (state === undefined) {
      const o = { workspace: ctx.workspace, env: ctx.env, top, printsHistory, printsContents, runsFilters };
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
