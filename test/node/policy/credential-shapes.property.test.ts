// Never (red team, round 12, class D): a file holding a registry or service token by its published shape
// is read or served without a person. Each row of credential-shapes.ts generates its own tokens: one is
// found wherever it sits in a file (any bytes around it, any offset, across the companion's chunk
// boundaries), in the scan of a buffer and of a file on the disk; a JWT too, but not a key published by
// design (Supabase's anon key). Tokens in this file are built at run time, so the repository's own
// test tree does not hold them (the scan of the tree is the false-positive measure).
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { scanBytes, scanFile } from "../../../src/companion/guards/key-scan.ts";
import {
  CREDENTIAL_SHAPES,
  type CredentialShape,
  holdsCredentialShape,
  holdsJwt,
  type ShapePart,
  shapeVendor,
} from "../../../src/policy/credential-shapes.ts";
import { REDACTED, redactText } from "../../../src/policy/redact.ts";
import { holdsCredential, KEY_SCAN_OVERLAP } from "../../../src/policy/secret-families.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-shapes-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** key-scan.ts reads 256 KiB chunks that share KEY_SCAN_OVERLAP bytes. */
const CHUNK = 256 * 1024;

const partArb = (p: ShapePart): fc.Arbitrary<string> =>
  typeof p === "string"
    ? fc.constant(p)
    : fc
        .array(fc.constantFrom(...p.of.chars), { minLength: p.min, maxLength: p.max ?? p.min + 24 })
        .map((cs) => cs.join(""));

const tokenArb = (s: CredentialShape): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...s.prefixes), ...s.parts.map(partArb))
    .map((xs) => xs.join(""))
    // A row whose last run is bounded but not by `end` (AIza 35) still matches a longer run: fine.
    .filter((t) => t.length > 0);

const b64url = (text: string) => Buffer.from(text).toString("base64url");
const jwtArb = fc
  .tuple(
    fc.constantFrom("HS256", "RS256", "ES256"),
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.constantFrom("authenticated", "service_role", "admin"),
    fc.uint8Array({ minLength: 16, maxLength: 256 }),
  )
  .map(
    ([alg, sub, role, sig]) =>
      `${b64url(JSON.stringify({ alg, typ: "JWT" }))}.${b64url(JSON.stringify({ sub, role }))}.${Buffer.from(sig).toString("base64url")}`,
  );

/** Every row's tokens, and JWTs, labelled. */
const ANY_TOKEN = fc.oneof(
  ...CREDENTIAL_SHAPES.map((s) => tokenArb(s).map((t) => ({ vendor: s.vendor, token: t }))),
  jwtArb.map((t) => ({ vendor: "JWT", token: t })),
);

/** A byte that ends a token in any format: not a token character (nor `.`, `_`, `-` a JWT run holds). */
const SEPARATOR = fc.constantFrom(..." \n\t\"'=:,;()<>[]{}\0\xff\x80#".split(""));
/** Any bytes: a token beside arbitrary binary or text. */
const SURROUND = fc.uint8Array({ minLength: 0, maxLength: 64 });

function embed(before: Uint8Array, sepA: string, token: string, sepB: string, after: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(before),
    Buffer.from(sepA, "latin1"),
    Buffer.from(token, "latin1"),
    Buffer.from(sepB, "latin1"),
    Buffer.from(after),
  ]);
}

