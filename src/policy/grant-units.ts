// The judged units of a call, as grants see them: each simple command and redirected file of a shell
// command, the path of a file tool, the URL of a fetch, the exact input of any other tool. A grant covers
// a call only if it covers every unit; a unit whose meaning is not static can never be covered by an allow.
import { canonicalJson, sha256Hex } from "./call-binding.ts";
import { capabilityOf, resolvedPathOf } from "./capabilities.ts";
import { causalRunnerOf } from "./causal-runners.ts";
import { execWider, pathWider, quoteArgv, quoteWord, urlWider } from "./grant-patterns.ts";
import { isProtectedWriteAt, toolHomeStateConcerns } from "./home-config.ts";
import { needsPerson } from "./judge-bash.ts";
import { clip, commandTooLarge, MAX_GRANT_UNITS, MAX_GRANTABLE_INPUT_CHARS } from "./limits.ts";
import { homeFor, normalizePath, relativeInside, resolveShellDir } from "./paths.ts";
import { redactText } from "./redact.ts";
import { toolListingConcerns } from "./secret-listings.ts";
import { isDenylistedPath } from "./secret-paths.ts";
import { dangerOf, destructiveGit } from "./shell/danger.ts";
import { grammarFor } from "./shell/grammar/index.ts";
import { analyzeShell, type ExecUnit, type PathUnit, pathFacts } from "./shell-analysis.ts";
import type { Capability, CausalPin, ToolCall } from "./types.ts";

/**
 * What a wider pattern is matched against; kept in memory only (it may hold secrets), never stored.
 * `argv` carries `widen` false when no wider pattern may cover it (a prefix, a program path, a
 * directory outside the call's); a `path` named as an operand carries its command's argv (`owner`),
 * so a pattern for the command covers it when it is a plain file of the workspace.
 */
export type UnitSubject =
  | { kind: "argv"; argv: readonly string[]; widen: boolean }
  | { kind: "path"; path: string; owner: readonly string[] | null }
  | { kind: "url"; method: string; origin: string };

/** The stored part of a unit: no raw text, only a hash, a redacted display and the offered patterns. */
export interface StoredUnit {
  capability: Capability;
  /** sha256 of the unit's exact identity (directory, prefixes and argv; the resolved path …): what an exact grant keeps. */
  hash: string;
  /** What a person sees: redacted and clipped. */
  display: string;
  /** False when no allow grant may ever cover it (dynamic, a concern, unknown target or directory, too large). */
  coverable: boolean;
  /** Wider patterns a person may pick instead of the exact one (never spanning read-only and mutating). */
  wider: string[];
  /** When not coverable: why no grant can cover it, in one line a person reads on the card. */
  why?: string;
  /** A permissions.yaml rule that would allow exactly this command, where no grant may (or for high risk). */
  rule?: string;
}

export interface GrantUnit extends StoredUnit {
  subject: UnitSubject | null;
}

function unit(
  capability: Capability,
  identity: string,
  shown: string,
  subject: UnitSubject | null,
  coverable: boolean,
  wider: string[] = [],
  why: string | null = null,
): GrantUnit {
  const out: GrantUnit = {
    capability,
    hash: sha256Hex(`${capability}:${identity}`),
    display: clip(redactText(shown)),
    coverable,
    wider: coverable ? wider : [],
    subject,
  };
  if (!coverable) out.why = clip(redactText(why ?? "what it does is not known exactly"));
  return out;
}

/** A unit no allow grant may cover any more (a fact the disk showed), saying why. */
export function uncoverable(u: GrantUnit, why: string): GrantUnit {
  return { ...u, coverable: false, wider: [], why: u.why ?? clip(redactText(why)) };
}

