// Parses a request's JSON body, query or path parameters with zod; every bad field is named in the 400.
import type { Context } from "hono";
import type { z } from "zod";
import type { FieldProblem } from "../../protocol/errors.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";

export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join(".") : "(root)",
    message: issue.message,
  }));
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = fieldProblems(result.error);
    const names = problems.map((p) => p.path).join(", ");
    throw new ApiError(400, "validation_failed", `Invalid ${where}: check ${names}.`, { details: problems });
  }
  return result.data;
}

export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  let value: unknown;
  if (text.trim() === "") {
    value = {};
  } else {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().includes("application/json")) {
      throw new ApiError(400, "bad_request", "Send the body as JSON with Content-Type: application/json.");
    }
    try {
      value = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : "unparsable";
      throw new ApiError(400, "invalid_json", `The body is not valid JSON: ${reason}.`);
    }
  }
  return parse(schema, value, "request body");
}

export function readQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  return parse(schema, c.req.query(), "query parameters");
}

export function readParams<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  return parse(schema, c.req.param(), "path parameters");
}
