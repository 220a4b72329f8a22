// The grant scope choices a prompt may offer (src/protocol/grants.ts PromptGrantChoices), read loosely so a hub
// that sends none (or an older shape) leaves the card as it was.
import { z } from "zod";

export const GrantChoices = z.object({
  exact: z.array(z.object({ capability: z.string(), pattern: z.string() })),
  moreExact: z.number().int().nonnegative().default(0),
  wider: z.array(z.string()),
  /** Why no "always" is offered (one line), and the rule that would allow the call where one can. */
  why: z.string().optional(),
  rule: z.string().optional(),
});
export type GrantChoices = z.infer<typeof GrantChoices>;

export function grantChoicesOf(prompt: object): GrantChoices | null {
  const parsed = GrantChoices.safeParse((prompt as { grant?: unknown }).grant);
  return parsed.success ? parsed.data : null;
}
