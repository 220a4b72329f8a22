// One concrete path a call reads or writes, looked at on disk: where its links lead, whether it is a hard
// link, inside a git repository directory or a virtual environment, and whether it holds a key.
import { dirname, resolve } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { isGitMetadataPath, KEY_SCAN_MAX_BYTES } from "../../policy/secret-families.ts";
import { isDenylistedPath, isProtectedWritePath, secretFamilyOf } from "../../policy/secret-paths.ts";
import { WIDEST } from "../../policy/walk-styles.ts";
import { airlockHomeFact } from "./airlock-home.ts";
import { type Context, realWorkspace } from "./disk-context.ts";
import { loadedWriteFact, movedSecretFact } from "./env-loads.ts";
import { gitDirFile, gitDirHolding } from "./git-dir-files.ts";
import { looksLikeGitDir } from "./git-discovery.ts";
import { rawObjectStore } from "./git-raw-objects.ts";
import { homeConfigFact, homeStartupFact } from "./home-links.ts";
import { heldHome, homeStateReadFact } from "./home-state.ts";
import { hookRunWriteFact } from "./hook-configs.ts";
import { PACKED_REASON, scanFile } from "./key-scan.ts";
import { pathShadowFact } from "./path-shadow.ts";
import { virtualenvHolding } from "./python-venv.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { referencedWriteFact } from "./referenced-writes.ts";
import { scratchFact } from "./scratch-files.ts";
import { shownPath, walkFact } from "./tree-walk.ts";

/** A directory read file by file (`diff DIR1 DIR2`, `file -m DIR`): every file directly in it, dotfiles too. */
const ENTRIES_READ = { ...WIDEST, depth: 1 };

/** macOS's own /etc, /tmp and /var are links into /private: the same directory, not a link anyone made. */
function sameOsDirectory(lexical: string, real: string): boolean {
  return /^\/(?:etc|tmp|var)\//.test(lexical) && real === `/private${lexical}`;
}

