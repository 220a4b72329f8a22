// Redaction for anything shown or hashed: tokens in commands, query strings in URLs.

const SECRET_SHAPES: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\balk_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /\b[0-9a-f]{40,}\b/gi,
  /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}\b/g,
];

const SECRET_NAME =
  "(?:password|passwd|pass|pwd|token|secret|api[-_]?key|apikey|auth|access[-_]?key|private[-_]?key|credentials?)";
const FLAG_VALUE = new RegExp(`(--?[A-Za-z-]*${SECRET_NAME}[A-Za-z-]*[= ])("[^"]*"|'[^']*'|\\S+)`, "gi");
const ENV_VALUE = new RegExp(
  `\\b([A-Za-z_][A-Za-z0-9_]*${SECRET_NAME}[A-Za-z0-9_]*=)("[^"]*"|'[^']*'|\\S+)`,
  "gi",
);
const AUTH_HEADER = /(authorization:\s*(?:bearer|basic|token)?\s*)("[^"]*"|'[^']*'|[^\s'"]+)/gi;
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi;
/** Query strings of URLs inside free text (a command's curl target) often carry keys: hide them whole. */
const URL_QUERY = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#'"]+)\?[^\s#'"]*/gi;

export const REDACTED = "<redacted>";

/** Masks likely secrets in a command line or free text. */
export function redactText(text: string): string {
  let out = text
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(URL_QUERY, `$1?${REDACTED}`)
    .replace(AUTH_HEADER, `$1${REDACTED}`)
    .replace(FLAG_VALUE, `$1${REDACTED}`)
    .replace(ENV_VALUE, `$1${REDACTED}`);
  for (const re of SECRET_SHAPES) out = out.replace(re, REDACTED);
  return out;
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