/** A file tool's path: a secret or protected file is never covered, as no plain allow rule allows it. */
function fileUnit(
  capability: "read" | "write",
  cwd: string,
  path: string | null,
  home: string | null,
): GrantUnit {
  if (path === null || path === "")
    return unit(capability, "<dynamic>", "<dynamic path>", null, false, [], "the path is not known exactly");
  const sensitive = capability === "write" ? isProtectedWriteAt(path, home) : isDenylistedPath(path);
  const why = capability === "write" ? `${path} decides what runs or holds secrets` : `${path} is a secret`;
  return unit(
    capability,
    path,
    path,
    { kind: "path", path, owner: null },
    !sensitive,
    pathWider(path, cwd),
    `${why}: no grant covers it; only a rule naming \`sensitive\` can allow it`,
  );
}

/**
 * Why a command can never be covered, or null. A word only known at run time is fine for a program none of
 * whose words is an option or a file (`echo $PATH`): the grant covers that exact text, as bash expands it.
 */
function execNotCoverable(u: ExecUnit, dir: string | null, cwd: string, home: string | null): string | null {
  const person = needsPerson(u, cwd, home);
  if (person !== null) return person;
  if (dir === null)
    return "the directory it runs in is not known before it runs (a `cd` that may fail, or one the engine cannot follow)";
  if (u.prefixes.some((p) => p.value === null)) return "an assignment before it is only known when it runs";
  if (u.words.some((w) => w.value === null) && grammarFor(u.program)?.dynamicWords !== true)
    return "a word of it is only known when it runs";
  return null;
}

/**
 * A simple command's identity is what bash runs: the directory it runs in, its assignment
 * prefixes and its argv (the program as written, so `./ls` is not `ls`). A unit the judge says
 * needs a person whatever a plain rule says (dynamic code, a concern such as `LD_PRELOAD`, an
 * interactive session) is never coverable, nor one whose directory or words are not static.
 */
function execUnit(u: ExecUnit, cwd: string, home: string | null, pins: readonly CausalPin[]): GrantUnit {
  const dir = resolveShellDir(u.cwd, cwd, home);
  const argvText = quoteArgv(u.argv);
  const prefixText = u.prefixes.map((p) => `${p.name}=${quoteWord(p.value ?? p.raw)}`);
  const shown = [...prefixText, argvText].join(" ");
  const display = dir === null || dir === cwd ? shown : `(in ${dir}) ${shown}`;
  // A command that runs project code is the same command only while what decides that code is unchanged.
  const pin = causalPinFor(u.argv, dir, pins);
  const identity = JSON.stringify([dir, u.prefixes.map((p) => [p.name, p.value]), u.argv, ...pin]);
  const why = execNotCoverable(u, dir, cwd, home);
  const coverable = why === null;
  // A wider pattern names a program and its first words only: it covers a command on PATH, with no
  // prefix, run in the call's directory or below.
  const widen =
    coverable &&
    u.prefixes.length === 0 &&
    !u.words.some((w) => w.value === null) &&
    !u.program.includes("/") &&
    relativeInside(cwd, dir ?? "/") !== null;
  const out = unit(
    "exec",
    identity,
    display,
    { kind: "argv", argv: u.argv, widen },
    coverable,
    widen ? execWider(u.argv) : [],
    why,
  );
  const rule = !coverable || dangerOf(u) !== null ? ruleFor(u) : null;
  if (rule !== null) out.rule = rule;
  return out;
}

/**
 * The rule that would allow exactly this command, naming what a rule must name (a variable a prefix sets,
 * `interactive`, `sensitive`, `destructive`); null for what no rule can allow (not understood, dynamic) or
 * when the command holds something redaction would hide.
 */
function ruleFor(u: ExecUnit): string | null {
  if (u.dynamic !== null || u.notUnderstood !== undefined || u.words.some((w) => w.value === null))
    return null;
  if (u.prefixes.length > 0 || u.cwd !== ".") return null;
  const parts = [`tool == "bash"`, `command == ${JSON.stringify(u.text)}`];
  for (const c of u.concerns) {
    if (c.mention === null) return null;
    if (c.mention === "interactive" || c.mention === "sensitive" || c.mention === "recursive")
      parts.push(c.mention);
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.mention))
      parts.push(`${JSON.stringify(c.mention)} in prefixes`);
    else if (!u.argv.includes(c.mention)) return null;
  }
  if (u.program === "git" && destructiveGit(u.argv) !== null) parts.push("destructive");
  const condition = [...new Set(parts)].join(" && ");
  const rule = `- {name: ${JSON.stringify(`allow ${u.program}`)}, condition: '${condition.replace(/'/g, "''")}', action: allow}`;
  return redactText(rule) === rule && rule.length <= 600 ? rule : null;
}

