// Never (red team round 12, class D, found while adding the credential encodings): a private key in base64
// is missed when more than 64 other base64 runs come before it in the same chunk — a bundle of
// certificates, or base64 of PEM certificates (a Kubernetes Secret holding a CA chain, then the key):
// the scan stopped looking and said "no key". Certificates are not keys; the key after them is found,
// and the bundle alone is still not a key.
import { generateKeyPairSync, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { holdsPrivateKey } from "../../../src/policy/secret-families.ts";

const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const der = privateKey.export({ type: "pkcs8", format: "der" }).toString("base64");
// A certificate-shaped PEM body (base64 of a DER SEQUENCE that is not a key: a certificate's TBS opens
// with a SEQUENCE, not a version INTEGER).
const certBody = `MIIB${"A".repeat(60)}`;
const certPem = `-----BEGIN CERTIFICATE-----\n${certBody}\n-----END CERTIFICATE-----\n`;
void X509Certificate;

describe("base64 keys behind many other base64 runs", () => {
  it.each([65, 300])("base64 of a PEM key after %i base64 PEM certificates is found", (n) => {
    const lines = Array.from(
      { length: n },
      (_, i) => `  ca${i}.crt: ${Buffer.from(certPem).toString("base64")}`,
    );
    const manifest = `data:\n${lines.join("\n")}\n  tls.key: ${Buffer.from(pem).toString("base64")}\n`;
    expect(holdsPrivateKey(manifest)).toBe(true);
    expect(holdsPrivateKey(`data:\n${lines.join("\n")}\n`)).toBe(false);
  });

  it.each([65, 300])("a base64 DER key after %i certificate bodies is found", (n) => {
    const bundle = Array.from({ length: n }, () => certPem).join("");
    expect(holdsPrivateKey(`${bundle}key: ${der}\n`)).toBe(true);
    expect(holdsPrivateKey(bundle)).toBe(false);
  });
});
