// Suggestions from history: the account-policy rule that would have allowed a call a person kept approving,
// as YAML, the account policy with it added (and the diff), and in words what else the rule allows. Pure:
// the hub supplies the calls and checks the suggestion through the real judge before offering it.
import { Document, isMap, isSeq, parseDocument, YAMLSeq } from "yaml";
import { runnerWords } from "./causal-change.ts";
import { causalRunnerOf, configNamesOf } from "./causal-runners.ts";

/** A call as the hub remembers it: the canonical tool, its one subject (a command or a path), where it ran. */
export interface RepeatedCall {
  tool: string;
  /** For the shell: the exact command; for a file tool: the absolute path. */
  subject: string;
  cwd: string | null;
}

export interface SuggestedRule {
  name: string;
  condition: string;
  /** The rule as it is added to the account policy's `rules`. */
  yaml: string;
  /** What else it allows, and what it does not pin, in a person's words. */
  explain: string[];
}

const FILE_TOOLS = new Set(["read", "write", "edit"]);
/** Words a suggestion may name verbatim: no quoting, expansion or control characters for CEL or bash to read. */
const PLAIN = /^[A-Za-z0-9_./:=@+,%-]+( [A-Za-z0-9_./:=@+,%-]+)*$/;

function quote(text: string): string {
  return JSON.stringify(text);
}

/** The rule for one repeated call, or null when its subject cannot be named exactly in a rule. */
export function suggestRule(call: RepeatedCall): SuggestedRule | null {
  const where = call.cwd?.startsWith("/") && !/["\\\n]/.test(call.cwd) ? call.cwd : null;
  if (call.tool === "bash") {
    if (!PLAIN.test(call.subject) || call.subject.length > 200) return null;
    const argv = call.subject.split(" ");
    const conditions = [`tool == "bash"`, `command == ${quote(call.subject)}`];
    if (where !== null) conditions.push(`dir == ${quote(where)}`);
    const explain = [
      `Allows exactly \`${call.subject}\`, for every agent${where ? `, run in ${where}` : ", in any directory"}.`,
      "Other arguments, another directory, a pipe or a chain around it still ask.",
    ];
    const runner = causalRunnerOf(argv);
    if (runner !== null) {
      const what = runner.script !== null ? runnerWords(runner.key) : "the files that decide what it runs";
      const configs = configNamesOf(runner.tools);
      explain.push(
        `Unlike "Allow always", the rule is not pinned to ${what}${configs.length ? ` or ${configs.slice(0, 3).join(", ")}` : ""}: it still allows the command after they change.`,
      );
    }
    return rule(`Allow ${call.subject}`, conditions.join(" && "), explain);
  }
  if (FILE_TOOLS.has(call.tool)) {
    if (!call.subject.startsWith("/") || /["\\\n]/.test(call.subject) || call.subject.length > 300)
      return null;
    const verb = call.tool === "read" ? "reading" : "changing";
    return rule(
      `Allow ${call.tool} ${call.subject}`,
      `tool == ${quote(call.tool)} && path == ${quote(call.subject)}`,
      [`Allows ${verb} exactly ${call.subject} (the ${call.tool} tool), for every agent; no other file.`],
    );
  }
  return null;
}

function rule(name: string, condition: string, explain: string[]): SuggestedRule {
  const doc = new Document([{ name, condition, action: "allow" }]);
  return { name, condition, yaml: doc.toString().trimEnd(), explain };
}

/**
 * The account policy with the rule added after its rules but before a trailing catch-all (`default:` or
 * `condition: "true"`): the account's own denies and asks, which a suggestion must never shadow, still come
 * first. Null when the policy text does not parse as a mapping.
 */
export function policyWithRule(policyText: string, suggested: SuggestedRule): string | null {
  const text = policyText.trim() === "" ? "version: 1\ndefault_action: ask\nrules: []\n" : policyText;
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
  let rules = doc.get("rules");
  if (rules === undefined || rules === null) {
    doc.set("rules", new YAMLSeq());
    rules = doc.get("rules");
  }
  if (!isSeq(rules)) return null;
  // Flow style (`rules: []`) would put the new rule on one line; block style reads as the person wrote rules.
  rules.flow = false;
  let at = rules.items.length;
  while (at > 0 && isCatchAll(rules.items[at - 1])) at--;
  rules.items.splice(
    at,
    0,
    doc.createNode({ name: suggested.name, condition: suggested.condition, action: "allow" }),
  );
  return doc.toString();
}

function isCatchAll(node: unknown): boolean {
  if (!isMap(node)) return false;
  const condition = node.get("condition");
  return node.has("default") || condition === "true" || condition === true;
}

/** The lines that differ, as `-`/`+`, with up to two lines of context around the change. */
export function lineDiff(before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const context = (from: number, to: number) =>
    a.slice(Math.max(0, from), Math.max(0, to)).map((l) => `  ${l}`);
  return [
    ...context(start - 2, start),
    ...a.slice(start, endA).map((l) => `- ${l}`),
    ...b.slice(start, endB).map((l) => `+ ${l}`),
    ...context(endA, Math.min(a.length, endA + 2)),
  ].join("\n");
}
