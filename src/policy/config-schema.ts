// The permissions.yaml schema: pi.hitl's format plus Airlock's `ask`/`deny`/`hidden` spellings.
import { z } from "zod";
import type { Action } from "./types.ts";

/** pi.hitl spells deny `block` and ask `confirm`; both spellings load unchanged. */
export const ActionSchema = z.enum(["allow", "deny", "block", "ask", "confirm", "hidden"]);
export type ConfigAction = z.infer<typeof ActionSchema>;

export function normalizeAction(a: ConfigAction): Action {
  if (a === "block") return "deny";
  if (a === "confirm") return "ask";
  return a;
}

/**
 * The policy mode (capability-prompt spec): `prompt` (default) asks a person; `strict` denies what no rule or
 * grant allows, without asking; `permissive` lets low and medium risk asks run unprompted (logged as
 * allow_permissive), high risk still asks.
 */
const POLICY_MODES = ["strict", "prompt", "permissive"] as const;
/**
 * How Airlock's verdict meets the agent's own permission check. `compose` (the default): the stricter of the
 * two, an allow never skips the agent's own refusal or ask. `sole`: Airlock is the only judge and an allow
 * pre-approves the call. Only the user's own files and the account policy may choose `sole` (see compile.ts).
 */
const JUDGE_MODES = ["compose", "sole"] as const;
const ModeWord = z.enum([...POLICY_MODES, ...JUDGE_MODES]);
type ModeWord = z.infer<typeof ModeWord>;
const isPolicyMode = (w: ModeWord): w is (typeof POLICY_MODES)[number] =>
  (POLICY_MODES as readonly string[]).includes(w);

/** `mode:` is one word or a list naming at most one policy mode and at most one judge mode. */
export const ModeSchema = z.union([ModeWord, z.array(ModeWord).min(1).max(2)]).refine((m) => {
  const words = typeof m === "string" ? [m] : m;
  return words.filter(isPolicyMode).length <= 1 && words.filter((w) => !isPolicyMode(w)).length <= 1;
}, "mode names at most one of strict/prompt/permissive and at most one of compose/sole");

/** Splits a `mode:` value into its policy mode and its judge mode (each absent when not named). */
export function modeParts(mode: z.infer<typeof ModeSchema> | undefined): {
  policy?: (typeof POLICY_MODES)[number];
  judge?: (typeof JUDGE_MODES)[number];
} {
  const words = mode === undefined ? [] : typeof mode === "string" ? [mode] : mode;
  const policy = words.find(isPolicyMode);
  const judge = words.find((w): w is (typeof JUDGE_MODES)[number] => !isPolicyMode(w));
  return { ...(policy ? { policy } : {}), ...(judge ? { judge } : {}) };
}

export interface RuleConfig {
  name?: string | undefined;
  condition?: string | undefined;
  action?: ConfigAction | undefined;
  message?: string | undefined;
  rules?: RuleConfig[] | undefined;
  default?: ConfigAction | undefined;
}

export const RuleSchema: z.ZodType<RuleConfig> = z.lazy(() =>
  z.strictObject({
    name: z.string().min(1).optional(),
    condition: z.string().min(1).optional(),
    action: ActionSchema.optional(),
    message: z.string().optional(),
    rules: z.array(RuleSchema).optional(),
    default: ActionSchema.optional(),
  }),
);

/** One program with plain words: nothing the shell would interpret (operators, quotes, expansions). */
export const PLAIN_COMMAND = /^[\w@%+=:,./-]+(?: [\w@%+=:,./-]+)*$/;

/**
 * A user-defined precognition command class: one exact command (no shell operators, so it is one program
 * with plain arguments) and the files whose change invalidates its cached result (none: a 2 s lifetime).
 */
export const FutureCommandSchema = z.strictObject({
  name: z.string().min(1).max(80),
  command: z
    .string()
    .min(1)
    .max(200)
    .regex(PLAIN_COMMAND, "one plain command: words without shell operators or quotes"),
  causal: z.array(z.string().min(1).max(200)).max(100).optional(),
});
export type FutureCommandConfig = z.infer<typeof FutureCommandSchema>;

export const ConfigSchema = z.strictObject({
  version: z.literal(1).optional(),
  default_action: z.enum(["allow", "deny", "block", "ask", "confirm"]).optional(),
  /** pi.hitl's confirmation timeout in ms; the companion's prompt timeout reads it. */
  timeout: z.number().int().positive().optional(),
  /** What `ask` becomes when no person can answer; pi.hitl's behaviour (deny) unless set. */
  headless_ask: z.enum(["deny", "allow"]).optional(),
  /**
   * One word or a list of at most one of each kind (see ModeSchema): the capability-prompt spec's policy
   * mode and how Airlock's verdict meets the agent's own check, e.g. `mode: strict`, `mode: sole`,
   * `mode: [permissive, sole]`.
   */
  mode: ModeSchema.optional(),
  rules: z.array(RuleSchema).optional(),
  hidden_tools: z.array(z.string().min(1)).optional(),
  /**
   * Per-session switches. `allow_ungated: false` forbids `/permissions off` (a session whose calls skip the
   * local layers); any layer may forbid it, none can re-allow what another forbade.
   */
  sessions: z.strictObject({ allow_ungated: z.boolean().optional() }).optional(),
  /** Extra command classes precognition may warm (still only when policy allows them without asking). */
  futures: z.strictObject({ commands: z.array(FutureCommandSchema).max(50) }).optional(),
});

export type PermissionsConfig = z.infer<typeof ConfigSchema>;
