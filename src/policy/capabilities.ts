// Capability and risk for a tool call, per the capability-prompt rubric: a base risk per
// capability, raised (never lowered) by scope escalators, and the scopes a prompt shows.

import { isProtectedWriteAt, toolHomeStateConcerns } from "./home-config.ts";
import { clip, commandTooLarge } from "./limits.ts";
import { Lru } from "./lru.ts";
import { basename, homeFor, kernelJoin, normalizePath, relativeInside, resolvePath } from "./paths.ts";
import { redactText, summarizeUrl } from "./redact.ts";
import { isSecretPath } from "./secret-paths.ts";
import { analyzeShell } from "./shell/analysis.ts";
import type { DiskLook } from "./shell/disk-settled.ts";
import { redactedText } from "./shell/redacted.ts";
import { shellRisk } from "./shell/risk.ts";
import type { Capability, Risk, Scope, ToolCall } from "./types.ts";

export const READ_TOOLS: ReadonlySet<string> = new Set(["read", "grep", "find", "ls"]);
export const WRITE_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);
export const CANONICAL_TOOLS: readonly string[] = [
  "read",
  "write",
  "edit",
  "bash",
  "grep",
  "find",
  "ls",
  "webfetch",
];
export const DYNAMIC = "<dynamic>";

const BASE_RISK: Record<Capability, Risk> = {
  exec: "high",
  write: "high",
  http: "medium",
  read: "medium",
  tool: "medium",
  session: "low",
  ui: "low",
};

const JUSTIFICATION: Record<Capability, string> = {
  exec: "exec can run arbitrary commands",
  write: "write can modify or destroy files",
  http: "http can send data off this machine",
  read: "read can expose file contents",
  tool: "an unknown tool with unknown effects",
  session: "session metadata only",
  ui: "user interaction only",
};

export interface Classification {
  capability: Capability;
  risk: Risk;
  justification: string;
  scopes: Scope[];
}

export function capabilityOf(tool: string): Capability {
  if (READ_TOOLS.has(tool)) return "read";
  if (WRITE_TOOLS.has(tool)) return "write";
  if (tool === "bash") return "exec";
  if (tool === "webfetch") return "http";
  if (tool.startsWith("session.")) return "session";
  if (tool.startsWith("ui.")) return "ui";
  return "tool";
}

function raise(risk: Risk): Risk {
  return risk === "low" ? "medium" : "high";
}

/** The path argument: Pi's `path` or Claude Code's `file_path`; null when present but not a string. */
export function inputPath(input: Record<string, unknown>): string | null | undefined {
  const v = input.path ?? input.file_path;
  if (v === undefined) return undefined;
  return typeof v === "string" && v !== "" ? v : null;
}

// Pi's path normalisation: Unicode spaces become spaces, a leading `@` (a file mention) is
// dropped, `~` and `~/…` are the home directory, and `file://` URLs are decoded.
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * The absolute path an agent's file tool opens for `p`, as Pi expands it; null when not knowable. With
 * `kernel`, a `..` after a named segment is kept for the disk to resolve (see kernelJoin); with `as-given`,
 * Unicode spaces are kept, as Claude Code opens the name.
 */
export function expandToolPath(
  p: string,
  cwd: string,
  home: string | null,
  kernel = false,
  spaces: "pi" | "as-given" = "pi",
): string | null {
  const join = kernel ? kernelJoin : resolvePath;
  let s = spaces === "pi" ? p.replace(UNICODE_SPACES, " ") : p;
  if (s.startsWith("@")) s = s.slice(1);
  if (s === "~" || s.startsWith("~/")) return home === null ? null : join(home, s.slice(2) || ".");
  // `~user/…` is another user's home to a shell, and a plain directory name to Pi: not knowable.
  if (s.startsWith("~")) return null;
  // `file:/abs` (one slash) is a relative name to a path join, but `/abs` to a tool that parses URLs
  // (new URL, fileURLToPath): which one the tool opens is not known.
  if (/^file:(?!\/\/)/i.test(s)) return null;
  if (/^file:\/\//i.test(s)) {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return null;
    }
    if ((url.hostname !== "" && url.hostname !== "localhost") || /%2f|%00/i.test(url.pathname)) return null;
    try {
      return normalizePath(decodeURIComponent(url.pathname));
    } catch {
      return null;
    }
  }
  return join(normalizePath(cwd), s);
}

/** The absolute path a file tool touches ("" for tools without one); search tools default to cwd. */
export function resolvedPathOf(call: ToolCall, home: string | null = homeFor(call.cwd, call.home)): string {
  const cap = capabilityOf(call.tool);
  if (cap !== "read" && cap !== "write") return "";
  const p = inputPath(call.input);
  if (p === null) return "";
  if (p === undefined)
    return call.tool === "read" || WRITE_TOOLS.has(call.tool) ? "" : normalizePath(call.cwd);
  return expandToolPath(p, call.cwd, home) ?? "";
}

export function pathScope(cwd: string, abs: string | null): Scope {
  if (abs === null || abs === "") return { kind: "path", summary: DYNAMIC, group: DYNAMIC };
  const rel = relativeInside(cwd, abs);
  const summary = redactText(rel ?? abs);
  if (rel === null) {
    const top = abs.split("/").filter(Boolean)[0];
    return { kind: "path", summary, group: top ? `/${top}/**` : "/" };
  }
  const segs = rel.split("/");
  return { kind: "path", summary, group: segs.length > 1 ? `${segs[0]}/**` : "." };
}

