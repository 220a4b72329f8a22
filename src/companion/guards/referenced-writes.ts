// A write to a file the user's own configuration runs or reads as configuration by path (red team,
// round 16: ~/.bashrc sourcing `~/proj/scripts/aliases.sh`, ~/.gitconfig including `~/proj/tools/git.inc`,
// a global core.hooksPath in the project): the file decides what runs at the user's next shell, ssh or git
// run, which the judge never sees, so writing it is a protected write. The references are read by
// config-references.ts and kept while none of the files read (or directories listed) changed.
import { existsSync } from "node:fs";
import { join, posix } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { Lru } from "../../policy/lru.ts";
import { type PathPart, referencePattern } from "../../policy/path-references.ts";
import { type Named, namedPaths, repoConfigPaths, StampedReader, stampOf } from "./config-references.ts";
import type { Context } from "./disk-context.ts";
import { homeOf } from "./git-config-layers.ts";
import { repositoryIn } from "./git-discovery.ts";
import { PROGRAM_ENV } from "./program-config-files.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { scannedWriteHit } from "./scanned-writes.ts";
import { shownPath } from "./tree-walk.ts";
import { type Scan, scanUserConfigs } from "./user-config-scan.ts";

interface Compiled {
  named: Named;
  /** The whole path (and, for a directory, everything below it). */
  test: RegExp;
  /** The literal directory the reference sits in or is: replacing one of its ancestors replaces it too. */
  literal: string | null;
}

interface State {
  stamps: Map<string, string>;
  compiled: Compiled[];
}

interface UserState extends State {
  /** Every user configuration file's named paths (the class the per-program rows are examples of). */
  scan: Scan;
}

const states = new Lru<string, UserState>(8);
/** The state one decision looked at: its stamps are checked once, not once per path the call writes. */
const statePerDecision = new WeakMap<Context, UserState>();
const perDecision = new WeakMap<Context, Compiled[]>();

/** The environment the configurations are found and expanded by. */
const ENV_KEYS = [
  ...["HOME", "XDG_CONFIG_HOME", "ZDOTDIR", "AWS_CONFIG_FILE", "KUBECONFIG", "DOCKER_CONFIG", "PATH"],
  ...["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"],
  ...PROGRAM_ENV,
];

/** The literal start of a reference, up to its last `/` unless the reference is all literal. */
function literalOf(parts: readonly PathPart[]): string | null {
  const lits: string[] = [];
  for (const p of parts) {
    if (p.type !== "lit") break;
    lits.push(p.value);
  }
  const text = lits.join("");
  const whole = lits.length === parts.length ? text : text.slice(0, text.lastIndexOf("/"));
  return whole.startsWith("/") && whole.split("/").length > 2 ? whole.replace(/\/+$/, "") : null;
}

/** `..` and `.` in the literal start applied, as the kernel applies them (`$HOME/../proj/x.sh`). */
function tidied(named: Named): Named {
  const parts: PathPart[] = [];
  for (const p of named.parts) {
    const last = parts[parts.length - 1];
    if (p.type === "lit" && last?.type === "lit")
      parts[parts.length - 1] = { type: "lit", value: last.value + p.value };
    else parts.push(p);
  }
  const [head, ...rest] = parts;
  if (head?.type === "lit" && /(^|\/)\.\.?(\/|$)/.test(head.value))
    return { ...named, parts: [{ type: "lit", value: posix.normalize(head.value) }, ...rest] };
  return { ...named, parts };
}

/** The reference as named: its test, and the literal directory it sits in or is (for one in a work tree: relative). */
function compile(given: Named): Compiled {
  const named = tidied(given);
  if (named.inRepo === true) {
    const head = named.parts[0];
    const literal = named.parts.length === 1 && head?.type === "lit" ? head.value : null;
    return { named, test: referencePattern(named.parts, named.below), literal };
  }
  return { named, test: referencePattern(named.parts, named.below), literal: literalOf(named.parts) };
}

/**
 * The reference as the disk has it now, where a link on the way leads elsewhere: resolved at every
 * decision, as a link (in the workspace, say) may have moved while the configuration did not.
 */
function resolved(c: Compiled): Compiled | null {
  // One in a work tree is matched against the tops the path is in, as the disk has them at each write.
  if (c.literal === null || c.named.inRepo === true) return null;
  const r = realPathOf(c.literal);
  const [head, ...rest] = c.named.parts;
  if (!r.ok || r.real === c.literal || head?.type !== "lit") return null;
  const parts: PathPart[] = [{ type: "lit", value: r.real + head.value.slice(c.literal.length) }, ...rest];
  return { named: c.named, test: referencePattern(parts, c.named.below), literal: r.real };
}

function stateKey(env: NodeJS.ProcessEnv): string {
  return JSON.stringify(ENV_KEYS.map((k) => env[k] ?? null).concat(homeOf(env)));
}

function fresh(state: State): boolean {
  for (const [path, stamp] of state.stamps) if (stampOf(path) !== stamp) return false;
  return true;
}

