// GET /v1/openapi.json is a valid OpenAPI 3.1 document that lists every registered route, with its role,
// its auth scheme and the error envelope.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/edge/app.ts";
import { AUTHORITY } from "../../../src/protocol/roles.ts";

type Operation = {
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
  "x-airlock-role": string;
  "x-airlock-access": string;
  "x-airlock-session-cookie-only"?: boolean;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

async function documentOf(app: ReturnType<typeof createApp>): Promise<Document> {
  const res = await app.request("https://airlock.test/v1/openapi.json");
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

describe("the OpenAPI document", () => {
  it("validates against the OpenAPI 3.1 schema", async () => {
    const doc = await documentOf(createApp());
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Parameters<Validator["validate"]>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("lists every registered route, and nothing that is not one", async () => {
    const app = createApp();
    const doc = await documentOf(app);
    const registered = new Set(
      app.routes
        .filter((r) => r.method !== "ALL")
        .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    expect([...documented].sort()).toEqual([...registered].sort());
    expect(registered.size).toBeGreaterThanOrEqual(25);
  });

  it("gives every operation a role, auth and the error envelope", async () => {
    const doc = await documentOf(createApp());
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method} ${path}`;
        const access = op["x-airlock-access"];
        expect(["public", "admin", ...Object.keys(AUTHORITY)], where).toContain(access);
        if (access in AUTHORITY) {
          expect(op["x-airlock-role"], where).toBe(AUTHORITY[access as keyof typeof AUTHORITY]);
          // A session-cookie-only route (remote MCP consent) names the cookie alone.
          expect(op.security, where).toEqual(
            op["x-airlock-session-cookie-only"]
              ? [{ sessionCookie: [] }]
              : [{ deviceToken: [] }, { sessionCookie: [] }],
          );
          expect(op.responses["403"], where).toBeDefined();
        }
        if (access === "admin") expect(op.security, where).toEqual([{ adminToken: [] }]);
        if (path === "/v1/openapi.json") continue;
        expect(op.responses.default?.content?.["application/json"]?.schema.$ref, where).toBe(
          "#/components/schemas/ErrorEnvelope",
        );
      }
    }
  });
});
