// Sealing as properties, in workerd's WebCrypto: a sealed token opens only with its key and under its own row and
// field, and any change to it is refused; a malformed key ring is refused whole.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const RING = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

describe("sealing", () => {
  it("opens to the same text under its context, and under no other context", async () => {
    const { keyRing, open, seal } = await import("../../../src/edge/connectors/oauth/cipher.ts");
    const ring = await keyRing(RING);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        async (text, context, other) => {
          const sealed = await seal(ring, text, context);
          expect(sealed.includes(text) && text.length > 8).toBe(false);
          expect(await open(ring, "k1", sealed, context)).toBe(text);
          if (other !== context) await expect(open(ring, "k1", sealed, other)).rejects.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("any flipped bit of the IV, the ciphertext or the tag is refused", async () => {
    const { keyRing, open, seal } = await import("../../../src/edge/connectors/oauth/cipher.ts");
    const ring = await keyRing(RING);
    const context = "oauth_tokens:con_x:access";
    const sealed = await seal(ring, "ya29.planted-access-token", context);
    const decode = (t: string) =>
      Uint8Array.from(atob(t.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
    const encode = (b: Uint8Array) =>
      btoa(String.fromCharCode(...b))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "");
    const parts = sealed.split(".").map(decode);
    await fc.assert(
      fc.asyncProperty(fc.nat(1), fc.nat(1000), fc.nat(7), async (part, at, bit) => {
        const bytes = Uint8Array.from(parts[part] ?? []);
        const i = at % bytes.length;
        bytes[i] = (bytes[i] ?? 0) ^ (1 << bit);
        const changed =
          part === 0
            ? `${encode(bytes)}.${encode(parts[1] ?? new Uint8Array())}`
            : `${encode(parts[0] ?? new Uint8Array())}.${encode(bytes)}`;
        await expect(open(ring, "k1", changed, context)).rejects.toThrow();
      }),
      { numRuns: 200 },
    );
  });

  it("a ring with a short, non-base64, unnamed or repeated key is refused whole", async () => {
    const { keyRing } = await import("../../../src/edge/connectors/oauth/cipher.ts");
    for (const bad of [
      "",
      "k1:AAAA",
      ":AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      `${RING},${RING}`,
      "k1:!!!",
    ]) {
      await expect(keyRing(bad), bad).rejects.toThrow();
    }
  });
});
