// Turns a zod failure into the field problems of a 400 (routes validate through define.ts; the hub's socket too).
import type { z } from "zod";
import type { FieldProblem } from "../../protocol/errors.ts";

export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join(".") : "(root)",
    message: issue.message,
  }));
}