describe("credential shapes: every row found wherever its token sits", () => {
  it("each row's generated tokens are its own shape, and a JWT is one", () => {
    for (const s of CREDENTIAL_SHAPES)
      fc.assert(
        fc.property(tokenArb(s), (t) => {
          expect(shapeVendor(t), `${s.vendor}: ${t}`).toBeDefined();
        }),
        { numRuns: 20 },
      );
    fc.assert(
      fc.property(jwtArb, (t) => {
        expect(holdsJwt(t), t).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("property: a token with any bytes around it is found in a short text", () => {
    fc.assert(
      fc.property(ANY_TOKEN, SURROUND, SEPARATOR, SEPARATOR, SURROUND, ({ vendor, token }, b, sa, sb, a) => {
        const text = embed(b, sa, token, sb, a).toString("latin1");
        expect(holdsCredential(text), `${vendor}: ${JSON.stringify(text)}`).toBe(true);
        expect(scanBytes(Buffer.from(text, "latin1")), vendor).toBe("key");
      }),
      { numRuns: 600 },
    );
  });

  // Filler that holds no token (spaces and lowercase words), long enough for several chunks.
  const FILLER = Buffer.from("lorem ipsum dolor sit amet\n".repeat(Math.ceil((3 * CHUNK) / 27)), "latin1");
  /** Offsets near every place a chunk of key-scan.ts starts or ends, and a few inside. */
  const OFFSET = fc.oneof(
    fc.integer({ min: CHUNK - KEY_SCAN_OVERLAP - 600, max: CHUNK - KEY_SCAN_OVERLAP + 600 }),
    fc.integer({ min: CHUNK - 600, max: CHUNK + 600 }),
    fc.integer({ min: 2 * CHUNK - 2 * KEY_SCAN_OVERLAP - 600, max: 2 * CHUNK - KEY_SCAN_OVERLAP + 600 }),
    fc.integer({ min: 0, max: 3 * CHUNK - 1000 }),
  );

  it("property: at any offset across chunk boundaries, in a buffer and in a file on the disk", () => {
    let n = 0;
    fc.assert(
      fc.property(
        ANY_TOKEN,
        OFFSET,
        SEPARATOR,
        SEPARATOR,
        SURROUND,
        ({ vendor, token }, at, sa, sb, around) => {
          const piece = embed(around, sa, token, sb, around);
          const bytes = Buffer.concat([FILLER.subarray(0, at), piece, FILLER.subarray(at)]);
          expect(scanBytes(bytes), `${vendor} at ${at}`).toBe("key");
          const file = join(base, `t${n++}.txt`);
          writeFileSync(file, bytes);
          expect(scanFile(file, bytes.length), `${vendor} at ${at} (file)`).toBe("key");
          rmSync(file);
        },
      ),
      { numRuns: 120 },
    );
    expect(scanBytes(FILLER)).toBe("none");
  });
});

describe("credential shapes: redaction", () => {
  it("property: a token in a command line or a log line is masked wherever it sits", () => {
    fc.assert(
      fc.property(
        ANY_TOKEN,
        SEPARATOR,
        fc.constantFrom("echo ", "curl -H 'X: ", "export T=", "log: "),
        ({ vendor, token }, sep, lead) => {
          const out = redactText(`${lead}${sep}${token}${sep} done`);
          expect(out, vendor).not.toContain(token);
          expect(out, vendor).toContain(REDACTED);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("credential shapes: what is not a credential", () => {
  it("ordinary words with the same openings are not tokens", () => {
    for (const text of [
      "npm_install npm_config_registry",
      "hf_hub_download(repo_id)",
      "SG.example.com",
      "pypi-simple",
      "dckr_pat_x",
      "hvs.getHandlerForTheVeryLongConfiguredHostnameValue",
      "SKU_0123456789abcdef SKIP SKULL",
      "sk-test-123",
      "xoxb-short",
      "dapi_version",
      "glpat-xyz",
      "tskey-auth",
      "const lin_api_key = process.env.LINEAR",
      "1234567890:ABCD",
      "alk_<token_id>.<secret>",
      "whsec_",
      // base64 of JSON that is not three parts, and an unsigned token (alg none, no signature)
      "eyJhbGciOiJIUzI1NiJ9",
      `${b64url('{"alg":"none"}')}.${b64url('{"sub":"x","role":"admin"}')}.`,
    ])
      expect(holdsCredentialShape(text), text).toBe(false);
  });

  it("a Supabase anon key (published by design) is not a credential; its service-role key is", () => {
    const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const sig = b64url("x".repeat(32));
    const anon = `${header}.${b64url(JSON.stringify({ iss: "supabase", ref: "abc", role: "anon" }))}.${sig}`;
    const service = `${header}.${b64url(JSON.stringify({ iss: "supabase", ref: "abc", role: "service_role" }))}.${sig}`;
    expect(holdsCredentialShape(`SUPABASE_ANON_KEY="${anon}"`)).toBe(false);
    expect(holdsCredentialShape(`SUPABASE_SERVICE_KEY="${service}"`)).toBe(true);
    expect(holdsCredentialShape(`a="${anon}" b="${service}"`)).toBe(true);
  });

  // (Private keys are another scan: secret-families.ts itself names a JWK's private members.)
  it("this repository's src/ and TypeScript's lib hold no token (the false-positive measure)", () => {
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile() && holdsCredentialShape(readFileSync(p).toString("latin1"))) hits.push(p);
      }
    };
    walk(join(ROOT, "src"));
    walk(join(ROOT, "node_modules", "typescript", "lib"));
    expect(hits).toEqual([]);
  });
});

describe("credential shapes: no input makes the scan slow", () => {
  /** Time of the fastest of five samples of `fn`, in ms. */
  const fastest = (fn: () => void) => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      fn();
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };

  // A backtracking scan is quadratic on these; 64 times the text must cost far less than 64^2 times.
  it.each([
    ["JWT-like runs", "-eyJ"],
    ["JWT parts without a signature", "eyJhbGciOiJIUzI1NiJ9.eyJ"],
    ["prefix repeated", "xoxb-"],
    ["Twilio-like hex", "SK0123456789abcdef"],
    ["Terraform-like runs", "abcdefghijklmn.atlasv1."],
    ["Telegram-like digits", "123456789:AA"],
    ["dotted base64url", "a.eyJ_"],
  ])("%s", (_, unit) => {
    const small = unit.repeat(1_000);
    const large = unit.repeat(64_000);
    holdsCredentialShape(small);
    const reps = 20;
    const t1 = fastest(() => {
      for (let r = 0; r < reps; r++) holdsCredentialShape(small);
    });
    const t64 = fastest(() => holdsCredentialShape(large));
    // Linear is ~64 * reps⁻¹ of the small batch; quadratic would be ~4096x a single small run.
    expect(t64 / (t1 / reps), `${unit}: ${t64} ms vs ${t1 / reps} ms`).toBeLessThan(64 * 16);
  });
});
