// The secret-path denylist shared by risk escalation here and the companion's file guards.
import { basename, normalizePath } from "./paths.ts";

/**
 * Patterns: a bare name matches that file name anywhere; `name*`/`*.ext` are file-name globs; a
 * trailing `/` matches a directory anywhere in the path; a pattern with an inner `/` matches that
 * path suffix. These are never read or served by the companion.
 */
export const DENYLIST_PATTERNS: readonly string[] = [
  ".env",
  ".env.*",
  ".npmrc",
  ".netrc",
  ".pypirc",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "auth.json",
  "models.json",
  "credentials*",
  "secrets/",
  ".ssh/",
  ".aws/",
  ".kube/",
  ".docker/config.json",
  ".config/gh/hosts.yml",
];

/**
 * The capability-prompt rubric's escalators: names that only suggest a secret. They raise a read's
 * risk (so a person is asked) but do not stop the companion serving, say, `src/auth/tokens.ts`.
 */
export const RISK_ESCALATOR_PATTERNS: readonly string[] = ["*secret*", "*token*", "*credentials*"];

/** Everything that makes a path secret-like: the denylist and the escalators. */
export const SECRET_PATH_PATTERNS: readonly string[] = [...DENYLIST_PATTERNS, ...RISK_ESCALATOR_PATTERNS];

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${body}$`, "i");
}

interface CompiledPattern {
  test: (segments: string[]) => boolean;
}

function compilePattern(pattern: string): CompiledPattern {
  if (pattern.endsWith("/")) {
    const dir = pattern.slice(0, -1).toLowerCase();
    // A directory pattern matches any non-final segment (the file itself is inside the directory).
    return { test: (segs) => segs.slice(0, -1).some((s) => s.toLowerCase() === dir) };
  }
  if (pattern.includes("/")) {
    const suffix = pattern.toLowerCase().split("/");
    return {
      test: (segs) => {
        if (segs.length < suffix.length) return false;
        const tail = segs.slice(segs.length - suffix.length).map((s) => s.toLowerCase());
        return tail.every((s, i) => s === suffix[i]);
      },
    };
  }
  const re = globToRegExp(pattern);
  return { test: (segs) => re.test(segs[segs.length - 1] ?? "") };
}

const DENYLIST = DENYLIST_PATTERNS.map(compilePattern);
const ESCALATORS = RISK_ESCALATOR_PATTERNS.map(compilePattern);
// `.env.example` and friends are templates meant to be committed; they are not secrets.
const TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;

function matches(patterns: CompiledPattern[], relOrAbsPath: string): boolean {
  const normalized = normalizePath(relOrAbsPath);
  const segs = normalized.split("/").filter((s) => s !== "" && s !== ".");
  if (segs.length === 0) return false;
  if (TEMPLATE.test(basename(normalized))) return false;
  return patterns.some((p) => p.test(segs));
}

/** True when a path is on the denylist: never read or served by the companion. */
export function isDenylistedPath(relOrAbsPath: string): boolean {
  return matches(DENYLIST, relOrAbsPath);
}

/** True when a path (relative or absolute) names a likely secret: denylisted or escalated to high risk. */
export function isSecretPath(relOrAbsPath: string): boolean {
  return matches(DENYLIST, relOrAbsPath) || matches(ESCALATORS, relOrAbsPath);
}
