// The workspace's part of a repository whose top is above it (a dotfiles repository with its work tree at
// $HOME, a monorepo): git prints paths of the whole tree from there, so each one it may print is checked
// against the part (red team, round 13: `git log -p` in ~/proj printed ~/notes/private.txt).
import { isAbsolute, relative } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";

/** Why git printing a path (from the top) shows a file outside the workspace; null when it does not. */
export type OutsideCheck = (path: string) => CallFact | null;

/**
 * The check for a repository whose top is above the workspace (its real path): a path is inside when it
 * is in the workspace's part of the tree, or a directory above it (a tree, whose names git lists). Null
 * when the top is the workspace, where every path git prints is inside.
 */
export function outsideCheck(top: string | null, workspace: string, subject: string): OutsideCheck | null {
  const part = top === null ? "" : relative(top, workspace);
  if (part === "" || part === ".." || part.startsWith("../") || isAbsolute(part)) return null;
  return (path) =>
    path === part || path.startsWith(`${part}/`) || path === "" || part.startsWith(`${path}/`)
      ? null
      : {
          subject,
          reason: `git may print \`${path}\`, outside the workspace (the repository's top is \`${top}\`)`,
        };
}
