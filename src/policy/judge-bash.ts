// A bash call judged part by part: every simple command and every file it reads or writes goes
// through the rules on its own, and the answers combine hidden > deny > ask > allow. Some facts
// make a part need a person even when a rule allows it (a dynamic word, code bash evaluates
// again, a variable that changes what runs, an option that writes or runs, an interactive
// session, a secret, a recursive read): a rule allows those only if its condition names them.
import type { CelContext, CelWord } from "./cel.ts";
import type { CompiledPolicy } from "./compiled.ts";
import { evaluateSubject, strictest, type Verdict } from "./evaluate.ts";
import { homeStateConcern, protectedWriteWhat } from "./home-config.ts";
import { commandTooLarge, MAX_JUDGED_COMMAND_CHARS } from "./limits.ts";
import { resolvePath, resolveShellDir } from "./paths.ts";
import { secretListingConcerns } from "./secret-listings.ts";
import { analyzeShell } from "./shell/analysis.ts";
import { destructiveGit, effectOf } from "./shell/danger.ts";
import { diskSettles, type Settled, settledBy, settledExec, settledFacts } from "./shell/disk-settled.ts";
import { memo } from "./shell/memo.ts";
import { type PathFacts, pathFacts } from "./shell/path-facts.ts";
import { redactedText } from "./shell/redacted.ts";
import { unitRisk } from "./shell/risk.ts";
import type { Concern, ExecUnit, PathUnit, ShellUnit } from "./shell/units.ts";
import type { Arg } from "./shell/wrappers.ts";

const MAX_REASONS = 24;

export function atLeastAsk(v: Verdict, why: string): Verdict {
  if (v.action === "allow") {
    const { mentions: _m, ...rest } = v;
    return { ...rest, action: "ask", reason: `${why}, so it is never allowed without a person` };
  }
  return { ...v, reason: `${v.reason}; ${why}` };
}

const mentionPatterns = new Map<string, RegExp>();

/** The allowing rule's condition contains `token` as a whole word (`LD_PRELOAD`, `-o`, `sensitive`). */
export function ruleNames(v: Verdict, token: string): boolean {
  if (v.mentions === undefined) return false;
  let re = mentionPatterns.get(token);
  if (re === undefined) {
    const body = token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    re = new RegExp(`(^|[^A-Za-z0-9_-])${body}($|[^A-Za-z0-9_-])`);
    if (mentionPatterns.size < 1024) mentionPatterns.set(token, re);
  }
  return re.test(v.mentions);
}

/** Applies what a rule must name to allow: each concern it does not name makes the answer ask. */
export function applyConcerns(v: Verdict, concerns: readonly Concern[]): Verdict {
  let out = v;
  for (const c of concerns) {
    if (out.action !== "allow") return out;
    if (c.mention !== null && ruleNames(out, c.mention)) continue;
    out = atLeastAsk(
      out,
      c.mention === null ? c.reason : `${c.reason} (a rule allows it only if it names \`${c.mention}\`)`,
    );
  }
  return out;
}

interface ExecFacts {
  argv: string[];
  words: CelWord[];
  prefixes: Record<string, string>;
  dynamic: boolean;
  interactive: boolean;
}

// Units come from the analysis cache, so their condition-facing values are built once.
function factsOf(unit: ExecUnit): ExecFacts {
  return memo(unit, "cel", () => ({
    argv: unit.argv,
    words: unit.words.map((w) => ({
      value: w.value ?? w.raw,
      raw: w.raw,
      static: w.value !== null,
      glob: w.glob,
    })),
    prefixes: Object.fromEntries(unit.prefixes.map((p) => [p.name, p.value ?? p.raw])),
    dynamic: unit.words.some((w) => w.value === null),
    interactive: unit.concerns.some((c) => c.mention === "interactive"),
  }));
}

function dirOf(unit: ExecUnit, cwd: string, home: string | null): string {
  if (unit.cwd === ".") return cwd;
  return memo(unit, `dir\u0000${cwd}\u0000${home ?? ""}`, () => resolveShellDir(unit.cwd, cwd, home) ?? "");
}

/**
 * The context a part is judged in: the call's, with the part's own fields set. One object is reused
 * for every part of a call (conditions only read it), which keeps a decision free of per-part copies.
 */
