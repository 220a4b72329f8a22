// Subcommands of git that read only in some forms (a listing form), decided by the words after the
// subcommand before its options are parsed: `git branch NAME` creates, `git reflog expire` writes,
// `git notes add` writes; and `git clean`, which only lists what it would remove with -n, decided once
// its options are parsed; `git help NAME`, which runs man.
import type { Arg } from "../../wrappers.ts";
import type { Effects, NotUnderstood, Parsed } from "../spec.ts";

/** What the first word after `git reflog` makes it (builtin/reflog.c, 2.39): these three write or test. */
const REFLOG_ACTIONS = new Set(["expire", "delete", "exists"]);

export function subcommandForm(name: string, rest: readonly Arg[]): NotUnderstood | null {
  if (name === "branch" || name === "tag") return listingForm(name, rest);
  if (name === "symbolic-ref") return symbolicRefForm(rest);
  if (name === "reflog") {
    // git compares argv[1] exactly: an option (or nothing) shows HEAD's reflog, `show` its own form
    // (two words), any other word but these three is a ref to show.
    const first = rest[0];
    if (first === undefined) return null;
    if (first.value === null)
      return { word: first.raw, reason: "it is only known at run time, so it could be `git reflog expire`" };
    if (REFLOG_ACTIONS.has(first.value))
      return {
        word: first.raw,
        reason: `git reflog ${first.value} changes or tests the reflog, not shown here`,
      };
  }
  return null;
}

/** `git symbolic-ref NAME REF` points NAME at REF: only the one-operand form reads. */
function symbolicRefForm(rest: readonly Arg[]): NotUnderstood | null {
  const dashes = rest.findIndex((r) => r.value === "--");
  const operands = rest.filter((r, k) => (dashes !== -1 && k > dashes) || !(r.value ?? "").startsWith("-"));
  const second = operands[1];
  return second === undefined ? null : { word: second.raw, reason: "git symbolic-ref NAME REF sets the ref" };
}

/** Forms of listing subcommands that would write instead (`git branch NAME`, `git tag NAME`). */
function listingForm(name: string, rest: readonly Arg[]): NotUnderstood | null {
  const values = rest.map((r) => r.value ?? "");
  const listing = values.some((v) => /^(-l|--list|-[a-zA-Z]*l[a-zA-Z]*)$/.test(v));
  if (listing) return null;
  const operand = rest.find((r, k) => !(r.value ?? "").startsWith("-") && !takesValue(values[k - 1] ?? ""));
  return operand === undefined ? null : { word: operand.raw, reason: `git ${name} NAME creates a ${name}` };
}

function takesValue(prev: string): boolean {
  return /^--(contains|no-contains|merged|no-merged|points-at|sort|format)$/.test(prev);
}

/**
 * `git clean` deletes unless -n is in effect (clean.requireForce=false lets it delete without -f), so a
 * dry run is understood only with -n given and never negated (`-n --no-dry-run` deletes).
 */
export function cleanForm(p: Parsed): NotUnderstood | null {
  const negated = p.options.find((o) => o.name.startsWith("--no-"));
  if (negated !== undefined)
    return { word: negated.word.raw, reason: "git clean without a dry run deletes files" };
  return p.has("dry-run") ? null : { word: p.program, reason: "git clean without -n deletes files" };
}

/**
 * `git apply` writes the work tree (or the index) unless --stat, --numstat, --summary or --check turns
 * applying off, and --apply (not listed) or a negation (`--no-check`) turns it back on.
 */
export function applyForm(p: Parsed): NotUnderstood | null {
  const negated = p.options.find((o) => o.name.startsWith("--no-"));
  if (negated !== undefined) return { word: negated.word.raw, reason: "git apply would apply the patch" };
  return p.has("no-apply")
    ? null
    : {
        word: p.program,
        reason: "git apply without --check, --stat, --numstat or --summary applies the patch",
      };
}

/**
 * `git format-patch` writes a file per commit (into format.outputDirectory when set) unless --stdout is in
 * effect; `--no-stdout` (or a prefix of it, `--no-std`) after it writes them again (proven on 2.39).
 */
export function formatPatchForm(p: Parsed): NotUnderstood | null {
  const negated = p.options.find((o) => /^--no-./.test(o.name) && "stdout".startsWith(o.name.slice(5)));
  if (negated !== undefined)
    return { word: negated.word.raw, reason: "git format-patch --no-stdout writes files" };
  return p.has("stdout")
    ? null
    : { word: p.program, reason: "git format-patch without --stdout writes a file per commit" };
}

/**
 * `git remote show NAME` asks each remote for its branches (ls-remote: ssh, a credential helper, a proxy
 * command); with -n it prints only what the configuration and the remote-tracking refs hold (no transport
 * opened, proven by strace on 2.39), as `git remote -v` does.
 */
export function remoteShowForm(p: Parsed): NotUnderstood | null {
  return p.has("-n") ? null : { word: p.program, reason: "git remote show without -n queries each remote" };
}

/**
 * `git help NAME` runs `man git-NAME` (`man gitNAME` for a guide; a name starting with git as it is), a unit
 * judged as that man command (builtin/help.c, 2.39, with help.format's default). Configuration can choose
 * info, a browser or any program instead (help.format, man.viewer, man.<tool>.cmd, help.browser…): the disk
 * looks at every layer of it (guards/git-help-viewer.ts).
 */
export function helpPage(page: Arg, out: Effects): NotUnderstood | null {
  if (page.value === null) return { word: page.raw, reason: "the help page is only known at run time" };
  const name = page.value.startsWith("git") ? page.value : `git-${page.value}`;
  out.inner.push([
    { value: "man", raw: "man", glob: false, tilde: false },
    { ...page, value: name, raw: name },
  ]);
  return null;
}

/** `git difftool --tool-help`, spelled whole: any other form (`--tool=X`, a path, no option) runs a tool. */
export function difftoolForm(p: Parsed): NotUnderstood | null {
  const only = p.options.length === 1 && p.operands.length === 0 ? p.options[0] : undefined;
  return only?.word.value === "--tool-help"
    ? null
    : { word: p.argv.at(-1)?.raw ?? p.program, reason: "git difftool runs the configured diff tool" };
}

/** A pack of the repository git finds, as git's store names it; the disk checks where it really is. */
const OWN_PACK = /^(\.\/)?\.git\/objects\/pack\/pack-([0-9a-f]{40}|[0-9a-f]{64})\.(idx|pack)$/;

/** `git verify-pack PACK…`: one pack or more, each spelled `.git/objects/pack/pack-ID.idx` (or `.pack`). */
export function verifyPackForm(p: Parsed): NotUnderstood | null {
  const odd = p.operands.find((a) => a.value === null || a.glob || !OWN_PACK.test(a.value));
  if (odd !== undefined)
    return { word: odd.raw, reason: "git verify-pack is understood on `.git/objects/pack/pack-ID.idx` only" };
  return p.operands.length === 0 ? { word: p.program, reason: "git verify-pack needs a pack" } : null;
}
