// What the companion must look at on disk for one canonical call: the files a file tool opens, the
// tree a search tool walks, and for a shell command every path its units read or write (globs kept
// as patterns), every tree a recursive reader walks, every directory `cd` enters and every directory
// git starts its repository discovery from. Pure: the looking is the companion's (guards/disk-view.ts).
import type { DiskTarget } from "./call-facts.ts";
import { expandToolPath, inputPath } from "./capabilities.ts";
import { checksumTargets } from "./checksum-targets.ts";
import { copyTargets } from "./copy-targets.ts";
import { RUN_BY } from "./env-loads.ts";
import { gitTargets } from "./git-targets.ts";
import { linterConfigTargets } from "./linter-configs.ts";
import { nodeTargets } from "./node-runners.ts";
import { findingWalks, nameWalks, optionGlobTargets, scriptTargets } from "./operand-targets.ts";
import { writtenTextOf } from "./package-hooks.ts";
import {
  cargoWorkspaceTargets,
  goModuleTargets,
  npmConfigTargets,
  npxTargets,
  pythonStartTargets,
} from "./package-targets.ts";
import { basename, homeFor, normalizePath, resolveShellDir, resolveShellPath } from "./paths.ts";
import { programTargets } from "./program-targets.ts";
import { runnerTargets } from "./runner-targets.ts";
import { listingTargets } from "./secret-listings.ts";
import { analyzeShell } from "./shell/analysis.ts";
import { loopbackRequest } from "./shell/grammar/programs/curl.ts";
import type { ExecUnit, ShellUnit } from "./shell/units.ts";
import type { ToolCall } from "./types.ts";
import { pickerTargets, upwardTargets, versionFileTargets } from "./upward-targets.ts";
import { versionQueryPickers } from "./version-query-pickers.ts";
import { searchToolStyle, WIDEST, walkStyleOf } from "./walk-styles.ts";
import { afterChange, changesOf, type EarlierChange, joinChange } from "./written-first.ts";

const MAX_TARGETS = 256;

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** A working directory with a word bash's `cd` reads as an option (`cd --` goes home, `cd -` back). */
function optionLikeDir(cwd: string | null): boolean {
  return cwd?.split("/").some((s) => s.startsWith("-")) === true;
}

/** Bash's `cd` target word (options and `--` skipped); undefined for a bare `cd` (home). */
function cdWord(unit: ExecUnit): { value: string | null } | undefined {
  let i = 1;
  while (i < unit.words.length) {
    const v = unit.words[i]?.value;
    if (v === "--") {
      i++;
      break;
    }
    if (v === undefined || v === null || !/^-[LPe@]+$/.test(v)) break;
    i++;
  }
  const w = unit.words[i];
  return w === undefined ? undefined : { value: w.tilde ? null : w.value };
}

/**
 * A unit once per directory it may run in (`cd D; ls`: the cd may fail), so each is looked at as the one
 * directory of `cd D && ls` is.
 */
function eachDir(unit: ShellUnit): ShellUnit[] {
  if (unit.kind !== "exec" || unit.dirs === undefined) return [unit];
  return unit.dirs.map((cwd) => ({ ...unit, cwd }));
}

