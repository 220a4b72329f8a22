// Redaction for anything Airlock shows, stores, logs or exports: one marker, one set of rules, used by the
// policy (scope summaries), the edge (audit, logs, stored calls) and the companion.
import { ANY_SHAPE_GLOBAL } from "./credential-shapes.ts";

/** The one redaction marker, wherever a secret was masked (src/protocol documents it). */
export const REDACTED = "<redacted>";

/** Key shapes that are secrets wherever they appear (also glued to a name: `mcp__x__ghp_…`). */
const SECRET_SHAPES: RegExp[] = [
  /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g,
  /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}/g,
  /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}/g,
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])/g,
  /(?<![A-Za-z0-9])alk_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
  /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /\b[0-9a-f]{40,}\b/gi,
  /(?<![A-Za-z0-9])(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
  // Every vendor's published token shape the content scans know (credential-shapes.ts, round 12).
  ANY_SHAPE_GLOBAL,
];

const SECRET_NAME =
  "(?:password|passwd|pass|pwd|token|secret|api[-_]?key|apikey|auth|access[-_]?key|private[-_]?key|credentials?|cookie)";
const VALUE = `("[^"]*"|'[^']*'|[^\\s'"]+)`;
const FLAG_VALUE = new RegExp(`(--?[A-Za-z-]*${SECRET_NAME}[A-Za-z-]*[= ])${VALUE}`, "gi");
const ENV_VALUE = new RegExp(`\\b([A-Za-z_][A-Za-z0-9_]*${SECRET_NAME}[A-Za-z0-9_]*=)${VALUE}`, "gi");
/** `Authorization: Bearer x`, `X-Api-Key: x`, `Cookie: a=b`: a secret-named header's whole value. */
const HEADER_VALUE = new RegExp(
  `(\\b(?:authorization|proxy-authorization|cookie|set-cookie|[\\w-]*${SECRET_NAME}[\\w-]*)\\s*:\\s*(?:(?:bearer|basic|token|digest)\\s+)?)("[^"]*"|'[^']*'|[^\\s'"]+)`,
  "gi",
);
/** A bearer or basic credential anywhere, header name or not. */
const SCHEME_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
/** `"password": "x"` inside text (a curl -d body, a logged object). */
const JSON_PAIR = new RegExp(`("[^"]*${SECRET_NAME}[^"]*"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "gi");
/** mysql's password glued to its flag: `mysql -pS3cret db` (a bare `-p` prompts, and is left alone). */
const MYSQL_PASSWORD =
  /(\bmysql(?:dump|admin|import|show|check)?\b[^|;&\n]*?\s-p)([^\s'"]+|"[^"]*"|'[^']*')/gi;
/** curl and wget credentials: `curl -u user:pass`, `--user=user:pass`, `--proxy-user …`. */
const CURL_USER =
  /(\b(?:curl|wget)\b[^|;&\n]*?\s(?:-u\s*|-U\s*|--user[= ]|--proxy-user[= ]|--http-password[= ]))("[^"]*"|'[^']*'|[^\s'"]+)/gi;
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi;
/** Query strings of URLs inside free text (a command's curl target) often carry keys: hide them whole. */
const URL_QUERY = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#'"]+)\?[^\s#'"]*/gi;

// Each pattern above needs a word that a plain command rarely has (`://`, a secret-ish name, `curl`,
// a key prefix, a run of 40 hex digits): one case-insensitive test per group decides whether its
// patterns can match at all, so most texts skip most passes (a dozen regex replaces was ~15% of an
// uncached decision). The guards only ever skip a pass that could not change the text: each is a
// necessary condition of its patterns, and the marker the passes insert contains none of them
// (test/node/policy/redact.test.ts checks the result equals every pass run unconditionally).
const MAY_URL = /:\/\//;
const MAY_NAMED = new RegExp(`${SECRET_NAME}|bearer|basic|mysql|curl|wget`, "i");
const MAY_SHAPE =
  /gh[pousr]_|github_pat_|sk-|xox[abprs]-|AKIA|ASIA|alk_|eyJ|[spr]k_(?:live|test)_|[0-9a-f]{40}/i;

/** The guard of the credential-shape pass: the pass's own pattern (a test, no replace). */
function mayCredentialShape(text: string): boolean {
  ANY_SHAPE_GLOBAL.lastIndex = 0;
  return ANY_SHAPE_GLOBAL.test(text);
}

/** Masks likely secrets in a command line or free text. */
export function redactText(text: string): string {
  const url = MAY_URL.test(text);
  const named = MAY_NAMED.test(text);
  if (!url && !named && !MAY_SHAPE.test(text) && !mayCredentialShape(text)) return text;
  return redactAll(text);
}

/** Every pass, unconditionally (redactText skips the passes that cannot match). */
export function redactAll(text: string): string {
  let out = text
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(URL_QUERY, `$1?${REDACTED}`)
    .replace(JSON_PAIR, `$1"${REDACTED}"`)
    .replace(HEADER_VALUE, `$1${REDACTED}`)
    .replace(SCHEME_VALUE, `$1 ${REDACTED}`)
    .replace(MYSQL_PASSWORD, `$1${REDACTED}`)
    .replace(CURL_USER, `$1${REDACTED}`)
    .replace(FLAG_VALUE, `$1${REDACTED}`)
    .replace(ENV_VALUE, `$1${REDACTED}`);
  for (const re of SECRET_SHAPES) out = out.replace(re, REDACTED);
  return out;
}

/** Whether text carries something redaction would mask: such text cannot be an identifier. */
export function carriesSecret(text: string): boolean {
  return redactText(text) !== text;
}

/** JSON keys whose values are secrets whatever they look like (`code` is a pairing code). */
const SECRET_KEY =
  /(password|passwd|passphrase|secret|token|api[-_]?key|apikey|authorization|cookie|credential|private[-_]?key|pepper|recovery|^code$)/i;

/** Airlock's own sha256 digests (`scope_hash`, `scope_hashes`) look like hex keys but are not secrets. */
const DIGEST_KEY = /(^|_)(hash|hashes)$/i;
const isDigest = (v: unknown): boolean =>
  (typeof v === "string" && /^[0-9a-f]{64}$/.test(v)) || (Array.isArray(v) && v.every(isDigest));

/**
 * A git commit id under git's own name for it (`sha`, `head_sha`: a merge's argument, a pull request's head) is a
 * content address, not a secret: the person approving a merge must see which commit it is.
 */
const COMMIT_KEY = /(^|_)sha$/i;
const COMMIT_ID = /^[0-9a-f]{40}$/;

/**
 * In text, the same 40 hex digits cannot be told from a key, so a commit id reaches the model only as a mark the
 * hosted runtime writes from a result's commit-id field (which redaction kept, above): `[commit <40 hex>]`. A
 * provider's own text never carries one: its 40-hex runs were redacted when the result was stored.
 */
export const commitMark = (sha: string): string => `[commit ${sha}]`;
export const isCommitId = (value: unknown): value is string =>
  typeof value === "string" && COMMIT_ID.test(value);
/** The field names whose 40-hex values are commit ids (`sha`, `head_sha`). */
export const isCommitKey = (key: string): boolean => COMMIT_KEY.test(key);
const COMMIT_MARK = /\[commit ([0-9a-f]{40})\]/g;

/** redactText, but commit marks stay readable (only for text whose marks Airlock wrote: see commitMark). */
export function redactKeepingCommitMarks(text: string): string {
  const kept: string[] = [];
  // A held mark's name carries a fresh nonce: nothing in the text can imitate it.
  const nonce = crypto.randomUUID().replaceAll("-", "");
  const held = text.replace(COMMIT_MARK, (_, sha: string) => `[held ${nonce} ${kept.push(sha) - 1}]`);
  const out = redactText(held);
  return out.replace(new RegExp(`\\[held ${nonce} (\\d+)\\]`, "g"), (_, i: string) =>
    commitMark(kept[Number(i)] ?? REDACTED),
  );
}

/**
 * A deep copy with secret-named keys masked and every string redacted; past `maxDepth` a subtree becomes
 * the marker. Iterative, so hostile nesting cannot overflow the stack.
 */
export function redactValue(value: unknown, maxDepth = 16): unknown {
  const root: { v: unknown } = { v: undefined };
  const stack: {
    from: unknown;
    into: Record<string, unknown> | unknown[];
    key: string | number;
    depth: number;
  }[] = [{ from: value, into: root as unknown as Record<string, unknown>, key: "v", depth: 0 }];
  while (stack.length) {
    const { from, into, key, depth } = stack.pop() as (typeof stack)[number];
    let out: unknown;
    if (typeof from === "string") out = redactText(from);
    else if (from === null || typeof from !== "object") out = from;
    else if (depth >= maxDepth) out = REDACTED;
    else if (Array.isArray(from)) {
      const copy: unknown[] = [];
      for (const [i, item] of from.entries())
        stack.push({ from: item, into: copy, key: i, depth: depth + 1 });
      out = copy;
    } else {
      const copy: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(from)) {
        if (SECRET_KEY.test(k) && inner !== null && typeof inner !== "boolean") copy[k] = REDACTED;
        else if (DIGEST_KEY.test(k) && isDigest(inner)) copy[k] = inner;
        else if (isCommitKey(k) && isCommitId(inner)) copy[k] = inner;
        else stack.push({ from: inner, into: copy, key: k, depth: depth + 1 });
      }
      out = copy;
    }
    (into as Record<string | number, unknown>)[key] = out;
  }
  return root.v;
}

export interface UrlParts {
  host: string;
  summary: string;
}

/** Host and a summary "host/path" with the query hidden; null when the URL does not parse. */
export function summarizeUrl(raw: string): UrlParts | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (!url.hostname) return null;
  const query = url.search ? `?${REDACTED}` : "";
  return {
    host: url.hostname.toLowerCase(),
    summary: `${url.protocol}//${url.host}${redactText(url.pathname)}${query}`,
  };
}
