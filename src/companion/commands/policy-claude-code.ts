// Translating Claude Code `permissions` (allow/ask/deny, defaultMode, additionalDirectories) into an Airlock config
// that decides as Claude Code does, and never more loosely: where Claude Code's meaning cannot be expressed, an allow
// is dropped and a deny or ask is widened to the whole tool, each with a warning. Claude Code applies deny before ask
// before allow; emitting the groups in that order under first-match evaluation keeps the same precedence.
import { homedir } from "node:os";
import { dirname, resolve } from "node:path";

export interface ClaudePermissions {
  allow?: string[];
  ask?: string[];
  deny?: string[];
  defaultMode?: string;
  additionalDirectories?: string[];
}

type Action = "allow" | "ask" | "deny";

interface OutRule {
  name: string;
  condition: string;
  action: Action;
}

/** One rule's translation: a condition, or none (a dropped allow), plus what a person should know. */
interface RuleOutcome {
  condition?: string;
  warning?: string;
}

const READ_TOOLS = '["read", "grep", "find", "ls"]';
const EDIT_TOOLS = '["write", "edit"]';
/** Claude Code tools that map onto Airlock's own names (src/companion/adapters/claude-code/tools.ts). */
const SIMPLE_TOOLS: Record<string, string> = {
  TodoWrite: 'tool == "session.todo_write"',
  Task: 'tool == "session.subagent"',
  Agent: 'tool == "session.subagent"',
  TaskCreate: 'tool == "session.task_create"',
  TaskGet: 'tool == "session.task_get"',
  TaskUpdate: 'tool == "session.task_update"',
  TaskList: 'tool == "session.task_list"',
  TaskStop: 'tool == "session.task_stop"',
  EnterPlanMode: 'tool == "ui.enter_plan_mode"',
  ExitPlanMode: 'tool == "ui.exit_plan_mode"',
  AskUserQuestion: 'tool == "ui.ask_user_question"',
  // A web search carries a query, never a URL: the webfetch calls without one.
  WebSearch: 'tool == "webfetch" && !has(args.url)',
};

const cel = (s: string) => JSON.stringify(s);
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const stricter = (action: Action) => action !== "allow";

// ---- paths (gitignore patterns with Claude Code's four roots) ------------------------------------------------

/** A gitignore glob → regex body: `**` any depth (`**\/` zero or more folders), `*` and `?` within a segment. */
function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") {
        i++;
        out += "(.*/)?";
      } else out += ".*";
    } else if (ch === "*") out += "[^/]*";
    else if (ch === "?") out += "[^/]";
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else out += regexEscape(ch);
  }
  return out;
}

/**
 * The regex (over the path below `base`) for a gitignore pattern: a pattern with a slash before its end is anchored
 * to `base`, one without matches at any depth; a match on a folder covers what is inside it. For an allow rule the
 * contents are covered only when the pattern says so (`dir/**`): where Claude Code's reach is unclear, narrower.
 */
function relativeRegex(pattern: string, action: Action): string {
  const dirOnly = pattern.endsWith("/");
  const body = pattern.replace(/\/+$/, "");
  const anchored = body.includes("/");
  const glob = globToRegex(body.replace(/^\/+/, ""));
  const inside = dirOnly ? "/.*" : stricter(action) ? "(/.*)?" : "";
  return `^${anchored ? "" : "(.*/)?"}${glob}${inside}$`;
}

function pathCondition(pattern: string, action: Action, projectRoot: string, home: string): string {
  let base: string | undefined;
  let rest = pattern;
  if (pattern.startsWith("//")) {
    base = "";
    rest = pattern.slice(2);
    // `//abs/…` is anchored at the root whatever its shape.
    return `path.matches(${cel(`^/${globToRegex(rest)}${stricter(action) ? "(/.*)?" : ""}$`)})`;
  }
  if (pattern.startsWith("~/")) {
    base = home;
    rest = pattern.slice(2);
  } else if (pattern.startsWith("/")) {
    base = projectRoot;
    rest = pattern.slice(1);
  }
  if (base !== undefined) {
    // Below a fixed folder, the rest is anchored there when it has a slash, else it matches at any depth.
    return `path.startsWith(${cel(`${base}/`)}) && path.substring(${base.length + 1}).matches(${cel(relativeRegex(rest, action))})`;
  }
  const rel = pattern.replace(/^\.\//, "");
  // Relative to the working directory, known only when the call is made.
  return `path.startsWith(cwd + "/") && path.substring(size(cwd) + 1).matches(${cel(relativeRegex(rel, action))})`;
}

// ---- Bash ------------------------------------------------------------------------------------------------------

const QUOTES = /["']/g;
const OPERATORS = /\s*(?:&&|\|\||;|\|)\s*/;

/**
 * One command pattern → a condition on one simple command (Airlock judges each simple command of a line on its own,
 * quotes removed). `prefix:*` is ` *`; a single trailing ` *` also matches the bare word (`npm *` matches `npm`).
 */
function commandCondition(spec: string): string {
  const s = spec.replace(QUOTES, "").trim().replace(/:\*$/, " *");
  if (s === "*") return "true";
  if (!s.includes("*")) return `command == ${cel(s)}`;
  const stars = (s.match(/\*/g) ?? []).length;
  if (stars === 1 && s.endsWith(" *")) {
    const word = s.slice(0, -2);
    return `(command == ${cel(word)} || command.startsWith(${cel(`${word} `)}))`;
  }
  const re = s.split("*").map(regexEscape).join(".*");
  return `command.matches(${cel(`^${re}$`)})`;
}

function bashRule(spec: string, action: Action): RuleOutcome {
  const parts = spec.split(OPERATORS).filter((p) => p.trim() !== "");
  if (parts.length <= 1) return { condition: `tool == "bash" && ${commandCondition(spec)}` };
  // A compound pattern: Claude Code matches the whole line, Airlock each simple command.
  if (!stricter(action))
    return { warning: "a compound command cannot be allowed as one; each command needs its own allow rule" };
  return {
    condition: `tool == "bash" && (${parts.map(commandCondition).join(" || ")})`,
    warning: `applies to each command of "${spec}" on its own (stricter than the whole line)`,
  };
}

// ---- WebFetch ------------------------------------------------------------------------------------------------------

/** A host pattern as case-insensitive regex characters. */
function hostRegex(host: string): string {
  return [...host.toLowerCase()]
    .map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : regexEscape(c)))
    .join("");
}

