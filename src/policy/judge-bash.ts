// A bash call judged part by part: every simple command and every file it reads or writes goes
// through the rules on its own, and the answers combine hidden > deny > ask > allow. Some facts
// make a part need a person even when a rule allows it (a dynamic word, code bash evaluates
// again, a variable that changes what runs, an option that writes or runs, an interactive
// session, a secret, a recursive read): a rule allows those only if its condition names them.
import type { CelContext, CelWord } from "./cel.ts";
import type { CompiledPolicy } from "./compiled.ts";
import { evaluateSubject, strictest, type Verdict } from "./evaluate.ts";
import { resolveShellDir } from "./paths.ts";
import { redactText } from "./redact.ts";
import { analyzeShell } from "./shell/analysis.ts";
import { pathFacts } from "./shell/path-facts.ts";
import { unitRisk } from "./shell/risk.ts";
import type { Concern, ExecUnit, ShellUnit } from "./shell/units.ts";

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
    out = atLeastAsk(out, c.mention === null ? c.reason : `${c.reason} (a rule allows it only if it names \`${c.mention}\`)`);
  }
  return out;
}

interface ExecFacts {
  argv: string[];
  words: CelWord[];
  prefixes: Record<string, string>;
  dynamic: boolean;
  interactive: boolean;
  /** The resolved directory, for the last working directory and home it was resolved against. */
  dir?: { cwd: string; home: string | null; value: string };
}

// Units come from the analysis cache, so their condition-facing values are built once.
const execFacts = new WeakMap<ExecUnit, ExecFacts>();
function factsOf(unit: ExecUnit, cwd: string, home: string | null): ExecFacts & { dir: { value: string } } {
  let facts = execFacts.get(unit);
  if (facts === undefined) {
    facts = {
      argv: unit.argv,
      words: unit.words.map((w) => ({ value: w.value ?? w.raw, raw: w.raw, static: w.value !== null, glob: w.glob })),
      prefixes: Object.fromEntries(unit.prefixes.map((p) => [p.name, p.value ?? p.raw])),
      dynamic: unit.words.some((w) => w.value === null),
      interactive: unit.concerns.some((c) => c.mention === "interactive"),
    };
    execFacts.set(unit, facts);
  }
  if (facts.dir === undefined || facts.dir.cwd !== cwd || facts.dir.home !== home)
    facts.dir = { cwd, home, value: resolveShellDir(unit.cwd, cwd, home) ?? "" };
  return facts as ExecFacts & { dir: { value: string } };
}

function judgeExec(policy: CompiledPolicy, base: CelContext, unit: ExecUnit, home: string | null): Verdict {
  const facts = factsOf(unit, base.cwd, home);
  const ctx: CelContext = {
    ...base,
    command: unit.text,
    args: { ...base.args, command: unit.text },
    capability: "exec",
    risk: unitRisk(unit, base.cwd, home).risk,
    argv: facts.argv,
    words: facts.words,
    prefixes: facts.prefixes,
    program: unit.program,
    dir: facts.dir.value,
    dynamic: facts.dynamic,
    interactive: facts.interactive,
  };
  let v = evaluateSubject(policy, ctx, unit.argv[0] ?? "");
  if (unit.dynamic !== null) v = atLeastAsk(v, unit.dynamic);
  return applyConcerns(v, unit.concerns);
}

function judgeUnit(policy: CompiledPolicy, base: CelContext, unit: ShellUnit, home: string | null): Verdict {
  if (unit.kind === "unparsable") {
    return { action: "ask", layer: "default", rule: null, reason: `cannot parse \`${redactedText(unit)}\`: ${unit.reason}` };
  }
  if (unit.kind === "exec") return judgeExec(policy, base, unit, home);
  const tool = unit.kind;
  const hiddenBy = policy.hiddenTools.get(tool);
  if (hiddenBy) {
    // The bash tool exists, so a redirect to a hidden file tool is refused rather than hidden.
    return { action: "deny", layer: hiddenBy.layer, rule: null, reason: `\`${unit.text}\` is a ${tool}, and ${tool} is hidden` };
  }
  const facts = pathFacts(unit, base.cwd, home);
  const ctx: CelContext = {
    ...base,
    tool,
    path: facts.path ?? "",
    command: "",
    args: { path: unit.path ?? "" },
    capability: tool,
    risk: unitRisk(unit, base.cwd, home).risk,
    sensitive: facts.sensitive,
    recursive: unit.recursive,
    glob: unit.glob,
  };
  let v = evaluateSubject(policy, ctx, "");
  if (facts.path === null)
    v = atLeastAsk(v, `the path of \`${redactedText(unit)}\` is not known before it runs (a variable, \`~user\`, an unknown directory or a \`..\` after a symlink)`);
  const concerns: Concern[] = [];
  if (facts.sensitive)
    concerns.push({
      mention: "sensitive",
      reason: `\`${redactedText(unit)}\` ${unit.glob ? "could match" : "is"} ${tool === "read" ? "a secret" : "a file that holds secrets or decides what runs"}`,
    });
  if (unit.recursive)
    concerns.push({ mention: "recursive", reason: `\`${redactedText(unit)}\` is read with every file below it, secrets included` });
  return applyConcerns(v, concerns);
}

// Redacting unit texts for the reasons (14 regular expressions) was a quarter of a cached decision.
const redactedUnits = new WeakMap<ShellUnit, string>();
function redactedText(unit: ShellUnit): string {
  let text = redactedUnits.get(unit);
  if (text === undefined) {
    text = redactText(unit.text);
    redactedUnits.set(unit, text);
  }
  return text;
}

export function judgeBash(
  policy: CompiledPolicy,
  base: CelContext,
  command: string,
  home: string | null,
): { verdict: Verdict; reasons: string[] } {
  const { units } = analyzeShell(command);
  if (units.length === 0) {
    const v = evaluateSubject(policy, base, "");
    return { verdict: v, reasons: [v.reason] };
  }
  let verdict: Verdict | null = null;
  const reasons: string[] = [];
  for (const unit of units) {
    const v = judgeUnit(policy, base, unit, home);
    verdict = verdict === null ? v : strictest(verdict, v);
    if (reasons.length < MAX_REASONS) reasons.push(`\`${redactedText(unit)}\`: ${v.action} — ${v.reason}`);
  }
  if (units.length > MAX_REASONS) reasons.push(`… ${units.length - MAX_REASONS} more parts`);
  return { verdict: verdict as Verdict, reasons };
}
