// The files a checksum list names, for `sha256sum -c LIST` (policy/checksum-lines.ts reads its lines): the check
// hashes each and prints OK or FAILED, so a list guessing what `.env` holds (or `../x`, or an absolute path)
// is an oracle over that file. Each name is judged as a read of it where the check runs: outside the workspace,
// a secret by name or content, a link out or a hard link asks, as does a list that cannot be read or has a line
// not read here. What the check prints is names and verdicts, never contents.
import { resolve } from "node:path";
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { checksumNames } from "../../policy/checksum-lines.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import type { Context } from "./disk-context.ts";
import { pathFacts } from "./path-facts.ts";
import { isWithin } from "./real-path.ts";
import { boundedBytes } from "./text-file.ts";
import { shownPath } from "./tree-walk.ts";

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The most of a list read; a longer one asks. */
const MAX_LIST_BYTES = 1024 * 1024;

function readList(file: string): string | null {
  const bytes = boundedBytes(file, MAX_LIST_BYTES);
  if (bytes === null) return null;
  try {
    // Names as the kernel takes them: bytes that are not UTF-8 would be judged as another name, so they ask.
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** Why checking the list may hash a file the judge protects, or nothing. */
export function checksumListFacts(t: Extract<DiskTarget, { kind: "checksums" }>, ctx: Context): CallFact[] {
  const list = shownPath(t.list, ctx.cwd);
  const text = readList(t.list);
  if (text === null)
    return [
      {
        subject: t.shown,
        reason: `Airlock cannot read the checksum list \`${list}\` to see which files it checks`,
      },
    ];
  const parsed = checksumNames(text);
  if ("unread" in parsed)
    return [
      {
        subject: t.shown,
        reason: `the checksum list \`${list}\` has a line Airlock does not read (\`${parsed.unread}\`), so which file it checks is not known`,
      },
    ];
  for (const name of parsed.names) {
    if (name === "-")
      return [
        {
          subject: t.shown,
          reason: `the checksum list \`${list}\` names \`-\`, standard input, which Airlock does not see`,
        },
      ];
    const abs = resolve(t.dir, name);
    const where = shownPath(abs, ctx.cwd);
    const reason = `it hashes \`${where}\`, named in \`${list}\`: OK or FAILED tells whether a guessed content is what it holds`;
    if (!isWithin(ctx.cwd, abs)) return [{ subject: t.shown, reason: `${reason}, outside the workspace` }];
    if (isDenylistedPath(where)) return [{ subject: t.shown, reason: `${reason}, a secret` }];
    const facts = pathFacts("read", abs, `${t.shown} → ${where}`, ctx);
    if (facts.length > 0) return facts;
  }
  return [];
}