function shellTargets(command: string, callCwd: string, home: string | null): DiskTarget[] {
  const units = analyzeShell(command).units.flatMap(eachDir);
  const out: DiskTarget[] = [];
  let lastExec: ExecUnit | undefined;
  const cds: ExecUnit[] = [];
  const written: string[] = [];
  // Where each unit's targets start in `out`, with what the commands before it may have changed
  // (written-first.ts): a program's operands follow it and are its own, as is what it runs itself (`python -m
  // pytest`'s pytest, with `via`); its redirections come before it.
  const marks: { at: number; change: EarlierChange | undefined }[] = [];
  const changes = changesOf(units, callCwd, home);
  let before: EarlierChange | undefined;
  let pending: EarlierChange | undefined;
  for (const [i, unit] of units.entries()) {
    if (unit.kind === "exec" && unit.via === undefined) {
      before = joinChange(before, pending);
      pending = undefined;
    }
    marks.push({ at: out.length, change: before });
    pending = joinChange(pending, changes[i]);
    if (out.length >= MAX_TARGETS) {
      out.push({
        kind: "unknown",
        shown: command.slice(0, 80),
        reason: "the command names too many paths to check",
      });
      break;
    }
    if (unit.kind === "unparsable") continue;
    if (unit.cwd !== null && /[*?[]/.test(unit.cwd)) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: "it runs after a `cd` into a glob, which bash expands to a directory not known here",
      });
      continue;
    }
    if (optionLikeDir(unit.cwd)) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: "it runs after a `cd` whose word bash reads as an option (`cd --` goes home, `cd -` back)",
      });
      continue;
    }
    if (unit.kind === "exec") {
      out.push(...programTargets(unit, lastExec, callCwd, home, written, out));
      lastExec = unit;
      // What the agent's environment makes this program run (GIT_PAGER for git) is the disk's to see.
      if (RUN_BY.has(basename(unit.program)))
        out.push({ kind: "env-runs", program: basename(unit.program), shown: unit.text });
      if (unit.program === "cd" || unit.program === "pushd") {
        cds.push(unit);
        const word = cdWord(unit);
        const base = resolveShellDir(unit.cwd, callCwd, home);
        if (word?.value && base !== null && !word.value.startsWith("/"))
          out.push({ kind: "cd", dir: normalizePath(`${base}/${word.value}`), shown: unit.text });
      } else if (unit.program === "git") out.push(...gitTargets(unit, cds, callCwd, home));
      else
        out.push(
          ...listingTargets(unit, callCwd, home),
          ...nameWalks(unit, callCwd, home),
          ...copyTargets(unit, callCwd, home),
          ...checksumTargets(unit, callCwd, home),
          ...loopbackTargets(unit),
          ...findingWalks(unit, callCwd, home),
          ...optionGlobTargets(unit, callCwd, home),
          ...scriptTargets(unit, callCwd, home),
          ...pickerTargets(unit, callCwd, home),
          ...versionQueryPickers(unit, callCwd, home),
          ...goModuleTargets(unit, callCwd, home),
          ...cargoWorkspaceTargets(unit, callCwd, home),
          ...pythonStartTargets(unit, callCwd, home),
          ...(unit.program === "man" ? [{ kind: "man-path" as const, shown: unit.text }] : []),
          ...(/(^|\/)java$/.test(unit.program) ? [{ kind: "jvm-env" as const, shown: unit.text }] : []),
          ...npxTargets(unit, callCwd, home),
          ...npmConfigTargets(unit, callCwd, home),
          ...upwardTargets(unit, callCwd, home),
          ...nodeTargets(unit, callCwd, home),
          ...runnerTargets(unit, callCwd, home),
          ...linterConfigTargets(unit, callCwd, home),
          ...versionFileTargets(unit, callCwd, home, out),
        );
      continue;
    }
    const path = resolveShellPath(unit, callCwd, home);
    // An unknown path already needs a person; there is nothing on disk to look at.
    if (path === null) continue;
    if (unit.tracked !== undefined) {
      out.push({ kind: "tracked", dir: path, ...unit.tracked, shown: unit.text });
      continue;
    }
    if (unit.kind === "write") written.push(path);
    if (unit.recursive) {
      const style =
        unit.walk ?? (unit.operand && lastExec ? walkStyleOf(lastExec.program, lastExec.argv) : WIDEST);
      out.push({
        kind: "walk",
        root: path,
        style,
        shown: unit.text,
        ...(unit.glob ? { glob: true as const } : {}),
      });
      // A tree written whole (mv's operands, `cp -r`'s target) is a write of the path itself too: the disk's
      // write facts (a file the user's configuration names, a link into HOME's start-up files) apply to it.
      if (unit.kind === "write")
        out.push({ kind: "path", access: "write", path, glob: unit.glob, shown: unit.text });
    } else
      out.push({
        kind: "path",
        access: unit.kind,
        path,
        glob: unit.glob,
        shown: unit.text,
        ...(unit.pathspec === true ? { pathspec: true as const } : {}),
        ...(unit.entries === true ? { entries: true as const } : {}),
        ...(unit.opens === true ? { opens: true as const } : {}),
        // What a shell write leaves (a redirection's text, a copy's source) is not read here: a package.json
        // written so may set a git-hook manager's settings (package-hooks.ts), which then ask. touch, mkdir and
        // chmod put no text in what they name.
        ...(unit.kind === "write" && !(unit.operand && CONTENTLESS.has(basename(lastExec?.program ?? "")))
          ? { writes: { unknown: true as const } }
          : {}),
        ...(unit.kind === "write" && unit.operand && basename(lastExec?.program ?? "") === "chmod"
          ? { modes: true as const }
          : {}),
      });
  }
  return out.map((t, i) => afterChange(t, marks.findLast((m) => m.at <= i)?.change));
}

