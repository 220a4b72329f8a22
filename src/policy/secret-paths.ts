// The secret-path denylist shared by risk escalation here and the companion's file guards.
import { basename, normalizePath } from "./paths.ts";

/**
 * Patterns: a bare name matches that file name anywhere; `name*`/`*.ext` are file-name globs; a
 * trailing `/` matches a directory anywhere in the path; a pattern with an inner `/` matches that
 * path suffix. The last three entries are the capability-prompt rubric's escalators.
 */
export const SECRET_PATH_PATTERNS: readonly string[] = [
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
  "*secret*",
  "*token*",
  "*credentials*",
];

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

const COMPILED = SECRET_PATH_PATTERNS.map(compilePattern);
// `.env.example` and friends are templates meant to be committed; they are not secrets.
const TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;

/** True when a path (relative or absolute) names a likely secret. */
export function isSecretPath(relOrAbsPath: string): boolean {
  const normalized = normalizePath(relOrAbsPath);
  const segs = normalized.split("/").filter((s) => s !== "" && s !== ".");
  if (segs.length === 0) return false;
  if (TEMPLATE.test(basename(normalized))) return false;
  return COMPILED.some((p) => p.test(segs));
}
