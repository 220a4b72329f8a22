// Property tests of the conveyor's guards: a delivery with any one part changed never verifies, any
// JSON thrown at POST /v1/proposals gets a 4xx or a proposal (never a 500), and argument hashes do not
// depend on key order.
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/edge/conveyor/canonical.ts";
import { verifyDelivery } from "../../../src/edge/conveyor/webhooks.ts";
import { device } from "../approvals-helpers.ts";

const SECRET = `whsec_${btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i * 7)))}`;

describe("webhook verification (property)", () => {
  it("changing any one character of the body, id, timestamp or signature fails verification", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 200 }),
        fc.constantFrom("body", "id", "timestamp", "signature"),
        fc.nat(),
        fc.integer({ min: 1, max: 94 }),
        (body, part, where, shift) => {
          const id = "msg_property";
          const now = new Date();
          const headers = {
            "webhook-id": id,
            "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
            "webhook-signature": new Webhook(SECRET).sign(id, now, body),
          };
          expect(verifyDelivery(body, headers, [SECRET]).ok).toBe(true);
          const mutate = (text: string) => {
            const i = where % text.length;
            const code = 33 + ((text.charCodeAt(i) - 33 + shift) % 94);
            return text.slice(0, i) + String.fromCharCode(code) + text.slice(i + 1);
          };
          const changed = { ...headers };
          let changedBody = body;
          if (part === "body") changedBody = mutate(body);
          if (part === "id") changed["webhook-id"] = mutate(id);
          if (part === "timestamp")
            changed["webhook-timestamp"] = String(Number(headers["webhook-timestamp"]) + 1 + (where % 100));
          if (part === "signature")
            changed["webhook-signature"] = `v1,${mutate(headers["webhook-signature"].slice(3))}`;
          if (changedBody === body && JSON.stringify(changed) === JSON.stringify(headers)) return;
          expect(verifyDelivery(changedBody, changed, [SECRET]).ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("argument hashing (property)", () => {
  it("canonical JSON ignores key order and tells different values apart", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (obj, other) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
        if (JSON.stringify(other) !== JSON.stringify(obj) && canonicalJson(other) === canonicalJson(obj)) {
          // Only equal values may share a canonical form.
          expect(JSON.parse(canonicalJson(other))).toEqual(JSON.parse(canonicalJson(obj)));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("POST /v1/proposals (property)", () => {
  it("arbitrary JSON bodies and args get a 2xx or a 4xx envelope, never a 500", async () => {
    const d = await device();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            tool: fc.constantFrom(
              "http.request",
              "web.fetch",
              "notify",
              "memory.note",
              "artifact.put",
              "companion.run",
              "nope",
            ),
            identity: fc.constantFrom("user", "bot", "root"),
            idempotency_key: fc.string({ minLength: 8, maxLength: 40 }),
            justification: fc.string({ minLength: 1, maxLength: 50 }),
            args: fc.dictionary(
              fc.constantFrom(
                "url",
                "method",
                "json",
                "text",
                "title",
                "topic",
                "command",
                "cwd",
                "headers",
                "x",
              ),
              fc.jsonValue(),
            ),
          }),
        ),
        async (body) => {
          const res = await d.post("/v1/proposals", body);
          expect(res.status).not.toBeGreaterThanOrEqual(500);
          if (res.status >= 400) {
            const envelope = (await res.json()) as { error?: { code?: string } };
            expect(typeof envelope.error?.code).toBe("string");
          } else await res.arrayBuffer();
        },
      ),
      { numRuns: 60 },
    );
  });
});
