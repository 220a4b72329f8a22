// A 400's field problems (`details: [{path, message}]`, src/protocol/errors.ts FieldProblem) keyed by field path,
// so a form shows each beside its control; what names no field of the form goes beside the submit button.
import { ApiError, errorMessage } from "./api.ts";

export type FieldErrors = Record<string, string>;

export function fieldErrorsOf(
  error: unknown,
  fields: readonly string[],
): { fields: FieldErrors; general: string } {
  const found: FieldErrors = {};
  const rest: string[] = [];
  const details = error instanceof ApiError && Array.isArray(error.details) ? error.details : [];
  for (const item of details) {
    if (!item || typeof item !== "object") continue;
    const { path, message } = item as { path?: unknown; message?: unknown };
    if (typeof path !== "string" || typeof message !== "string") continue;
    if (fields.includes(path)) found[path] = found[path] ? `${found[path]}; ${message}` : message;
    else rest.push(`${path}: ${message}`);
  }
  const general = Object.keys(found).length && !rest.length ? "" : [errorMessage(error), ...rest].join(" ");
  return { fields: found, general };
}
