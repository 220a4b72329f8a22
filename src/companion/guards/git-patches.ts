// The files a patch names, for `git apply --check` (policy/git-patches.ts): it compares the patch's context
// and removed lines with each file, so its exit status says whether a guessed line is there. Each file is
// judged as a read of it: a secret by name or content, a link out, or a path outside the workspace (`../x`
// or an absolute one, which git applies outside a repository) asks. A patch that cannot be read asks too.
import { resolve } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { type Context, realWorkspace } from "./disk-context.ts";
import { pathFacts } from "./path-facts.ts";
import { isWithin } from "./real-path.ts";
import { boundedBytes } from "./text-file.ts";
import { shownPath } from "./tree-walk.ts";

/** The most of a patch read for its headers; a longer one asks. */
const MAX_PATCH_BYTES = 4 * 1024 * 1024;

function readPatch(file: string): string | null {
  return boundedBytes(file, MAX_PATCH_BYTES)?.toString("utf8") ?? null;
}

/** A header's path as git takes it: `/dev/null` is none; a quoted one (C-style escapes) is not read here. */
type HeaderPath = { path: string } | { none: true } | { unread: string };

/**
 * The paths a patch's headers name (`diff --git a/X b/Y`, `--- X`, `+++ Y`, rename and copy lines), each
 * with `strip` leading components removed as `-p` does (rename/copy lines are already stripped).
 */
export function patchPaths(text: string, strip: number): HeaderPath[] {
  const out: HeaderPath[] = [];
  const stripped = (p: string): HeaderPath => {
    if (p.startsWith('"')) return { unread: p };
    const path = p.split("\t")[0]?.trimEnd() ?? "";
    if (path === "/dev/null") return { none: true };
    const parts = path.split("/").filter((s, i) => s !== "" || i === 0);
    return { path: strip === 0 ? path : parts.slice(strip).join("/") };
  };
  for (const line of text.split("\n")) {
    const git = /^diff --git (\S+) (\S+)$/.exec(line);
    if (git) out.push(stripped(git[1] as string), stripped(git[2] as string));
    else if (/^diff --git /.test(line)) out.push({ unread: line });
    const header = /^(?:---|\+\+\+) (.+)$/.exec(line);
    if (header) out.push(stripped(header[1] as string));
    const moved = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line);
    if (moved) out.push(moved[1]?.startsWith('"') ? { unread: moved[1] } : { path: moved[1] as string });
  }
  return out;
}

/** Why `git apply --check` of these patches may test lines of a file the judge protects, or null. */
export function patchFacts(
  patches: { files: readonly string[]; strip: number },
  dirs: readonly string[],
  ctx: Context,
  subject: string,
): CallFact[] {
  const ws = realWorkspace(ctx);
  for (const file of patches.files) {
    const text = readPatch(file);
    if (text === null)
      return [
        {
          subject,
          reason: `Airlock cannot read the patch \`${shownPath(file, ws)}\` to see which files it checks`,
        },
      ];
    for (const h of patchPaths(text, patches.strip)) {
      if ("none" in h) continue;
      if ("unread" in h)
        return [
          { subject, reason: `the patch names a quoted path (\`${h.unread}\`), which Airlock does not read` },
        ];
      // git takes the path from the top of the work tree, or, outside a repository, from where it runs.
      for (const dir of dirs) {
        const abs = resolve(dir, h.path);
        const where = shownPath(abs, ws);
        const reason = `\`git apply --check\` compares the patch's lines with \`${where}\`: its exit status tells whether a guessed line is there`;
        if (!isWithin(ws, abs)) return [{ subject, reason: `${reason}, outside the workspace` }];
        if (isDenylistedPath(where)) return [{ subject, reason: `${reason}, a secret` }];
        const facts = pathFacts("read", abs, `${subject} → ${where}`, ctx);
        if (facts.length > 0) return facts;
      }
    }
  }
  return [];
}