/**
 * `domain:HOST`: the URL's real host (after any `user:pass@`, before any `:port`), case-insensitive. An allow matches
 * that host only; a deny or ask also its subdomains. `domain:*` is every fetch; `domain:*.HOST` the subdomains.
 */
function webFetchRule(spec: string, action: Action): RuleOutcome {
  const m = /^domain:(.+)$/.exec(spec.trim());
  if (!m?.[1]) {
    return stricter(action)
      ? {
          condition: 'tool == "webfetch" && has(args.url)',
          warning: `"${spec}" is not domain:HOST; widened to every WebFetch`,
        }
      : { warning: `"${spec}" is not domain:HOST; dropped` };
  }
  const host = m[1].trim().replace(/\.$/, "");
  if (host === "*") return { condition: 'tool == "webfetch" && has(args.url)' };
  const sub = host.startsWith("*.");
  const core = hostRegex(sub ? host.slice(2) : host);
  const hostPart = sub ? `([^/?#@\\\\:]+\\.)${core}` : stricter(action) ? `([^/?#@\\\\:]+\\.)?${core}` : core;
  const re = `^[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#@\\\\]*@)?${hostPart}\\.?(:[0-9]*)?([/?#\\\\]|$)`;
  return { condition: `tool == "webfetch" && has(args.url) && args.url.matches(${cel(re)})` };
}

// ---- one rule ----------------------------------------------------------------------------------------------------

function toolGlob(name: string): string {
  return `tool.matches(${cel(`^${name.split("*").map(regexEscape).join(".*")}$`)})`;
}

/** One Claude Code rule → a condition (or none, for an allow that cannot be expressed), with any warning. */
export function translateRule(
  rule: string,
  action: Action,
  projectRoot: string,
  home = homedir(),
): RuleOutcome {
  const m = /^([A-Za-z0-9_.*-]+)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!m?.[1]) {
    return { warning: `"${rule}" is not a Claude Code permission rule (Tool or Tool(specifier)); skipped` };
  }
  const tool = m[1];
  const spec = m[2];
  const whole = spec === undefined || spec.trim() === "" || spec.trim() === "*";
  if (tool.startsWith("mcp__")) {
    if (spec !== undefined && !whole) {
      return stricter(action)
        ? {
            condition: toolGlob(tool.includes("*") ? tool : `${tool}*`),
            warning: `MCP rules take no specifier; "${rule}" widened to the tool`,
          }
        : { warning: `MCP rules take no specifier; "${rule}" dropped` };
    }
    const parts = tool.split("__");
    // mcp__server and mcp__server__* are every tool of that server.
    if (parts.length === 2 || (parts.length === 3 && parts[2] === "*"))
      return { condition: `tool.startsWith(${cel(`mcp__${parts[1]}__`)})` };
    return { condition: tool.includes("*") ? toolGlob(tool) : `tool == ${cel(tool)}` };
  }
  const whoIs = (label: string, condition: string): RuleOutcome =>
    whole
      ? { condition }
      : stricter(action)
        ? {
            condition,
            warning: `${label} specifiers cannot be matched; "${rule}" widened to every ${label} call`,
          }
        : { warning: `${label} specifiers cannot be matched; "${rule}" dropped (those calls ask instead)` };
  switch (tool) {
    case "Bash":
      return whole ? { condition: 'tool == "bash"' } : bashRule(spec as string, action);
    case "Read":
      return whole
        ? { condition: `tool in ${READ_TOOLS}` }
        : {
            condition: `tool in ${READ_TOOLS} && ${pathCondition(spec as string, action, projectRoot, home)}`,
          };
    case "Edit":
      return whole
        ? { condition: `tool in ${EDIT_TOOLS}` }
        : {
            condition: `tool in ${EDIT_TOOLS} && ${pathCondition(spec as string, action, projectRoot, home)}`,
          };
    case "Write":
    case "MultiEdit":
    case "NotebookEdit":
      // Claude Code applies file-edit path rules through Edit(...); these are honoured only where that is stricter.
      if (whole) return { condition: `tool in ${EDIT_TOOLS}` };
      return stricter(action)
        ? {
            condition: `tool in ${EDIT_TOOLS} && ${pathCondition(spec as string, action, projectRoot, home)}`,
          }
        : { warning: `"${rule}": Claude Code takes path rules for edits as Edit(...); dropped` };
    case "Grep":
    case "Glob":
    case "LS":
      if (whole)
        return { condition: `tool == ${cel(tool === "Grep" ? "grep" : tool === "Glob" ? "find" : "ls")}` };
      return stricter(action)
        ? {
            condition: `tool in ${READ_TOOLS} && ${pathCondition(spec as string, action, projectRoot, home)}`,
          }
        : { warning: `"${rule}": Claude Code takes path rules for reads as Read(...); dropped` };
    case "WebFetch":
      return whole
        ? { condition: 'tool == "webfetch" && has(args.url)' }
        : webFetchRule(spec as string, action);
    case "PowerShell":
      return whoIs("PowerShell", 'tool == "PowerShell"');
    case "Skill":
      return whoIs("Skill", 'tool == "Skill"');
    default: {
      const simple = SIMPLE_TOOLS[tool];
      if (simple) return whoIs(tool, simple);
      // Any other tool keeps its own name in Airlock (capability "tool").
      return whoIs(tool, tool.includes("*") ? toolGlob(tool) : `tool == ${cel(tool)}`);
    }
  }
}

