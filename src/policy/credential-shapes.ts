// Credentials found by their published shape, wherever they sit in a file: one row per vendor format
// (a literal prefix, then runs of a named alphabet), and JSON Web Tokens, whose shape is structural. The
// content scans (secret-families.ts, PrivateKeyScan) ask for a file holding one; the property tests
// generate tokens from the same rows, so a row and its test cannot drift apart.

/** An alphabet as a regex class body and as the characters a generated token draws from. */
export interface Alphabet {
  readonly cls: string;
  readonly chars: string;
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
export const ALNUM: Alphabet = { cls: "A-Za-z0-9", chars: UPPER + LOWER + DIGITS };
export const WORD: Alphabet = { cls: "A-Za-z0-9_", chars: `${UPPER}${LOWER}${DIGITS}_` };
export const B64URL: Alphabet = { cls: "A-Za-z0-9_-", chars: `${UPPER}${LOWER}${DIGITS}_-` };
export const B64: Alphabet = { cls: "A-Za-z0-9+/", chars: `${UPPER}${LOWER}${DIGITS}+/` };
const B64URL_EQ: Alphabet = { cls: "A-Za-z0-9_=-", chars: `${UPPER}${LOWER}${DIGITS}_=-` };
const B64_EQ_US: Alphabet = { cls: "A-Za-z0-9+/=_", chars: `${UPPER}${LOWER}${DIGITS}+/=_` };
const ALNUM_DASH: Alphabet = { cls: "A-Za-z0-9-", chars: `${UPPER}${LOWER}${DIGITS}-` };
export const HEX: Alphabet = { cls: "a-f0-9", chars: "0123456789abcdef" };
const HEX_ANY: Alphabet = { cls: "a-fA-F0-9", chars: "0123456789abcdefABCDEF" };
const UPPER_ALNUM: Alphabet = { cls: "A-Z0-9", chars: UPPER + DIGITS };
const DIGIT: Alphabet = { cls: "0-9", chars: DIGITS };

/** A literal, or a run of an alphabet (`max` absent: no upper bound). */
export type ShapePart = string | { readonly of: Alphabet; readonly min: number; readonly max?: number };

export interface CredentialShape {
  vendor: string;
  /** Where the vendor publishes the format (or the scanners that carry it, where the vendor does not). */
  source: string;
  /** One of these opens the token ("" for a shape that opens with a run). */
  prefixes: readonly string[];
  parts: readonly ShapePart[];
  /** The token may not run on into a character of this alphabet (a fixed-length body). */
  end?: Alphabet;
}

const run = (of: Alphabet, min: number, max?: number): ShapePart =>
  max === undefined ? { of, min } : { of, min, max };

/**
 * Every token has a prefix or structure no ordinary text has; generic shapes (hex runs, bare `sk-…`,
 * Twilio auth tokens, which are 32 hex) are left to names and redaction.
 */
export const CREDENTIAL_SHAPES: readonly CredentialShape[] = [
  {
    vendor: "AWS access key id",
    source: "docs.aws.amazon.com IAM identifiers, unique ID prefixes",
    prefixes: ["AKIA", "ASIA", "ABIA", "ACCA"],
    parts: [run(UPPER_ALNUM, 16, 16)],
    end: UPPER_ALNUM,
  },
  {
    vendor: "GitHub token",
    source: "github.blog, behind GitHub's new authentication token formats",
    prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    parts: [run(ALNUM, 36)],
  },
  {
    vendor: "GitHub fine-grained token",
    source: "docs.github.com, fine-grained personal access tokens",
    prefixes: ["github_pat_"],
    parts: [run(WORD, 40)],
  },
  {
    vendor: "GitLab token",
    source: "docs.gitlab.com, security/tokens: token prefixes",
    prefixes: [
      "glpat-",
      "gldt-",
      "glrt-",
      "glptt-",
      "glcbt-",
      "gloas-",
      "glsoat-",
      "glffct-",
      "glimt-",
      "glagent-",
      "glft-",
      "GR1348941",
    ],
    parts: [run(B64URL, 20)],
  },
  {
    vendor: "Slack token",
    source: "api.slack.com, token types",
    prefixes: ["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "xoxe-", "xapp-"],
    parts: [run(ALNUM_DASH, 20)],
  },
  {
    vendor: "Slack incoming webhook",
    source: "api.slack.com, incoming webhooks",
    prefixes: ["hooks.slack.com/services/T"],
    parts: [run(UPPER_ALNUM, 8), "/B", run(UPPER_ALNUM, 8), "/", run(ALNUM, 24)],
  },
  {
    vendor: "Stripe live key",
    source: "docs.stripe.com, API keys",
    prefixes: ["sk_live_", "rk_live_"],
    parts: [run(ALNUM, 20)],
  },
  {
    vendor: "webhook signing secret",
    // Stripe's endpoint secrets and the Standard Webhooks form Airlock's own hook secrets take.
    source: "docs.stripe.com webhooks signatures; standardwebhooks.com",
    prefixes: ["whsec_"],
    parts: [run(B64, 32)],
  },
  {
    vendor: "Anthropic API key",
    source: "docs.anthropic.com, API keys (sk-ant-api03-, sk-ant-admin01-)",
    prefixes: ["sk-ant-"],
    parts: [run(B64URL, 20)],
  },
  {
    vendor: "OpenAI API key",
    source: "platform.openai.com, project, service account and admin keys",
    prefixes: ["sk-proj-", "sk-svcacct-", "sk-admin-"],
    parts: [run(B64URL, 20)],
  },
  {
    vendor: "OpenAI API key (user)",
    // The legacy user key carries `T3BlbkFJ` (base64 of "OpenAI") between two runs.
    source: "OpenAI key format as the secret scanners carry it (GitHub secret scanning partner)",
    prefixes: ["sk-"],
    parts: [run(ALNUM, 20, 20), "T3BlbkFJ", run(ALNUM, 20)],
  },
  {
    vendor: "Google API key",
    source: "cloud.google.com, API keys",
    prefixes: ["AIza"],
    parts: [run(B64URL, 35, 35)],
  },
  {
    vendor: "Google OAuth client secret",
    source: "cloud.google.com, OAuth client secrets (GOCSPX-)",
    prefixes: ["GOCSPX-"],
    parts: [run(B64URL, 28)],
  },
  {
    vendor: "npm token",
    source: "github.blog, npm's new access token format",
    prefixes: ["npm_"],
    parts: [run(ALNUM, 36, 36)],
    end: ALNUM,
  },
  {
    vendor: "Hugging Face token",
    source: "huggingface.co docs, user access tokens",
    prefixes: ["hf_", "api_org_"],
    parts: [run(ALNUM, 34, 34)],
    end: ALNUM,
  },
  {
    vendor: "PyPI upload token",
    // A macaroon whose first caveat names the index: pypi.org or test.pypi.org.
    source: "pypi.org/help, API tokens",
    // Real ones run ~150 characters on; the prefix alone is specific (a macaroon header naming pypi.org).
    prefixes: ["pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"],
    parts: [run(B64URL, 16)],
  },
  {
    vendor: "Docker Hub token",
    source: "docs.docker.com, personal and organization access tokens",
    prefixes: ["dckr_pat_", "dckr_oat_"],
    parts: [run(B64URL, 27)],
  },
  {
    vendor: "DigitalOcean token",
    source: "docs.digitalocean.com, personal access tokens (dop_v1_, doo_v1_, dor_v1_)",
    prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"],
    parts: [run(HEX, 64, 64)],
  },
  {
    vendor: "SendGrid API key",
    source: "docs.sendgrid.com, API keys",
    prefixes: ["SG."],
    parts: [run(B64URL, 22, 22), ".", run(B64URL, 43, 43)],
  },
  {
    vendor: "Shopify token",
    source: "shopify.dev, access tokens (shpat_, shpca_, shppa_, shpss_)",
    prefixes: ["shpat_", "shpca_", "shppa_", "shpss_"],
    parts: [run(HEX_ANY, 32, 32)],
  },
  {
    vendor: "Twilio API key",
    source: "twilio.com/docs/iam/api-keys: sid pattern ^SK[0-9a-fA-F]{32}$",
    prefixes: ["SK"],
    parts: [run(HEX_ANY, 32, 32)],
    end: HEX_ANY,
  },
  {
    vendor: "Atlassian API token",
    source: "support.atlassian.com, API tokens (ATATT3…)",
    prefixes: ["ATATT3"],
    parts: [run(B64URL_EQ, 100)],
  },
  {
    vendor: "HashiCorp Vault token",
    source: "developer.hashicorp.com/vault/docs/concepts/tokens (hvs., hvb.)",
    prefixes: ["hvs.", "hvb."],
    parts: [run(B64URL, 90)],
  },
  {
    vendor: "Terraform Cloud token",
    source: "developer.hashicorp.com/terraform/cloud-docs/users-teams-organizations/api-tokens",
    prefixes: [""],
    parts: [run(ALNUM, 14, 14), ".atlasv1.", run(B64URL, 60)],
  },
  {
    vendor: "Sentry auth token",
    source: "docs.sentry.io/security-legal-pii/security/token-formats",
    prefixes: ["sntryu_"],
    parts: [run(HEX, 64, 64)],
  },
  {
    vendor: "Sentry organization token",
    source: "docs.sentry.io/security-legal-pii/security/token-formats",
    prefixes: ["sntrys_"],
    parts: [run(B64_EQ_US, 60)],
  },
  {
    vendor: "Grafana service account token",
    source: "grafana.com/docs, service account tokens (glsa_)",
    prefixes: ["glsa_"],
    parts: [run(ALNUM, 32, 32), "_", run(HEX_ANY, 8, 8)],
  },
  {
    vendor: "Linear API key",
    source: "linear.app/developers, personal API keys",
    prefixes: ["lin_api_"],
    parts: [run(ALNUM, 40)],
  },
  {
    vendor: "Postman API key",
    source: "learning.postman.com, API keys (PMAK-)",
    prefixes: ["PMAK-"],
    parts: [run(HEX_ANY, 24, 24), "-", run(HEX_ANY, 34, 34)],
  },
  {
    vendor: "Databricks token",
    source: "docs.databricks.com, personal access tokens (dapi…)",
    prefixes: ["dapi"],
    parts: [run(HEX, 32, 32)],
    end: HEX,
  },
  {
    vendor: "Doppler token",
    source: "docs.doppler.com, token formats (dp.pt., dp.st., dp.sa., dp.ct.)",
    prefixes: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct."],
    parts: [run(ALNUM, 40)],
  },
  {
    vendor: "Tailscale key",
    source: "tailscale.com/kb/1085/auth-keys (tskey-)",
    prefixes: ["tskey-"],
    parts: [run(ALNUM_DASH, 30)],
  },
  {
    vendor: "PlanetScale token",
    source: "planetscale.com/docs, service tokens and passwords",
    prefixes: ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"],
    parts: [run(B64URL, 32)],
  },
  {
    vendor: "New Relic user key",
    source: "docs.newrelic.com, API keys (NRAK-)",
    prefixes: ["NRAK-"],
    parts: [run(UPPER_ALNUM, 27, 27)],
  },
  {
    vendor: "Telegram bot token",
    source: "core.telegram.org/bots/api, authorizing your bot",
    prefixes: [""],
    parts: [run(DIGIT, 8, 10), ":AA", run(B64URL, 33, 33)],
  },
  {
    vendor: "Airlock device token",
    source: "README, tokens: alk_<token_id>.<secret> (src/edge/auth/tokens.ts)",
    prefixes: ["alk_"],
    parts: [run(B64URL, 16, 16), ".", run(B64URL, 43, 43)],
  },
];

const escapeLiteral = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

const partSource = (p: ShapePart) =>
  typeof p === "string" ? escapeLiteral(p) : `[${p.of.cls}]{${p.min},${p.max === undefined ? "" : p.max}}`;

/**
 * The regex source of one shape, not glued to a word before it. The literal comes first and the
 * boundary is checked behind it, so the engine looks for literals, not tries a lookbehind at every
 * position; a shape that opens with a run (Terraform, Telegram) checks that run behind its first literal.
 */
export function shapeSource(shape: CredentialShape): string {
  const end = shape.end ? `(?![${shape.end.cls}])` : "";
  if (shape.prefixes.includes("")) {
    const [first, ...rest] = shape.parts;
    if (first === undefined || typeof first === "string" || typeof rest[0] !== "string")
      throw new Error(`${shape.vendor}: a run-led shape needs a literal after its first run`);
    return `(?<=(?<![A-Za-z0-9])${partSource(first)})${rest.map(partSource).join("")}${end}`;
  }
  const open = `(?:${shape.prefixes.map(escapeLiteral).join("|")})`;
  return `${open}(?<![A-Za-z0-9]${open})${shape.parts.map(partSource).join("")}${end}`;
}

/**
 * Every row as one alternation. Each row opens with a literal and its runs have a minimum it succeeds
 * at, so a failed start costs a bounded look.
 */
const ANY_SHAPE = new RegExp(CREDENTIAL_SHAPES.map(shapeSource).join("|"));
/** The same, global: redact.ts masks every row's tokens in what Airlock shows, stores and logs. */
export const ANY_SHAPE_GLOBAL = new RegExp(ANY_SHAPE.source, "g");

// A JWT is three base64url parts; header and payload are JSON objects, so each opens with `eyJ`. It is
// found without a regex over the parts (three unbounded runs that must all succeed backtrack on crafted
// input): the runs of token characters are cut at dots and the parts checked in order.
const TOKEN_RUN = /[A-Za-z0-9_.-]{40,}/g;
const JWT_PART = /^[A-Za-z0-9_-]+$/;
const MIN_HEADER = 10;
const MIN_PAYLOAD = 10;
/** An HS256 signature is 43 characters; anything shorter is an unsigned or truncated example. */
const MIN_SIGNATURE = 16;

function decodePart(part: string): string {
  try {
    const b64 = part.replace(/-/g, "+").replace(/_/g, "/");
    return atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  } catch {
    return "";
  }
}

/**
 * A Supabase anon key is a JWT projects publish on purpose (it ships in every browser bundle); its
 * payload says `"role":"anon"`. The service-role key, the secret one, says `"service_role"`.
 */
function publicByDesign(payload: string): boolean {
  return /"role"\s*:\s*"anon"/.test(decodePart(payload));
}

/** A part's header: from its first `eyJ` that opens it or follows a `_`/`-` (`token_eyJ…`), else itself. */
function headerOf(part: string): string {
  const at = part.search(/(?:^|[_-])eyJ/);
  if (at <= 0) return part;
  return part.slice(at + 1);
}

/** True when text holds a signed JSON Web Token that is not public by design. */
export function holdsJwt(text: string): boolean {
  if (!text.includes(".eyJ")) return false;
  for (const m of text.matchAll(TOKEN_RUN)) {
    if (!m[0].includes(".eyJ")) continue;
    const parts = m[0].split(".");
    for (let i = 0; i + 2 < parts.length; i++) {
      const [h, p, s] = [headerOf(parts[i] ?? ""), parts[i + 1] ?? "", parts[i + 2] ?? ""];
      if (!h.startsWith("eyJ") || !p.startsWith("eyJ")) continue;
      if (h.length < MIN_HEADER || p.length < MIN_PAYLOAD || s.length < MIN_SIGNATURE) continue;
      if (!JWT_PART.test(h) || !JWT_PART.test(p) || !JWT_PART.test(s)) continue;
      if (!publicByDesign(p)) return true;
    }
  }
  return false;
}

/** True when text holds a credential by its shape (a row of CREDENTIAL_SHAPES, or a JWT). */
export function holdsCredentialShape(text: string): boolean {
  return ANY_SHAPE.test(text) || holdsJwt(text);
}

/** The vendor whose shape `text` holds (for tests and the bench), if any; "JWT" for a token. */
export function shapeVendor(text: string): string | undefined {
  const row = CREDENTIAL_SHAPES.find((s) => new RegExp(shapeSource(s)).test(text));
  return row?.vendor ?? (holdsJwt(text) ? "JWT" : undefined);
}
