// Claude Code's own reason for asking, as far as its PermissionRequest hook input tells it. Claude Code 2.1 passes a
// hook no reason text (its SDK's can_use_tool carries decision_reason; the hook does not), only the rules it would
// offer the person (`permission_suggestions`): those name what its check objected to (a path outside the working
// directories, a command prefix no rule allows), so the card shows them.
import { z } from "zod";

const Suggestion = z.looseObject({
  type: z.string(),
  rules: z.array(z.looseObject({ toolName: z.string(), ruleContent: z.string().optional() })).optional(),
  directories: z.array(z.string()).optional(),
});

const MAX_REASON_CHARS = 400;

function described(suggestion: z.infer<typeof Suggestion>): string[] {
  const rules = (suggestion.rules ?? []).map((r) =>
    r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName,
  );
  const dirs = (suggestion.directories ?? []).map((d) => `access to ${d}`);
  return [...rules, ...dirs];
}

/** One line: what Claude Code's own check wants before it runs this call. */
export function claudeAskReason(suggestions: unknown): string {
  const parsed = z.array(z.unknown()).safeParse(suggestions);
  const wanted = (parsed.success ? parsed.data : [])
    .map((s) => Suggestion.safeParse(s))
    .flatMap((s) => (s.success ? described(s.data) : []));
  const reason =
    wanted.length > 0
      ? `its own permission check would run it only with ${[...new Set(wanted)].join(", ")}`
      : "its own permission check wants a person for this call";
  return reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason;
}
