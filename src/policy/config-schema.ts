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
   * The capability-prompt spec's policy mode: `prompt` (default) asks a person; `strict` denies what no
   * rule or grant allows, without asking; `permissive` lets low and medium risk asks run unprompted (logged
   * as allow_permissive), high risk still asks.
   */
  mode: z.enum(["strict", "prompt", "permissive"]).optional(),
  rules: z.array(RuleSchema).optional(),
  hidden_tools: z.array(z.string().min(1)).optional(),
  /** Extra command classes precognition may warm (still only when policy allows them without asking). */
  futures: z.strictObject({ commands: z.array(FutureCommandSchema).max(50) }).optional(),
});

export type PermissionsConfig = z.infer<typeof ConfigSchema>;
