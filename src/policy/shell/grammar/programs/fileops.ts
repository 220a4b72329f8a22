// Programs that create, copy, move or remove the files they are given (GNU coreutils 9.1): each
// operand is a path written (removed, created or changed), a source read, or a directory walked.

import type { Arg } from "../../wrappers.ts";
import { raise } from "../effects.ts";
import { pathEffect } from "../parse.ts";
import {
  flag,
  GNU_COMMON,
  opt,
  optional,
  type Parsed,
  type PathEffect,
  type ProgramGrammar,
} from "../spec.ts";

const writes = (
  names: string[],
  options: ProgramGrammar["options"],
  finish?: ProgramGrammar["finish"],
): ProgramGrammar => ({
  names,
  options: [...GNU_COMMON, ...options],
  permute: true,
  abbreviate: true,
  operands: ["write"],
  effect: "write",
  ...(finish !== undefined ? { finish } : {}),
});

/** An operand `-`, which the grammar places nowhere: mkdir makes a directory by that name, touch stdout's file. */
const dashOperand = (p: Parsed) => p.operands.some((a) => a.value === "-");

export const mkdir: ProgramGrammar = {
  ...writes(
    ["mkdir"],
    [
      opt("-m --mode"),
      flag("-p --parents"),
      flag("-v --verbose"),
      flag("-Z", "context"),
      optional("--context"),
    ],
  ),
  // It makes the directories named, no more; an SELinux context is a label its paths do not show.
  placedOnly: (p) => !dashOperand(p) && !p.has("context") && !p.has("--context"),
};

export const touch: ProgramGrammar = {
  ...writes(
    ["touch"],
    [
      ...["-a", "-c --no-create", "-f", "-h --no-dereference", "-m"].map((n) => flag(n)),
      opt("-d --date -t", "string", { mode: "time-from" }),
      opt("-r --reference", "list", { mode: "time-from" }),
      opt("--time", "string", { choices: ["access", "atime", "use", "modify", "mtime"] }),
    ],
  ),
  // Only the current time is its own: a date string may read a zone file (`-d 'TZ="/etc/passwd" …'` opens it),
  // and -r copies another file's times, a look at that file its paths do not judge as a read.
  placedOnly: (p) => !dashOperand(p) && !p.has("time-from"),
};

export const rm: ProgramGrammar = {
  ...writes(
    ["rm"],
    [
      ...["-f --force", "-i", "-I", "--one-file-system", "-d --dir", "-v --verbose"].map((n) => flag(n)),
      flag("-r -R --recursive", "recursive"),
      flag("--no-preserve-root", "no-preserve-root"),
      optional("--interactive", "string", ["never", "no", "none", "once", "always", "yes"]),
      optional("--preserve-root", "string", ["all"]),
    ],
    (p, out) => {
      if (p.has("no-preserve-root"))
        return { word: "--no-preserve-root", reason: "rm --no-preserve-root may remove /" };
      if (p.has("recursive")) for (const e of out.paths) e.below = true;
      return null;
    },
  ),
  effect: "destroy",
};

const COPY_OPTIONS: ProgramGrammar["options"] = [
  ...GNU_COMMON,
  ...[
    "-b",
    "-f --force",
    "-i --interactive",
    "-n --no-clobber",
    "-T --no-target-directory",
    "-u --update",
  ].map((n) => flag(n)),
  ...["-v --verbose", "--strip-trailing-slashes", "-Z --context"].map((n) => flag(n)),
  optional("--backup", "string", ["none", "off", "numbered", "t", "existing", "nil", "simple", "never"]),
  opt("-S --suffix"),
  opt("-t --target-directory", "write", { mode: "target" }),
];

/**
 * Whether the copy may leave a symlink (or a hard link) at the destination: mv moves links as they are,
 * cp -P/-d/-a and cp -R (without -L or -H) copy them as links, cp -l/-s make links. A relative link then
 * resolves from its new directory: `cp -P a/rc rc` makes `rc` → `../.bashrc`, outside the project, so what
 * the command reads or writes there afterwards is not the name the disk shows now (red team 16, r16b-03).
 */
function mayLeaveLinks(p: Parsed, moves: boolean): boolean {
  if (moves || p.has("links")) return true;
  return p.has("recursive") && !p.has("-L") && !p.has("-H");
}

