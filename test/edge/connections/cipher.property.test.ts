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
          expect(sealed.includes(text) && text.length > 3).toBe(false);
          expect(await open(ring, "k1", sealed, context)).toBe(text);
          if (other !== context) await expect(open(ring, "k1", sealed, other)).rejects.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("any changed character of a sealed value is refused", async () => {
    const { keyRing, open, seal } = await import("../../../src/edge/connectors/oauth/cipher.ts");
    const ring = await keyRing(RING);
    const sealed = await seal(ring, "ya29.planted-access-token", "oauth_tokens:con_x:access");
    await fc.assert(
      fc.asyncProperty(fc.nat(sealed.length - 1), fc.constantFrom(..."ABCxyz019-_."), async (at, ch) => {
        fc.pre(sealed[at] !== ch);
        const changed = `${sealed.slice(0, at)}${ch}${sealed.slice(at + 1)}`;
        await expect(open(ring, "k1", changed, "oauth_tokens:con_x:access")).rejects.toThrow();
      }),
      { numRuns: 150 },
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
