// The grant scope choices a prompt may offer, read loosely (the shape is in validators.ts, with zod, off the first
// view's critical path).
import { loadedValidators } from "./load-validators.ts";
import type { GrantChoices } from "./validators.ts";

export type { GrantChoices };

export function grantChoicesOf(prompt: object): GrantChoices | null {
  // A prompt on a card was parsed by the validators, so they are loaded; without them, offer no wider choice.
  const parsed = loadedValidators()?.GrantChoices.safeParse((prompt as { grant?: unknown }).grant);
  return parsed?.success ? parsed.data : null;
}