/** One concrete path (no glob left): what reading or writing it really touches. */
export function pathFacts(
  access: "read" | "write",
  lexical: string,
  subject: string,
  ctx: Context,
  entries = false,
): CallFact[] {
  const r = realPathOf(lexical);
  if (!r.ok) return [{ subject, reason: `cannot be resolved (${r.reason})` }];
  const { real, stat } = r;
  const facts: CallFact[] = [];
  if (entries && access === "read" && stat?.isDirectory()) {
    const f = walkFact(real, ENTRIES_READ, ctx.workspace, subject, ctx.walkBound, undefined, heldHome(ctx));
    if (f !== null) facts.push(f);
  }
  const where = shownPath(real, ctx.workspace);
  // Rules judged the path tidied (`a/lnk/../x` as `a/x`); the kernel applies `..` after the symlink.
  if (/\/\.\.(\/|$)/.test(lexical)) {
    const tidy = realPathOf(resolve(lexical));
    if (tidy.ok && tidy.real !== real)
      facts.push({
        subject,
        reason: `\`..\` after a symlink leads to \`${where}\`, not to \`${shownPath(tidy.real, ctx.workspace)}\` as the rules read it`,
      });
  }
  if (real !== lexical) {
    if (access === "read" && isDenylistedPath(real) && !isDenylistedPath(lexical)) {
      const family = secretFamilyOf(real);
      facts.push({
        subject,
        reason: `is a link to \`${where}\`, a secret${family ? ` (${family.family})` : ""}`,
      });
    } else if (access === "write" && isProtectedWritePath(real) && !isProtectedWritePath(lexical))
      facts.push({
        subject,
        reason: `is a link to \`${where}\`, a file that holds secrets or decides what runs`,
      });
    if (isWithin(ctx.cwd, lexical) && !isWithin(ctx.workspace, real))
      facts.push({ subject, reason: `leads out of the workspace through a symlink, to \`${real}\`` });
    // Outside the workspace a rule allowed the name (a global package, a system source): the kernel reads
    // where the link lands, which the rules must allow too (an `npm link` into another project, round 21).
    else if (access === "read" && !isWithin(ctx.cwd, lexical) && !sameOsDirectory(lexical, real))
      facts.push({
        subject,
        reason: `is a link to \`${where}\`, which the rules did not judge`,
        unlessReadable: real,
      });
  }
  // A write inside a directory git takes for a repository (HEAD, objects, refs: a bare one shipped in the
  // workspace, or one the agent built file by file) may set its config's programs (red team, round 7).
  if (access === "write" && isWithin(ctx.workspace, real)) {
    for (let d = dirname(real); isWithin(ctx.workspace, d) && d !== ctx.workspace; d = dirname(d))
      if (looksLikeGitDir(d)) {
        facts.push({
          subject,
          reason: `is inside \`${shownPath(d, ctx.workspace)}\`, a git repository directory whose files decide what git runs`,
        });
        break;
      }
  }
  // A file directly in /tmp is scratch only when it is the user's own regular file (round 17).
  const scratch = scratchFact(access, lexical, subject);
  if (scratch !== null) facts.push(scratch);
  // HOME's own state read from a workspace that holds HOME, by its real path (`app/cfg` → `~/.config`, round 18).
  const state = access === "read" ? homeStateReadFact(real, lexical, ctx, subject) : null;
  if (state !== null) facts.push(state);
  // Airlock's own home, wherever it is (round 16).
  const own = airlockHomeFact(access, real, lexical, ctx, subject);
  if (own !== null) facts.push(own);
  // And a write where the agent's environment tells a program to load code or configuration from (round 15).
  // A read where the agent's environment moved a credential store (`$KUBECONFIG`, `$HF_HOME/token`, round 16).
  const loaded =
    access === "write"
      ? loadedWriteFact(real, lexical, ctx, subject)
      : movedSecretFact(real, lexical, ctx, subject);
  if (loaded !== null) facts.push(loaded);
  // And a file an agent's, the editor's or git's hook configuration runs (round 16).
  const hooked = access === "write" ? hookRunWriteFact(real, lexical, ctx, subject) : null;
  if (hooked !== null) facts.push(hooked);
  // And a write that shadows a program for later shells: `bin/ls` when PATH searches the project's bin/ (round 18).
  const shadow = access === "write" ? pathShadowFact(real, ctx, subject) : null;
  if (shadow !== null) facts.push(shadow);
  // So is a write inside a Python virtual environment under any name (python-venv.ts, round 14).
  const venv = access === "write" ? virtualenvHolding(real, realWorkspace(ctx)) : null;
  if (venv !== null)
    facts.push({
      subject,
      reason: `is inside \`${shownPath(venv, ctx.workspace)}\`, a Python virtual environment whose files run when it is used`,
    });
  // A write that lands in HOME's own configuration (~/.config/…, ~/.jq) through a link (round 16).
  const config = access === "write" ? homeConfigFact(real, lexical, ctx, subject) : null;
  if (config !== null) facts.push(config);
  // A write to a file a link under HOME leads to is a write to that start-up file (a dotfiles repository).
  else if (access === "write" && !isProtectedWritePath(real) && !isProtectedWritePath(lexical)) {
    const home = homeStartupFact(real, ctx.env, subject);
    if (home !== null) facts.push(home);
    // So is a write to a file the user's configuration runs or includes by path (round 16).
    const named = home === null ? referencedWriteFact(real, lexical, ctx, subject) : null;
    if (named !== null) facts.push(named);
  }
  // A file of a repository directory under another name (`gitstore/config`, `mirror.git/logs/HEAD`) is
  // git's own file as `.git/…` is (round 12).
  const gitDir = access === "read" && stat?.isFile() ? gitDirHolding(real, realWorkspace(ctx)) : null;
  const store = access === "read" && stat?.isFile() ? rawObjectStore(real) : null;
  if (store !== null)
    facts.push({
      subject,
      reason: `is a raw object file of the git repository \`${shownPath(store, ctx.workspace)}\`: its history compressed, which the history check and the content scan do not see through`,
    });
  else if (gitDir !== null && gitDirFile(gitDir, real) === "secret")
    facts.push({
      subject,
      reason: `is \`${shownPath(real, ctx.workspace)}\` of the git repository directory \`${shownPath(gitDir, ctx.workspace)}\`, which holds its remotes' credentials as .git/config does`,
    });
  else if (stat?.isFile()) {
    if (stat.nlink > 1)
      facts.push({
        subject,
        reason: `has ${stat.nlink - 1} other name${stat.nlink > 2 ? "s" : ""} (a hard link), which may be a secret such as ~/.aws/credentials`,
      });
    else if (access === "read" && !isDenylistedPath(real)) {
      // Git's own files (reflogs, FETCH_HEAD, .git/remotes) keep URLs as typed: `pull https://u:PASS@h`.
      const gitFile = isGitMetadataPath(real) || isGitMetadataPath(lexical) || gitDir !== null;
      const scan = scanFile(real, stat.size, KEY_SCAN_MAX_BYTES, gitFile);
      if (scan === "key")
        facts.push({
          subject,
          reason: gitFile
            ? "is a file of git's own that holds a credential (a URL with a password, a token or a key)"
            : "holds a private key or a credential",
        });
      else if (scan === "too-large")
        facts.push({ subject, reason: `is ${stat.size} bytes, too large to check for a private key` });
      else if (scan === "packed") facts.push({ subject, reason: PACKED_REASON });
    }
  }
  return facts;
}