/** The user's configurations as the disk has them now: read again when any file read (or directory listed) changed. */
function userStateOf(ctx: Context): UserState {
  const memo = statePerDecision.get(ctx);
  if (memo !== undefined) return memo;
  const key = stateKey(ctx.env);
  let state = states.get(key);
  if (state === undefined || !fresh(state)) {
    const reader = new StampedReader();
    const home = homeOf(ctx.env);
    const named = namedPaths(reader, ctx.env, home);
    const scan = scanUserConfigs(reader, ctx.env, home);
    state = { stamps: reader.stamps, compiled: named.map(compile), scan };
    states.set(key, state);
  }
  statePerDecision.set(ctx, state);
  return state;
}

/** The references as the disk has them now, each also by where its links lead at this decision. */
function referencesOf(ctx: Context, state: State): Compiled[] {
  const memo = perDecision.get(ctx);
  if (memo !== undefined) return memo;
  const now = [...state.compiled, ...state.compiled.flatMap((c) => resolved(c) ?? [])];
  perDecision.set(ctx, now);
  return now;
}

/** The path is the reference, below it, or a directory on the way to it (moving that moves the file). */
function hits(c: Compiled, path: string): boolean {
  return c.test.test(path) || (c.literal !== null && isWithin(path, c.literal));
}

/** The tops of the git work trees `path` is in or is (a directory holding `.git`), nearest first. */
function workTreeTops(path: string): string[] {
  const tops: string[] = [];
  for (let d = path; d !== "/"; d = posix.dirname(d)) if (existsSync(posix.join(d, ".git"))) tops.push(d);
  return tops;
}

/** A reference relative to a work tree's top hits the path from one of the tops it is in (or the top itself). */
function hitsInRepo(c: Compiled, path: string, tops: readonly string[]): boolean {
  return tops.some((top) => path === top || hits(c, path.slice(top.length + 1)));
}

/** Whether the write hits the reference, by either name; the work-tree tops are looked up once per write. */
function hitter(real: string, lexical: string): (c: Compiled) => boolean {
  let tops: [string[], string[]] | undefined;
  return (c) => {
    if (c.named.inRepo !== true) return hits(c, real) || hits(c, lexical);
    tops ??= [workTreeTops(real), workTreeTops(lexical)];
    return hitsInRepo(c, real, tops[0]) || hitsInRepo(c, lexical, tops[1]);
  };
}

const repoStates = new Lru<string, State>(32);

/** What the repository of the work tree at `top` names in its own configuration, read again when it changed. */
function repoReferencesOf(top: string, home: string): Compiled[] {
  let state = repoStates.get(top);
  if (state === undefined || !fresh(state)) {
    const repo = repositoryIn(top);
    const files = repo === null ? [] : [join(repo.commonDir, "config"), join(repo.gitDir, "config.worktree")];
    const reader = new StampedReader();
    reader.read(join(top, ".git"));
    state = { stamps: reader.stamps, compiled: repoConfigPaths(reader, files, home).map(compile) };
    repoStates.set(top, state);
  }
  return state.compiled;
}

/**
 * A reference the repository of a work tree the write is in makes in its own configuration (`git config
 * core.hooksPath scripts/git-hooks`, as a project's setup script runs it): the person's next commit runs it.
 */
function repoHit(real: string, lexical: string, home: string): Compiled | undefined {
  for (const path of new Set([real, lexical]))
    for (const top of workTreeTops(path)) {
      const hit = repoReferencesOf(top, home).find((c) =>
        c.named.inRepo === true ? hitsInRepo(c, path, [top]) : hits(c, path),
      );
      if (hit !== undefined) return hit;
    }
  return undefined;
}

function shownFrom(file: string, home: string): string {
  return isWithin(home, file) && file !== home ? `~/${file.slice(home.length + 1)}` : file;
}

/**
 * A write to `real` (named `lexical`) that is a file the user's configuration names, is below a directory
 * it names, or replaces a directory on the way to one.
 */
export function referencedWriteFact(
  real: string,
  lexical: string,
  ctx: Context,
  subject: string,
): CallFact | null {
  const state = userStateOf(ctx);
  const hit = referencesOf(ctx, state).find(hitter(real, lexical)) ?? repoHit(real, lexical, homeOf(ctx.env));
  const shown = shownPath(real, ctx.workspace);
  if (hit !== undefined)
    return {
      subject,
      reason: `\`${shown}\` is named by \`${shownFrom(hit.named.from, homeOf(ctx.env))}\`, which ${hit.named.how}: a file the user's own configuration runs or reads, so writing it runs code the judge never sees`,
    };
  const scanned = scannedWriteHit(state.scan, ctx, real, lexical);
  if (scanned === null) return null;
  if ("overflow" in scanned)
    return {
      subject,
      reason: `the user's configuration files could not all be read for the paths they name (${scanned.overflow}), so any of them may run or load \`${shown}\``,
    };
  return {
    subject,
    reason: `\`${shown}\` is ${scanned.path === real || scanned.path === lexical ? "named" : `below \`${shownPath(scanned.path, ctx.workspace)}\`, named`} by the user's configuration file \`${shownFrom(scanned.from, homeOf(ctx.env))}\`: a program reading it may run or load the file, so writing it runs code the judge never sees`,
  };
}