/**
 * Where `source` lands in the directory `dest`: under its last name (`a/b/` lands as `dest/b`), or its
 * whole path with --parents. Unknown (judged as a write only known at run time) when either is.
 */
function landing(dest: Arg, source: Arg, parents: boolean): Arg {
  if (dest.value === null || source.value === null || source.pipe === true)
    return { value: null, raw: `${dest.raw}/…`, glob: false, tilde: false };
  const trimmed = source.value.replace(/\/+$/, "");
  const name = parents ? trimmed.replace(/^\/+/, "") : trimmed.slice(trimmed.lastIndexOf("/") + 1);
  const value = `${dest.value.replace(/\/+$/, "")}/${name}`;
  return { value, raw: value, glob: dest.glob || source.glob, tilde: dest.tilde };
}

/**
 * A copy its paths show in full: each source read, the destination (or the source's landing in it) written.
 * Not so a backup's name (-b, --backup, -S), an SELinux label (-Z), what --preserve keeps (links, xattrs, a
 * setuid mode) or what --attributes-only and --copy-contents do instead of copying bytes; -u, -n, -i only
 * write less, -t, -T and --parents are placed.
 */
function plainCopy(p: Parsed): boolean {
  const hidden = ["-b", "--backup", "-S", "-Z", "--preserve", "--attributes-only", "--copy-contents"];
  return !hidden.some((o) => p.has(o));
}

/** Sources read (recursively with -r), the last operand (or -t DIR) written. */
function copy(moves: boolean): ProgramGrammar["finish"] {
  return (p, out) => {
    const target = p.values("target")[0];
    const sources = target === undefined ? p.operands.slice(0, -1) : p.operands;
    const dest = target ?? p.operands[p.operands.length - 1];
    if (dest === undefined || sources.length === 0)
      return { word: p.program, reason: `${p.program} needs a source and a destination` };
    out.paths = [];
    const recursive = p.has("recursive") || moves;
    for (const s of sources) {
      out.paths.push(
        recursive
          ? pathEffect("walk", s, { contents: true, follow: p.has("-L") ? "all" : "none" })
          : pathEffect("read", s),
      );
      if (moves) out.paths.push(pathEffect("write", s, { below: true }));
    }
    // A destination that is a directory (or may be one: only the disk knows) receives each source under its
    // own name: `cp tasks.json .vscode` writes .vscode/tasks.json (found after red team round 16).
    // Listed before the destination itself, which judge-bash.ts takes as a tree made for later words.
    // A tree copied or moved whole lands with every name in it: the disk lists what each source holds.
    const whole = (s: Arg): Partial<PathEffect> => (recursive ? { below: true, copies: s } : {});
    if (!p.has("-T"))
      for (const s of sources)
        out.paths.push(pathEffect("write", landing(dest, s, p.has("--parents")), whole(s)));
    // The destination is a tree the command made (judge-bash.ts): reads and writes below it afterwards ask.
    // A lone source becomes the destination itself when that is not a directory (or with -T).
    const only = sources.length === 1 && !p.has("--parents") ? sources[0] : undefined;
    out.paths.push(
      pathEffect("write", dest, {
        ...(recursive || mayLeaveLinks(p, moves) ? { below: true as const } : {}),
        ...(only !== undefined ? whole(only) : {}),
      }),
    );
    raise(out, "write");
    return null;
  };
}

export const cp: ProgramGrammar = {
  ...writes(
    ["cp"],
    [
      ...COPY_OPTIONS,
      ...["--attributes-only", "--copy-contents", "-H", "-L --dereference"].map((n) => flag(n)),
      ...["-d", "-l --link", "-P --no-dereference", "-s --symbolic-link"].map((n) => flag(n, "links")),
      ...["-p", "--parents", "--remove-destination", "-x --one-file-system"].map((n) => flag(n)),
      flag("-R -r --recursive -a --archive", "recursive"),
      optional("--preserve --no-preserve --reflink --sparse"),
    ],
    copy(false),
  ),
  operands: ["read"],
  placedOnly: (p) => plainCopy(p) && !p.has("recursive") && !p.has("links") && !p.has("-p"),
};

export const mv: ProgramGrammar = { ...writes(["mv"], COPY_OPTIONS, copy(true)), operands: ["read"] };