/**
 * A file the command reads or writes, by the path bash resolves (`~`, `cd`). An operand of a
 * widenable command inside the workspace may be covered by the command's pattern (`rm *` covers
 * the `x` of `rm -f x`); a redirection never is.
 */
function shellPathUnit(u: PathUnit, owner: GrantUnit | null, cwd: string, home: string | null): GrantUnit {
  const facts = pathFacts(u, cwd, home);
  const path = facts.path;
  if (path === null)
    return unit(
      u.kind,
      "<dynamic>",
      `<unknown path ${u.text}>`,
      null,
      false,
      [],
      "the path is only known when it runs",
    );
  // A recursive read is covered for exactly that tree: where the disk is looked at, a reachable secret is a
  // fact that makes it uncoverable again, so "always" means "while it holds no secret".
  const person =
    facts.sensitive || facts.homeState !== null || !u.recursive ? needsPerson(u, cwd, home) : null;
  const coverable = person === null;
  const s = owner?.subject;
  // A tree is covered exactly, never by its command's wider pattern (`grep *` would cover every tree).
  const inherits =
    coverable && u.operand === true && !u.recursive && facts.inside && s?.kind === "argv" && s.widen;
  const subject: UnitSubject = { kind: "path", path, owner: inherits ? s.argv : null };
  const shown = !u.recursive
    ? path
    : u.kind === "read"
      ? `${path}/** (while it holds no secret)`
      : `${path}/**`;
  return unit(u.kind, path, shown, subject, coverable, inherits && owner ? owner.wider : [], person);
}

/** `[]` for a command that runs no project code; else the pin the companion read, or "unpinned". */
function causalPinFor(
  argv: readonly (string | null)[],
  dir: string | null,
  pins: readonly CausalPin[],
): string[] {
  const runner = causalRunnerOf(argv);
  if (runner === null) return [];
  const found = pins.find((p) => p.dir === dir && p.key === runner.key);
  return [`causal:${found?.pin ?? "unpinned"}`];
}

function shellUnits(
  command: string,
  cwd: string,
  home: string | null,
  pins: readonly CausalPin[],
): GrantUnit[] {
  if (commandTooLarge(command)) {
    return [
      unit(
        "exec",
        `<too large>${command.length}`,
        command.slice(0, 400),
        null,
        false,
        [],
        "the command is too large to judge",
      ),
    ];
  }
  const out: GrantUnit[] = [];
  let owner: GrantUnit | null = null;
  for (const u of analyzeShell(command).units) {
    switch (u.kind) {
      case "exec":
        owner = execUnit(u, cwd, home, pins);
        out.push(owner);
        break;
      case "write":
      case "read":
        out.push(shellPathUnit(u, u.operand === true ? owner : null, cwd, home));
        break;
      case "unparsable":
        owner = null;
        out.push(unit("exec", `<unparsable>${u.text}`, u.text, null, false, [], u.reason));
        break;
    }
  }
  return out;
}

function urlUnit(input: Record<string, unknown>): GrantUnit {
  const method = typeof input.method === "string" ? input.method.toUpperCase() : "GET";
  if (typeof input.url !== "string") {
    const query = typeof input.query === "string" ? input.query : null;
    if (query === null) return unit("http", "<dynamic>", "<dynamic host>", null, false);
    return unit("http", `search ${query}`, `search: ${query}`, null, true);
  }
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return unit("http", `<unparsable>${input.url}`, input.url, null, false);
  }
  // Credentials in the URL make it a different request each time they change; never widen those.
  const plain = url.username === "" && url.password === "";
  const shown = `${method} ${url.origin}${url.pathname}${url.search ? "?…" : ""}`;
  return unit(
    "http",
    `${method} ${url.href}`,
    shown,
    { kind: "url", method, origin: url.origin },
    true,
    plain && (url.protocol === "https:" || url.protocol === "http:") ? urlWider(method, url.origin) : [],
  );
}

