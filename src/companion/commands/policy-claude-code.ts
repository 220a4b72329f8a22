// Translating Claude Code `permissions.allow/ask/deny` rules into an Airlock permissions config.
// Claude Code applies deny before ask before allow; emitting the groups in that order under
// first-match evaluation keeps the same precedence.
import { dirname, resolve } from "node:path";

export interface ClaudePermissions {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

interface OutRule {
  name: string;
  condition: string;
  action: "allow" | "ask" | "deny";
}

const READ_TOOLS = '["read", "grep", "find", "ls"]';
const EDIT_TOOLS = '["write", "edit"]';
const TOOL_NAMES: Record<string, string> = {
  Bash: "bash",
  Read: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  Grep: "grep",
  Glob: "find",
  LS: "ls",
  WebFetch: "webfetch",
  WebSearch: "websearch",
};

function cel(s: string): string {
  return JSON.stringify(s);
}

function regexEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** gitignore-style glob → regex body: `**` any depth, `*` and `?` within a segment. */
function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
      if (glob[i + 1] === "/") i++;
    } else if (ch === "*") out += "[^/]*";
    else if (ch === "?") out += "[^/]";
    else out += regexEscape(ch);
  }
  return out;
}

/**
 * Claude Code path patterns: `//abs` is absolute, `~/x` is in the home directory, `/x` is
 * relative to the settings file's project, `./x` or `x` relative to the working directory.
 */
function pathCondition(pattern: string, projectRoot: string): string {
  if (pattern.startsWith("//")) return `path.matches(${cel(`^${globToRegex(pattern.slice(1))}$`)})`;
  if (pattern.startsWith("~/"))
    return `path.matches(${cel(`^/(home/[^/]+|Users/[^/]+|root)/${globToRegex(pattern.slice(2))}$`)})`;
  if (pattern.startsWith("/"))
    return `path.matches(${cel(`^${regexEscape(projectRoot)}/${globToRegex(pattern.slice(1))}$`)})`;
  const rel = pattern.replace(/^\.\//, "");
  // cwd is only known at run time, so the pattern is matched against the part of path under it.
  return `path.startsWith(cwd + "/") && path.substring(size(cwd) + 1).matches(${cel(`^${globToRegex(rel)}$`)})`;
}

function bashCondition(spec: string): string {
  if (spec.endsWith(":*")) {
    const prefix = spec.slice(0, -2);
    return `(command == ${cel(prefix)} || command.startsWith(${cel(prefix)}))`;
  }
  if (spec.includes("*")) {
    const re = spec.split("*").map(regexEscape).join(".*");
    return `command.matches(${cel(`^${re}$`)})`;
  }
  return `command == ${cel(spec)}`;
}

/** One Claude Code rule → a condition, or an error saying why it cannot be expressed. */
export function translateRule(rule: string, projectRoot: string): { condition: string } | { error: string } {
  const m = /^([A-Za-z0-9_.-]+)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!m?.[1]) return { error: `not a Claude Code permission rule: ${rule}` };
  const tool = m[1];
  const spec = m[2];
  if (tool.startsWith("mcp__")) {
    const parts = tool.split("__");
    if (parts.length === 2 || parts[2] === "*")
      return { condition: `tool.startsWith(${cel(`mcp__${parts[1]}__`)})` };
    return { condition: `tool == ${cel(tool)}` };
  }
  const mapped = TOOL_NAMES[tool];
  if (!mapped) return { condition: `tool == ${cel(tool)}` };
  if (spec === undefined || spec === "" || spec === "*") {
    if (tool === "Read") return { condition: `tool in ${READ_TOOLS}` };
    if (tool === "Edit" || tool === "Write") return { condition: `tool in ${EDIT_TOOLS}` };
    return { condition: `tool == ${cel(mapped)}` };
  }
  switch (tool) {
    case "Bash":
      return { condition: `tool == "bash" && ${bashCondition(spec)}` };
    case "Read":
    case "Grep":
    case "Glob":
    case "LS":
      return { condition: `tool in ${READ_TOOLS} && ${pathCondition(spec, projectRoot)}` };
    case "Edit":
    case "Write":
    case "MultiEdit":
    case "NotebookEdit":
      return { condition: `tool in ${EDIT_TOOLS} && ${pathCondition(spec, projectRoot)}` };
    case "WebFetch": {
      const d = /^domain:(.+)$/.exec(spec);
      if (!d?.[1]) return { error: `WebFetch rules must be domain:HOST, got ${rule}` };
      const host = d[1].startsWith("*.") ? `([^/:]+\\.)?${regexEscape(d[1].slice(2))}` : regexEscape(d[1]);
      return { condition: `tool == "webfetch" && args.url.matches(${cel(`^https?://${host}([:/?#]|$)`)})` };
    }
    default:
      return { error: `cannot translate the specifier of ${rule}` };
  }
}

export interface Translation {
  config: {
    version: 1;
    default_action: "ask";
    rules: { name: string; condition: string; rules: OutRule[] }[];
  };
  errors: string[];
}

/** The settings file's project root: the parent of `.claude/`, else the file's directory. */
export function projectRootOf(settingsPath: string): string {
  const dir = dirname(resolve(settingsPath));
  return dir.endsWith("/.claude") ? dirname(dir) : dir;
}

export function translateClaudePermissions(perms: ClaudePermissions, projectRoot: string): Translation {
  const errors: string[] = [];
  const groups: Translation["config"]["rules"] = [];
  for (const action of ["deny", "ask", "allow"] as const) {
    const rules: OutRule[] = [];
    for (const rule of perms[action] ?? []) {
      const t = translateRule(rule, projectRoot);
      if ("error" in t) errors.push(t.error);
      else rules.push({ name: rule, condition: t.condition, action });
    }
    if (rules.length > 0) groups.push({ name: `Claude Code ${action}`, condition: "true", rules });
  }
  return { config: { version: 1, default_action: "ask", rules: groups }, errors };
}