function judgeExec(
  policy: CompiledPolicy,
  base: CelContext,
  ctx: CelContext,
  given: ExecUnit,
  home: string | null,
  settled: Settled,
): Verdict {
  const unit = settledExec(given, settled);
  const facts = factsOf(unit);
  ctx.tool = base.tool;
  ctx.path = base.path;
  ctx.command = unit.text;
  ctx.args = { ...base.args, command: unit.text };
  ctx.capability = "exec";
  ctx.risk = unitRisk(unit, base.cwd, home, settled).risk;
  ctx.argv = facts.argv;
  ctx.words = facts.words;
  ctx.prefixes = facts.prefixes;
  ctx.program = unit.program;
  ctx.dir = dirOf(unit, base.cwd, home);
  ctx.dynamic = facts.dynamic;
  ctx.interactive = facts.interactive;
  ctx.effect = effectOf(unit);
  ctx.destructive = unit.program === "git" && destructiveGit(unit.argv) !== null;
  ctx.sensitive = false;
  ctx.recursive = false;
  ctx.glob = false;
  let v = evaluateSubject(policy, ctx, unit.argv[0] ?? "");
  if (
    v.rule === null &&
    v.action === "ask" &&
    ctx.risk !== "high" &&
    writesOnlyItsFiles(unit, base.cwd, home)
  )
    v = judgedByItsFiles(unit);
  if (v.action === "ask" && unit.via !== undefined) v = viaWrapper(policy, base, ctx, unit, unit.via) ?? v;
  if (unit.dynamic !== null) v = atLeastAsk(v, unit.dynamic);
  v = applyConcerns(v, unit.concerns);
  v = applyConcerns(v, secretListingConcerns(unit, base.cwd, home));
  const git = destructiveGitConcern(unit);
  if (git !== null) v = applyConcerns(v, [git]);
  if (unit.notUnderstood !== undefined) v = atLeastAsk(v, notUnderstood(unit));
  return v;
}

/**
 * A command whose grammar says its files are all it touches (`touch src/new.ts`, `mkdir -p src/ui`, `tee -a
 * notes.md`): it changes nothing the same edit by a file tool would not, so when no rule names it and the
 * default asks, it is judged by its reads and writes, each a unit of the call on its own (a default of deny
 * stays: whoever chose it named what may run). Asking for the command itself would
 * ask the person about an edit the rules already allow; a profile that asks for edits still asks here.
 */
function writesOnlyItsFiles(unit: ExecUnit, cwd: string, home: string | null): boolean {
  const effects = unit.effects;
  if (effects?.placedOnly !== true || effectOf(unit) !== "write") return false;
  // What it copies in comes from the project: a system file the read rules allow (`cp /etc/hostname x`,
  // `sed -n 'w x' /etc/passwd`) written into the workspace is no edit of the project's own files.
  const dir = resolveShellDir(unit.cwd, cwd, home);
  if (effects.paths.some((e) => e.access === "read" && !readsWithin(e.arg, dir, cwd))) return false;
  // With no file to judge (`sed -i s/a/b/ -` skips standard input) nothing would stand in for the command.
  return effects.paths.some((e) => e.access === "write");
}

/**
 * The word names a path below `root` wherever bash takes it: static, no `~`, and a glob only past its fixed
 * leading directories (a `.*` segment may match `..`).
 */