/** A loopback GET (curl): which program serves its port is the disk's to see. */
function loopbackTargets(unit: ExecUnit): DiskTarget[] {
  if (unit.program !== "curl" || unit.notUnderstood !== undefined) return [];
  const r = loopbackRequest(unit.words.slice(1).map((w) => w.value));
  return "port" in r ? [{ kind: "loopback", port: r.port, shown: unit.text }] : [];
}

const WILD = /[*?[{\\]/;

/** Programs whose writes are names, times and modes, never text (an existing file keeps its bytes). */
const CONTENTLESS = new Set(["touch", "mkdir", "chmod"]);

/**
 * The directory a file-name search (Glob) lists, as LS would be given it: its `path` joined with the
 * pattern's fixed leading directories (`homelink/*` lists homelink). A link out on that way is then
 * found as it is for LS, Grep and Read (red team, round 11). Undefined when it is the session's directory.
 */
function globDirectory(path: string | undefined, pattern: string | undefined): string | undefined {
  const segments = (pattern ?? "").split("/");
  const wildAt = segments.findIndex((seg) => WILD.test(seg));
  const fixed = (wildAt < 0 ? segments.slice(0, -1) : segments.slice(0, wildAt)).filter((seg) => seg !== "");
  if (fixed.length === 0) return path;
  return path === undefined ? fixed.join("/") : `${path}/${fixed.join("/")}`;
}

/**
 * Every absolute path a file tool may open for the name it is given (red team, round 14): Pi's (Unicode spaces
 * made spaces) and Claude Code's (the name as given); for a read or an edit, also the spellings each falls
 * back to when the named file is missing: the macOS screenshot name (U+202F before `AM.`/`PM.`, Pi and Claude
 * Code), the NFD form and a curly apostrophe (Pi). A spelling that does not exist adds nothing on the disk.
 */
function toolSpellings(given: string, cwd: string, home: string | null, fallbacks: boolean): string[] {
  const bases = [
    expandToolPath(given, cwd, home, true),
    expandToolPath(given, cwd, home, true, "as-given"),
  ].filter((p): p is string => p !== null);
  const out = new Set(bases);
  if (fallbacks)
    for (const p of bases) {
      out.add(p.replace(/ (AM|PM)\./g, "\u202f$1."));
      out.add(p.normalize("NFD"));
      out.add(p.replace(/'/g, "\u2019"));
      out.add(p.normalize("NFD").replace(/'/g, "\u2019"));
    }
  return [...out];
}

/** The disk targets of one canonical call (after the tool-name table). */
export function diskTargetsOf(call: ToolCall): DiskTarget[] {
  const home = homeFor(call.cwd, call.home);
  const cwd = normalizePath(call.cwd);
  const { tool, input } = call;
  if (tool === "bash") {
    const command = str(input.command);
    return command === undefined
      ? []
      : [{ kind: "shell-start", shown: command.slice(0, 80) }, ...shellTargets(command, cwd, home)];
  }
  const raw = tool === "find" ? globDirectory(str(input.path), str(input.pattern)) : inputPath(input);
  const given = typeof raw === "string" ? raw : undefined;
  // As the kernel will walk it: `lnk/../x` is beside lnk's target, not `x` here.
  const path = given === undefined ? cwd : expandToolPath(given, cwd, home, true);
  if (path === null) return [];
  const shown = given ?? ".";
  if (
    given !== undefined &&
    (tool === "read" || tool === "ls" || tool === "find" || tool === "write" || tool === "edit")
  ) {
    const access = tool === "write" || tool === "edit" ? "write" : "read";
    const writes = access === "write" ? { writes: writtenTextOf(tool, input) } : {};
    return toolSpellings(given, cwd, home, tool === "read" || tool === "edit").map((p) => ({
      kind: "path",
      access,
      path: p,
      glob: false,
      shown,
      ...writes,
    }));
  }
  if (tool === "read" || tool === "ls" || tool === "find" || tool === "write" || tool === "edit") return [];
  // Airlock's own MCP grep opens every file through the companion's guard (no secret, no hard link, no
  // link out), so what it walks reaches nothing the walk would find; every other search tool is walked.
  if (tool === "grep")
    return call.agent?.startsWith("mcp:")
      ? []
      : [{ kind: "walk", root: path, style: searchToolStyle(str(input.glob)), shown }];
  return [];
}