function toolUnit(call: ToolCall): GrantUnit {
  let json: string;
  try {
    json = canonicalJson(call.input);
  } catch {
    return unit("tool", `<unserializable>${call.tool}`, call.tool, null, false);
  }
  // An unknown tool is covered only for its exact input.
  const fits = json.length <= MAX_GRANTABLE_INPUT_CHARS;
  return unit("tool", `${call.tool} ${json}`, `${call.tool} ${json.slice(0, 400)}`, null, fits);
}

/** The units of one canonical call (tool already mapped through `tool-names.ts`). */
export function grantUnitsOf(call: ToolCall): GrantUnit[] {
  const capability = capabilityOf(call.tool);
  const cwd = normalizePath(call.cwd);
  switch (capability) {
    case "exec": {
      const command = call.input.command;
      if (typeof command !== "string" || command.trim() === "")
        return [unit("exec", "<dynamic>", "<no command>", null, false)];
      return bound(shellUnits(command, cwd, homeFor(call.cwd, call.home), call.causal ?? []));
    }
    case "read":
    case "write": {
      const path = resolvedPathOf(call) || null;
      const home = homeFor(call.cwd, call.home);
      const u = fileUnit(capability, cwd, path, home);
      // A secret directory's names, or HOME's own state read from a workspace holding HOME: no plain allow
      // rule allows them (secret-listings.ts, home-config.ts), so no grant does.
      const concern =
        path === null
          ? undefined
          : [...toolHomeStateConcerns(call, path, home), ...toolListingConcerns(call, path)][0];
      return [concern === undefined ? u : uncoverable(u, concern.reason)];
    }
    case "http":
      return [urlUnit(call.input)];
    case "session":
    case "ui": {
      const op = call.tool.slice(call.tool.indexOf(".") + 1);
      return [unit(capability, op, op, null, op !== "")];
    }
    default:
      return [toolUnit(call)];
  }
}

/**
 * Distinct units, at most MAX_GRANT_UNITS; a call with more can never be covered (one uncoverable unit).
 * The same unit seen twice is coverable only if it is both times (`sh` fed a script from a pipe is `sh`
 * and a dynamic `sh`).
 */
export function bound(units: GrantUnit[]): GrantUnit[] {
  const byHash = new Map<string, GrantUnit>();
  for (const u of units) {
    const seen = byHash.get(u.hash);
    if (!seen) byHash.set(u.hash, u);
    else if (seen.coverable && !u.coverable) byHash.set(u.hash, uncoverable(seen, u.why ?? ""));
    else if (seen.subject?.kind === "path" && !sameOwner(seen.subject, u.subject)) {
      // A file that is both an operand and a redirection target (or operand of two commands) is
      // covered by its exact path only.
      byHash.set(u.hash, { ...seen, wider: [], subject: { ...seen.subject, owner: null } });
    }
  }
  const out = [...byHash.values()];
  if (out.length <= MAX_GRANT_UNITS) return out;
  return [
    ...out.slice(0, MAX_GRANT_UNITS),
    unit(
      "exec",
      "<too many units>",
      `… ${out.length - MAX_GRANT_UNITS} more parts`,
      null,
      false,
      [],
      "the call has too many parts to grant",
    ),
  ];
}

function sameOwner(a: UnitSubject, b: UnitSubject | null): boolean {
  if (a.kind !== "path" || b?.kind !== "path") return false;
  return a.owner !== null && b.owner !== null && quoteArgv(a.owner) === quoteArgv(b.owner);
}

/** The part of a unit that may be stored (the hub keeps it per call to build grants when a person answers). */
export function storedUnit(u: GrantUnit): StoredUnit {
  const out: StoredUnit = {
    capability: u.capability,
    hash: u.hash,
    display: u.display,
    coverable: u.coverable,
    wider: u.wider,
  };
  if (u.why !== undefined) out.why = u.why;
  if (u.rule !== undefined) out.rule = u.rule;
  return out;
}