function readsWithin(arg: Arg, dir: string | null, root: string): boolean {
  if (arg.value === null || arg.tilde || dir === null) return false;
  if (arg.glob && arg.value.split("/").some((seg) => seg.startsWith(".") && /[*?[]/.test(seg))) return false;
  const path = resolvePath(dir, arg.value);
  return path.startsWith(root === "/" ? "/" : `${root}/`);
}

function judgedByItsFiles(unit: ExecUnit): Verdict {
  return {
    action: "allow",
    layer: "default",
    rule: null,
    reason: `\`${unit.program}\` touches nothing but the files it names, each judged on its own`,
  };
}

/**
 * Destructive git (`branch -D`, `reset --hard`, `push --force`, `remote add` …) asks under every profile:
 * a rule allows it only if its condition names `destructive`, which no generated profile does.
 */
function destructiveGitConcern(unit: ExecUnit): Concern | null {
  if (unit.program !== "git") return null;
  const reason = destructiveGit(unit.argv);
  return reason === null ? null : { mention: "destructive", reason: `destructive git: ${reason}` };
}

/** One line naming the word a grammar could not place, and why. */
function notUnderstood(unit: ExecUnit): string {
  const n = unit.notUnderstood as { word: string; reason: string };
  return `\`${n.word}\` is not understood (${n.reason})`;
}

/**
 * A rule that allows the wrapper's whole command and names this program (`npx tsc:*` for the
 * `tsc` that `npx tsc --noEmit` runs) allows the inner command too; one naming only the wrapper
 * (`npx:*`, `sudo:*`) does not. The inner unit's own facts (prefixes, concerns) still apply.
 */
function viaWrapper(
  policy: CompiledPolicy,
  base: CelContext,
  ctx: CelContext,
  unit: ExecUnit,
  via: string,
): Verdict | null {
  if (unit.program === "" || unit.program.includes("/")) return null;
  ctx.command = via;
  ctx.args = { ...base.args, command: via };
  const v = evaluateSubject(policy, ctx, via.split(" ")[0] ?? "");
  ctx.command = unit.text;
  ctx.args = { ...base.args, command: unit.text };
  return v.action === "allow" && ruleNames(v, unit.program) ? v : null;
}

function judgeUnit(
  policy: CompiledPolicy,
  base: CelContext,
  ctx: CelContext,
  unit: ShellUnit,
  home: string | null,
  settled: Settled,
): Verdict {
  if (unit.kind === "unparsable") {
    return {
      action: "ask",
      layer: "default",
      rule: null,
      reason: `cannot parse \`${redactedText(unit)}\`: ${unit.reason}`,
    };
  }
  if (unit.kind === "exec") return judgeExec(policy, base, ctx, unit, home, settled);
  const tool = unit.kind;
  const hiddenBy = policy.hiddenTools.get(tool);
  if (hiddenBy) {
    // The bash tool exists, so a redirect to a hidden file tool is refused rather than hidden.
    return {
      action: "deny",
      layer: hiddenBy.layer,
      rule: null,
      reason: `\`${unit.text}\` is a ${tool}, and ${tool} is hidden`,
    };
  }
  const facts = settledFacts(unit, pathFacts(unit, base.cwd, home), settled);
  Object.assign(ctx, base);
  ctx.tool = tool;
  ctx.path = facts.path ?? "";
  ctx.command = "";
  ctx.args = { path: unit.path ?? "" };
  ctx.capability = tool;
  ctx.effect = tool;
  ctx.destructive = false;
  ctx.risk = unitRisk(unit, base.cwd, home, settled).risk;
  ctx.sensitive = facts.sensitive;
  ctx.recursive = unit.recursive;
  ctx.glob = unit.glob;
  let v = evaluateSubject(policy, ctx, "");
  if (facts.path === null) v = atLeastAsk(v, unknownPath(unit));
  return applyConcerns(v, pathConcerns(unit, facts, home));
}

function unknownPath(unit: PathUnit): string {
  return `the path of \`${redactedText(unit)}\` is not known before it runs (a variable, \`~user\`, an unknown directory or a \`..\` after a symlink)`;
}

/** What a rule must name to allow a read or write: a secret or protected file, HOME's state, a recursive read. */
function pathConcerns(unit: PathUnit, facts: PathFacts, home: string | null): Concern[] {
  const concerns: Concern[] = [];
  if (facts.sensitive)
    concerns.push({
      mention: "sensitive",
      reason: `\`${redactedText(unit)}\` ${unit.glob ? "could match" : "is"} ${unit.kind === "read" ? "a secret" : protectedWriteWhat(facts.path ?? "", home)}`,
    });
  else if (facts.homeState !== null) concerns.push(homeStateConcern(redactedText(unit), facts.homeState));
  if (unit.recursive)
    concerns.push({
      mention: "recursive",
      reason: `\`${redactedText(unit)}\` is read with every file below it, secrets included`,
    });
  return concerns;
}

/**
 * Why a unit is never allowed without a person unless a rule names something (dynamic code, a
 * concern, an unknown path); null when a plain allow rule could allow it. Grants
 * cover only units for which this is null: a grant may do what a plain allow rule could, no more.
 */
export function needsPerson(unit: ShellUnit, callCwd: string, home: string | null): string | null {
  if (unit.kind === "unparsable") return `cannot parse \`${redactedText(unit)}\`: ${unit.reason}`;
  if (unit.kind === "exec") {
    if (unit.dynamic !== null) return unit.dynamic;
    if (unit.notUnderstood !== undefined) return notUnderstood(unit);
    return (unit.concerns[0] ?? secretListingConcerns(unit, callCwd, home)[0])?.reason ?? null;
  }
  const facts = pathFacts(unit, callCwd, home);
  if (facts.path === null) return unknownPath(unit);
  return pathConcerns(unit, facts, home)[0]?.reason ?? null;
}

interface MadeTree {
  path: string;
  text: string;
}

/** The tree an earlier part of the command wrote that this path is in (any, when the path is not known). */
function madeTreeOf(
  unit: PathUnit,
  trees: readonly MadeTree[],
  callCwd: string,
  home: string | null,
): MadeTree | undefined {
  if (trees.length === 0) return undefined;
  const path = pathFacts(unit, callCwd, home).path;
  return trees.find((t) => path === null || path === t.path || path.startsWith(`${t.path}/`));
}

export function judgeBash(
  policy: CompiledPolicy,
  base: CelContext,
  command: string,
  home: string | null,
  globsOnDisk = false,
): { verdict: Verdict; reasons: string[] } {
  if (commandTooLarge(command)) {
    // Parsing megabytes stalls the runtime; a command this large is a question for a person.
    const reason = `the command is ${command.length} characters, over the ${MAX_JUDGED_COMMAND_CHARS} Airlock judges`;
    return { verdict: { action: "ask", layer: "default", rule: null, reason }, reasons: [reason] };
  }
  const { units } = analyzeShell(command);
  if (units.length === 0) {
    const v = evaluateSubject(policy, base, "");
    return { verdict: v, reasons: [v.reason] };
  }
  let verdict: Verdict | null = null;
  const reasons: string[] = [];
  const ctx: CelContext = { ...base };
  const settles = diskSettles(units);
  const settled = settledBy(units, { diskChecked: base.walked, globsOnDisk });
  // Trees the command writes before it reads or writes in them (`tar -xf a.tar -C src; cat src/k`, `cp -P
  // a/rc rc && echo x >> rc`): what is there may be what it made first, a link to anything (a relative
  // link resolves from where it now is), which the disk's look now cannot show.
  const madeTrees: MadeTree[] = [];
  for (const unit of units) {
    let v = judgeUnit(policy, base, ctx, unit, home, settled);
    const tree =
      unit.kind === "unparsable" || unit.kind === "exec"
        ? undefined
        : madeTreeOf(unit, madeTrees, base.cwd, home);
    if (tree !== undefined)
      v = atLeastAsk(
        v,
        `\`${redactedText(unit)}\` is ${unit.kind === "read" ? "read" : "written"} where the command first writes \`${tree.text}\`, which may put a link to anything there`,
      );
    if (unit.kind === "write" && unit.recursive) {
      const made = pathFacts(unit, base.cwd, home).path;
      if (made !== null) madeTrees.push({ path: made, text: unit.text });
    }
    // The names a `find` upstream prints are looked at before the command runs (found-paths.ts): a command
    // that changes files first (`echo > './x -o.envrc .js'; find … | xargs sort`) may print others.
    if (unit.kind === "read" && unit.walk !== undefined && !settles)
      v = atLeastAsk(v, `\`${redactedText(unit)}\` are names the command may change before find prints them`);
    verdict = verdict === null ? v : strictest(verdict, v);
    if (reasons.length < MAX_REASONS) reasons.push(`\`${redactedText(unit)}\`: ${v.action} — ${v.reason}`);
  }
  if (units.length > MAX_REASONS) reasons.push(`… ${units.length - MAX_REASONS} more parts`);
  return { verdict: verdict as Verdict, reasons };
}
