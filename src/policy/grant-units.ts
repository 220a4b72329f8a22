// The judged units of a call, as grants see them: each simple command and redirected file of a shell
// command, the path of a file tool, the URL of a fetch, the exact input of any other tool. A grant covers
// a call only if it covers every unit; a unit whose meaning is not static can never be covered by an allow.
import { canonicalJson, sha256Hex } from "./call-binding.ts";
import { capabilityOf, resolvedPathOf } from "./capabilities.ts";
import { execWider, pathWider, quoteArgv, urlWider } from "./grant-patterns.ts";
import { clip, commandTooLarge, MAX_GRANT_UNITS, MAX_GRANTABLE_INPUT_CHARS } from "./limits.ts";
import { normalizePath, resolvePath } from "./paths.ts";
import { redactText } from "./redact.ts";
import { analyzeShell } from "./shell-analysis.ts";
import type { Capability, ToolCall } from "./types.ts";

/** What a wider pattern is matched against; kept in memory only (it may hold secrets), never stored. */
export type UnitSubject =
  | { kind: "argv"; argv: readonly string[] }
  | { kind: "path"; path: string }
  | { kind: "url"; method: string; origin: string };

/** The stored part of a unit: no raw text, only a hash, a redacted display and the offered patterns. */
export interface StoredUnit {
  capability: Capability;
  /** sha256 of the unit's exact identity (`exec:git status`, `read:/abs/path` …): what an exact grant keeps. */
  hash: string;
  /** What a person sees: redacted and clipped. */
  display: string;
  /** False when no allow grant may ever cover it (dynamic, unparsable, unknown target, too large). */
  coverable: boolean;
  /** Wider patterns a person may pick instead of the exact one (never spanning read-only and mutating). */
  wider: string[];
}

export interface GrantUnit extends StoredUnit {
  subject: UnitSubject | null;
}

/** Words the shell expands at run time: a command containing them means something else each time. */
const EXPANDS = /[$`]/;

function unit(
  capability: Capability,
  identity: string,
  shown: string,
  subject: UnitSubject | null,
  coverable: boolean,
  wider: string[] = [],
): GrantUnit {
  return {
    capability,
    hash: sha256Hex(`${capability}:${identity}`),
    display: clip(redactText(shown)),
    coverable,
    wider: coverable ? wider : [],
    subject,
  };
}

function fileUnit(capability: "read" | "write", cwd: string, path: string | null): GrantUnit {
  if (path === null || path === "") return unit(capability, "<dynamic>", "<dynamic path>", null, false);
  return unit(capability, path, path, { kind: "path", path }, true, pathWider(path, cwd));
}

function shellUnits(command: string, cwd: string): GrantUnit[] {
  if (commandTooLarge(command)) {
    return [unit("exec", `<too large>${command.length}`, command.slice(0, 400), null, false)];
  }
  const out: GrantUnit[] = [];
  for (const u of analyzeShell(command).units) {
    switch (u.kind) {
      case "exec": {
        const text = quoteArgv(u.argv);
        const coverable = u.dynamic === null && !u.argv.some((w) => EXPANDS.test(w));
        out.push(unit("exec", text, text, { kind: "argv", argv: u.argv }, coverable, execWider(u.argv)));
        break;
      }
      case "write":
      case "read":
        out.push(fileUnit(u.kind, cwd, u.path === null ? null : resolvePath(cwd, u.path)));
        break;
      case "unparsable":
        out.push(unit("exec", `<unparsable>${u.text}`, u.text, null, false));
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
      return bound(shellUnits(command, cwd));
    }
    case "read":
    case "write":
      return [fileUnit(capability, cwd, resolvedPathOf(call) || null)];
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
    else if (seen.coverable && !u.coverable) byHash.set(u.hash, { ...seen, coverable: false, wider: [] });
  }
  const out = [...byHash.values()];
  if (out.length <= MAX_GRANT_UNITS) return out;
  return [
    ...out.slice(0, MAX_GRANT_UNITS),
    unit("exec", "<too many units>", `… ${out.length - MAX_GRANT_UNITS} more parts`, null, false),
  ];
}

/** The part of a unit that may be stored (the hub keeps it per call to build grants when a person answers). */
export function storedUnit(u: GrantUnit): StoredUnit {
  return {
    capability: u.capability,
    hash: u.hash,
    display: u.display,
    coverable: u.coverable,
    wider: u.wider,
  };
}
