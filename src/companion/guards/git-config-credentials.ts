// Whether entries of a git configuration file can hold a credential, judged by what the disk holds: a key
// named for one (an extra header, a token, a password, a credential helper's settings; git-config-keys.ts)
// or a value that is one (a URL with user-info, a vendor token's shape, a private key). Used where a call
// prints configuration entries as text: a recursive read reaching `.git/config` (grep -r prints every line
// of it), and `git config --get-regexp PATTERN` (it prints the entries whose key PATTERN matches).
import { lstatSync, readFileSync } from "node:fs";
import { holdsCredential, holdsPrivateKey, URL_CREDENTIAL } from "../../policy/secret-families.ts";
import { CREDENTIAL_KEY } from "../../policy/shell/grammar/programs/git-config-keys.ts";
import { fullKey, type PlacedEntry, placedEntries } from "./git-config-values.ts";

/** A git configuration file a walk may reach: the repository's, a submodule's, a worktree's own. */
const GIT_CONFIG_FILE = /(^|\/)\.git\/(modules\/.+\/)?config$|(^|\/)config\.worktree$/;

/** Bigger than this, a repository's configuration is not read here: it stays a secret. */
const MAX_CONFIG_BYTES = 64 * 1024;

/** Whether the entry is a credential, or its value holds one. */
export function credentialEntry(e: PlacedEntry): boolean {
  return (
    CREDENTIAL_KEY.test(fullKey(e)) ||
    URL_CREDENTIAL.test(e.value) ||
    holdsCredential(e.value) ||
    holdsPrivateKey(e.value)
  );
}

/**
 * Whether `file` (a real path; `rel` as the denylist judged it) is a git configuration file that holds no
 * credential: every line placed by git's grammar (a line not placed may be anything) and no entry a
 * credential. The walk goes on to scan the file's text as it scans every file (key-scan.ts, with URLs).
 */
export function plainGitConfig(file: string, rel: string): boolean {
  if (!GIT_CONFIG_FILE.test(rel)) return false;
  try {
    if (lstatSync(file).size > MAX_CONFIG_BYTES) return false;
    const entries = placedEntries(readFileSync(file, "utf8"));
    return entries !== null && !entries.some(credentialEntry);
  } catch {
    return false;
  }
}

/**
 * Why the entries of `text` whose key `pattern` matches may print a credential, or null when none does.
 * An unplaced line may be any entry: it counts as one.
 */
export function matchedCredential(text: string, pattern: RegExp): string | null {
  const entries = placedEntries(text);
  if (entries === null) return "a line git's configuration reader here does not place";
  const hit = entries.find((e) => pattern.test(fullKey(e)) && credentialEntry(e));
  return hit === undefined ? null : `\`${fullKey(hit)}\`, which holds or names a credential`;
}
