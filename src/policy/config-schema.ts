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

export const ConfigSchema = z.strictObject({
  version: z.literal(1).optional(),
  default_action: z.enum(["allow", "deny", "block", "ask", "confirm"]).optional(),
  /** pi.hitl's confirmation timeout in ms; the companion's prompt timeout reads it. */
  timeout: z.number().int().positive().optional(),
  /** What `ask` becomes when no person can answer; pi.hitl's behaviour (deny) unless set. */
  headless_ask: z.enum(["deny", "allow"]).optional(),
  rules: z.array(RuleSchema).optional(),
  hidden_tools: z.array(z.string().min(1)).optional(),
});

export type PermissionsConfig = z.infer<typeof ConfigSchema>;