// ---- the whole settings file ------------------------------------------------------------------------------------

export interface Translation {
  config: {
    version: 1;
    default_action: "ask" | "deny";
    rules: { name: string; condition: string; rules: OutRule[] }[];
  };
  warnings: string[];
}

/** The settings file's project root: the parent of `.claude/`, else the file's directory. */
export function projectRootOf(settingsPath: string): string {
  const dir = dirname(resolve(settingsPath));
  return dir.endsWith("/.claude") ? dirname(dir) : dir;
}

/** Folders where Claude Code lets a mode act without asking: the working directory and additionalDirectories. */
function workingDirsCondition(dirs: string[], projectRoot: string, home: string): string {
  const abs = dirs.map((d) =>
    (d.startsWith("~/") ? `${home}/${d.slice(2)}` : resolve(projectRoot, d)).replace(/\/+$/, ""),
  );
  return [
    '(path == cwd || path.startsWith(cwd + "/"))',
    ...abs.map((d) => `(path == ${cel(d)} || path.startsWith(${cel(`${d}/`)}))`),
  ].join(" || ");
}

export function translateClaudePermissions(
  perms: ClaudePermissions,
  projectRoot: string,
  home = homedir(),
): Translation {
  const warnings: string[] = [];
  const groups: Translation["config"]["rules"] = [];
  for (const action of ["deny", "ask", "allow"] as const) {
    const rules: OutRule[] = [];
    for (const rule of perms[action] ?? []) {
      const t = translateRule(rule, action, projectRoot, home);
      if (t.warning) warnings.push(`${action} ${rule}: ${t.warning}`);
      if (t.condition) rules.push({ name: rule, condition: t.condition, action });
    }
    if (rules.length > 0) groups.push({ name: `Claude Code ${action}`, condition: "true", rules });
  }
  const dirs = perms.additionalDirectories ?? [];
  let defaultAction: "ask" | "deny" = "ask";
  const mode = perms.defaultMode ?? "default";
  const inWorkingDirs = workingDirsCondition(dirs, projectRoot, home);
  const modeRules: OutRule[] = [];
  switch (mode) {
    case "default":
      break;
    case "acceptEdits":
      // Claude Code accepts file edits in the working folders without asking; after every deny and ask rule.
      modeRules.push({
        name: "defaultMode acceptEdits",
        condition: `tool in ${EDIT_TOOLS} && (${inWorkingDirs})`,
        action: "allow",
      });
      break;
    case "dontAsk":
      // Claude Code refuses whatever no allow rule covers.
      defaultAction = "deny";
      break;
    case "plan":
      warnings.push(
        `defaultMode plan: not translated; Airlock asks your phone for every call no rule decides`,
      );
      break;
    case "bypassPermissions":
    case "auto":
      warnings.push(`defaultMode ${mode}: not translated (it would allow everything); Airlock asks instead`);
      break;
    default:
      warnings.push(`defaultMode ${mode}: unknown; Airlock asks for every call no rule decides`);
  }
  if (dirs.length > 0) {
    // Claude Code reads in its working folders without asking; so do reads of these with this config.
    modeRules.push({
      name: "additionalDirectories reads",
      condition: `tool in ${READ_TOOLS} && (${inWorkingDirs})`,
      action: "allow",
    });
  }
  if (modeRules.length > 0) groups.push({ name: "Claude Code mode", condition: "true", rules: modeRules });
  return { config: { version: 1, default_action: defaultAction, rules: groups }, warnings };
}
