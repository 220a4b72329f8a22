// Names that only suggest a secret raise a read's risk but are still served; the denylist is never served.
import { describe, expect, it } from "vitest";
import { servingRefusal } from "../../../../src/companion/guards/serving-denylist.ts";
import { isDenylistedPath, isSecretPath } from "../../../../src/policy/index.ts";

describe("denylist versus risk escalators", () => {
  it.each(["src/edge/auth/tokens.ts", "docs/secret-handshake.md", "lib/user-credentials-form.tsx"])(
    "%s is high risk to read but may be served",
    (path) => {
      expect(isSecretPath(path)).toBe(true);
      expect(isDenylistedPath(path)).toBe(false);
      expect(servingRefusal(path)).toBeNull();
    },
  );

  it.each([
    ".env",
    "config/credentials.json",
    "keys/server.pem",
    ".ssh/id_ed25519",
    "secrets/db.txt",
    "auth.json",
  ])("%s is denylisted and never served", (path) => {
    expect(isDenylistedPath(path)).toBe(true);
    expect(isSecretPath(path)).toBe(true);
    expect(servingRefusal(path)).not.toBeNull();
  });
});
