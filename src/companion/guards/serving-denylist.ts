// Which workspace-relative paths the companion never reads or serves: secrets, node_modules/, .git/.
import { isDenylistedPath } from "../../policy/secret-paths.ts";

// Directories whose contents are never served whatever the policy says: dependency trees are huge and
// attacker-controlled, and .git holds credentials (config, hooks) and history of deleted secrets.
const NEVER_SERVED_DIRS = new Set(["node_modules", ".git"]);

// Invisible code points that render as nothing; stripped so `.env\u200b` is judged like `.env`.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Every spelling of a path that a filesystem or a reader might treat as the same name: as given,
 * NFC, NFKC (fullwidth `ｎｏｄｅ_ｍｏｄｕｌｅｓ`, `．ｅｎｖ`), NFD, and each with invisible marks removed.
 * Case is handled by matching case-insensitively.
 */
export function pathSpellings(path: string): string[] {
  const forms = new Set<string>();
  for (const form of [path, path.normalize("NFC"), path.normalize("NFKC"), path.normalize("NFD")]) {
    forms.add(form);
    forms.add(form.replace(INVISIBLE, ""));
    forms.add(form.replace(INVISIBLE, "").normalize("NFKC"));
  }
  return [...forms];
}

function segmentsOf(path: string): string[] {
  return path.split(/[/\\]/).filter((s) => s !== "" && s !== ".");
}

/**
 * Why a workspace-relative path must not be read or served, or null when it may be.
 * The secret test is the policy engine's `isDenylistedPath` (one denylist for the whole product); the
 * rubric's escalators (`*token*`, …) only raise risk, so `src/auth/tokens.ts` can still be served.
 */
export function servingRefusal(relative: string): string | null {
  for (const spelling of pathSpellings(relative)) {
    const segments = segmentsOf(spelling);
    const blockedDir = segments.find((s) => NEVER_SERVED_DIRS.has(s.toLowerCase()));
    if (blockedDir !== undefined) return `${blockedDir.toLowerCase()}/ is never served`;
    const joined = segments.join("/");
    // Also judged as a folder, so a secret directory (`.ssh`, `secrets`) is not even listed.
    if (isDenylistedPath(joined) || (joined !== "" && isDenylistedPath(`${joined}/-`))) {
      return "path is on the secret-path denylist";
    }
  }
  return null;
}