function hostDeclared(host: string, declared: readonly string[]): boolean {
  return declared.some((d) => {
    const pattern = d.toLowerCase();
    if (pattern.startsWith("*.")) return host === pattern.slice(2) || host.endsWith(pattern.slice(1));
    return host === pattern;
  });
}

// Redacting and splitting a command is pure per command string; agents repeat commands a lot.
const commandScopeCache = new Lru<string, Scope[]>(2048);

function commandScopes(command: string): Scope[] {
  const hit = commandScopeCache.get(command);
  if (hit) return hit.map((s) => ({ ...s }));
  const scopes = computeCommandScopes(command);
  if (command.length <= 16_384) commandScopeCache.set(command, scopes);
  return scopes.map((s) => ({ ...s }));
}

function computeCommandScopes(command: string): Scope[] {
  // Never parse or redact megabytes: the scope of a command too large to judge is its clipped start.
  if (commandTooLarge(command))
    return [{ kind: "command", summary: clip(redactText(command.slice(0, 1024))), group: DYNAMIC }];
  const summary = redactText(command.replace(/\s+/g, " ").trim());
  const analysis = analyzeShell(command);
  const execs = analysis.units.filter((u) => u.kind === "exec");
  const first = execs[0];
  const unparsable = analysis.units.some((u) => u.kind === "unparsable");
  const group = first && first.dynamic === null && !unparsable ? basename(first.argv[0] ?? DYNAMIC) : DYNAMIC;
  const scopes: Scope[] = [{ kind: "command", summary: summary === "" ? DYNAMIC : summary, group }];
  const seen = new Set<string>([summary]);
  for (const u of execs) {
    const s = redactedText(u);
    if (seen.has(s)) continue;
    seen.add(s);
    scopes.push({
      kind: "command",
      summary: s,
      group: u.dynamic === null ? basename(u.argv[0] ?? DYNAMIC) : DYNAMIC,
    });
  }
  return scopes;
}

function toolSummary(call: ToolCall): string {
  let params = "";
  try {
    params = JSON.stringify(call.input) ?? "";
  } catch {
    params = "";
  }
  const text = params && params !== "{}" ? `${call.tool} ${params}` : call.tool;
  return redactText(text.length > 200 ? `${text.slice(0, 199)}…` : text);
}

/** `disk`: how the caller decides the call (decide.ts), so a bash call's risk lowers with what the disk settled. */
export function classify(
  call: ToolCall,
  opts: { declaredHosts?: string[]; disk?: DiskLook } = {},
): Classification {
  const capability = capabilityOf(call.tool);
  const cwd = normalizePath(call.cwd);
  let risk = BASE_RISK[capability];
  let justification = JUSTIFICATION[capability];
  let scopes: Scope[];
  switch (capability) {
    case "read":
    case "write": {
      const home = homeFor(call.cwd, call.home);
      const abs = resolvedPathOf(call, home);
      const scope = pathScope(cwd, abs === "" ? null : abs);
      scopes = [scope];
      // Reads inside the workspace are read-only inspection; writes there are reversible.
      const inside = abs !== "" && relativeInside(cwd, abs) !== null;
      if (scope.summary === DYNAMIC) risk = "high";
      else if (capability === "read" && isSecretPath(abs)) {
        risk = "high";
        justification = "the path looks like a secret";
      } else if (toolHomeStateConcerns(call, abs, home).length > 0) {
        risk = "high";
        justification = "reads the home directory's own state (keys, sessions, histories)";
      } else if (capability === "write" && isProtectedWriteAt(abs, home)) {
        risk = "high";
        justification = "the file holds secrets or decides what runs";
      } else if (capability === "read") {
        risk = inside ? "low" : "medium";
        justification = inside ? "reads a file in the workspace" : "reads a file outside the workspace";
      } else {
        risk = inside ? "medium" : "high";
        justification = inside ? "writes a file in the workspace" : "writes outside the workspace";
      }
      break;
    }
    case "exec": {
      const command = call.input.command;
      if (typeof command === "string" && command.trim() !== "") {
        scopes = commandScopes(command);
        const home = homeFor(call.cwd, call.home);
        ({ risk, justification } = shellRisk(analyzeShell(command).units, cwd, home, opts.disk));
      } else {
        scopes = [{ kind: "command", summary: DYNAMIC, group: DYNAMIC }];
      }
      break;
    }
    case "http": {
      const url = typeof call.input.url === "string" ? summarizeUrl(call.input.url) : null;
      if (url === null) {
        scopes = [{ kind: "host", summary: DYNAMIC, group: DYNAMIC }];
        risk = "high";
      } else {
        const method = typeof call.input.method === "string" ? call.input.method.toUpperCase() : "GET";
        scopes = [{ kind: "host", summary: `${method} ${url.summary}`, group: url.host }];
        if (!hostDeclared(url.host, opts.declaredHosts ?? [])) {
          risk = "high";
          justification = `${url.host} is outside the declared hosts`;
        }
      }
      break;
    }
    case "session":
    case "ui": {
      const op = call.tool.slice(call.tool.indexOf(".") + 1);
      scopes = [{ kind: "operation", summary: op || DYNAMIC, group: op || DYNAMIC }];
      if (!op) risk = raise(risk);
      break;
    }
    default:
      scopes = [{ kind: "tool", summary: toolSummary(call), group: call.tool }];
  }
  return { capability, risk, justification, scopes };
}
