// Programs that read, list, write or remove the files they are given, and which of their
// arguments are those files. Each file argument becomes a `read` or `write` unit, judged by the
// path rules and the secret denylist like a file tool call. Programs whose arguments are never
// files (echo, printf, seq) are listed too: their arguments may be dynamic without harm.

/** What a program's operands (non-option arguments) are. */
export type OperandRole =
  /** Every operand is a file it reads (cat). */
  | "read"
  /** Operands are paths it lists or stats, not contents (ls, stat). */
  | "list"
  /** Every operand is a file it creates, changes or removes (touch, rm, tee). */
  | "write"
  /** It reads each operand and rewrites it in place (gzip, dos2unix). */
  | "rewrite"
  /** The first operand is a pattern, script or filter; the rest are read (grep, sed, jq). */
  | "pattern,read"
  /** All but the last are read, the last is written (cp, scp, rsync). */
  | "read,write-last"
  /** All operands are moved: each is written (mv). */
  | "move"
  /** The last operand is created, the others are not opened (ln). */
  | "write-last"
  /** Reads the first, writes the second (uniq IN OUT, xxd IN OUT, split IN PREFIX). */
  | "in,out"
  /** The first operand is not a file (chmod MODE, chown OWNER); the rest are written. */
  | "skip,write"
  /** The first is written (an archive), the rest are read (zip). */
  | "write,read"
  /** The first operand is read; the others are not files (unzip ARCHIVE MEMBERS, source FILE ARGS). */
  | "read-first"
  /** Operands are not files (echo, tr, seq). */
  | "none";

/**
 * What an option's value is: "" a plain value, or a file it reads or lists. Options that write
 * (sort -o, tree -o) are in the risky-option table (options.ts), which also says they take a value.
 */
export type ValueRole = "" | "read" | "list";

export type Effect = "read" | "write" | "destroy";

export interface FileProgram {
  operands: OperandRole;
  /** Options that take a value, short (`-n`) and long (`--lines`); `--opt=value` needs no entry. */
  values?: Readonly<Record<string, ValueRole>>;
  /** Flags that make every read recursive (all files below a directory, secrets included). */
  recursive?: readonly string[];
  /** It always reads directories recursively (rg, ag). */
  alwaysRecursive?: boolean;
  /** Options that give the pattern, so the first operand is a file too (grep -e, sed -f). */
  patternOptions?: readonly string[];
  /** Flags that write to standard output instead of rewriting files (gzip -c). */
  stdoutFlags?: readonly string[];
  /** Options whose value is the directory every operand is written into (cp -t, unzip -d). */
  targetDir?: readonly string[];
  /** With no file operand it works on this path (rg searches `.`); otherwise standard input. */
  defaultOperand?: string;
  /** Flags that make it read the files listed inside its operands (md5sum -c): unknown reads. */
  listsFiles?: readonly string[];
  effect: Effect;
}

const v = (names: string, role: ValueRole = ""): Record<string, ValueRole> =>
  Object.fromEntries(names.split(" ").map((n) => [n, role]));

const CAT: FileProgram = { operands: "read", effect: "read" };
const GREP: FileProgram = {
  operands: "pattern,read",
  values: {
    ...v("-e --regexp -m --max-count -A -B -C --after-context --before-context --context -d -D"),
    ...v("--directories --devices --include --exclude --exclude-dir --label --binary-files --color"),
    ...v("-f --file --exclude-from", "read"),
  },
  recursive: ["-r", "-R", "--recursive", "--dereference-recursive"],
  patternOptions: ["-e", "--regexp", "-f", "--file"],
  effect: "read",
};
const RG: FileProgram = {
  operands: "pattern,read",
  values: {
    ...v("-e --regexp -g --glob --iglob -t --type -T --type-not --type-add --type-clear -m --max-count"),
    ...v("-A -B -C --after-context --before-context --context -M --max-columns -j --threads -E"),
    ...v("--encoding -r --replace -d --max-depth --max-filesize --sort --sortr --colors --color"),
    ...v("--path-separator --context-separator --field-match-separator --field-context-separator"),
    ...v("--dfa-size-limit --regex-size-limit --engine --pre-glob --hyperlink-format"),
    ...v("-f --file --ignore-file", "read"),
  },
  alwaysRecursive: true,
  patternOptions: ["-e", "--regexp", "-f", "--file", "--files", "--type-list"],
  defaultOperand: ".",
  effect: "read",
};
const JQ: FileProgram = {
  operands: "pattern,read",
  values: { ...v("--indent -L --arg --argjson --slurpfile --rawfile"), ...v("-f --from-file", "read") },
  patternOptions: ["-f", "--from-file"],
  effect: "read",
};
const GZIP: FileProgram = {
  operands: "rewrite",
  values: v("-S --suffix -b --blocksize -T --threads -F --format -C --check -o -D --patch-from"),
  stdoutFlags: ["-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"],
  effect: "write",
};
const ZCAT: FileProgram = { operands: "read", effect: "read" };
const SUM: FileProgram = { operands: "read", listsFiles: ["-c", "--check"], effect: "read" };
const REMOTE_COPY: FileProgram = {
  operands: "read,write-last",
  values: {
    ...v("-P -l -c -J -o -p --port -B --bwlimit --timeout --contimeout --max-size --min-size"),
    ...v("--exclude --include --filter -f --chmod --chown --usermap --groupmap --suffix -T --temp-dir"),
    ...v("--partial-dir --backup-dir --compare-dest --copy-dest --link-dest --out-format --info --debug"),
    ...v("--skip-compress -M --remote-option --sockopts -e --rsh --rsync-path -S -F"),
    ...v("-i --exclude-from --include-from --files-from --password-file", "read"),
  },
  recursive: ["-r", "-a", "--recursive", "--archive"],
  effect: "write",
};
const NONE: FileProgram = { operands: "none", effect: "read" };

export const FILE_PROGRAMS: Readonly<Record<string, FileProgram>> = {
  // Read their file operands.
  more: CAT,
  most: CAT,
  bat: {
    operands: "read",
    values: v("-l --language -H --highlight-line -r --line-range --style --theme --tabs --map-syntax"),
    effect: "read",
  },
  batcat: { operands: "read", values: v("-l --language -H -r --line-range --style --theme"), effect: "read" },
  join: { operands: "read", values: v("-a -e -o -t -v -1 -2 -j"), effect: "read" },
  comm: { operands: "read", values: v("--output-delimiter"), effect: "read" },
  fmt: { operands: "read", values: v("-w -p -g --width --prefix --goal"), effect: "read" },
  pr: { operands: "read", values: v("-h -l -w -o -s -N -e -i -n -W --header"), effect: "read" },
  column: { operands: "read", values: v("-c -s -o -N -R -E -H -W -d -r -l"), effect: "read" },
  expand: { operands: "read", values: v("-t --tabs"), effect: "read" },
  unexpand: { operands: "read", values: v("-t --tabs"), effect: "read" },
  rev: CAT,
  shuf: {
    operands: "read",
    values: { ...v("-n --head-count -i --input-range"), ...v("--random-source", "read") },
    effect: "read",
  },
  cksum: SUM,
  sum: SUM,
  shasum: { ...SUM, values: v("-a --algorithm") },
  sdiff: { operands: "read", values: { ...v("-w -I") }, effect: "read" },
  diff3: { operands: "read", values: v("-L --label"), effect: "read" },
  iconv: {
    operands: "read",
    values: { ...v("-f -t --from-code --to-code") },
    effect: "read",
  },
  zgrep: GREP,
  ag: {
    ...RG,
    values: { ...v("-A -B -C -G -g -m --ignore --ignore-dir --depth"), ...v("-p --path-to-ignore", "read") },
  },
  ack: { ...RG, values: v("-A -B -C -m --type-set --ignore-dir --ignore-file -g") },
  ugrep: RG,
  gojq: JQ,
  yq: JQ,
  look: { operands: "pattern,read", values: v("-t --terminate"), effect: "read" },
  zcat: ZCAT,
  bzcat: ZCAT,
  xzcat: ZCAT,
  zstdcat: ZCAT,
  lz4cat: ZCAT,
  zless: ZCAT,
  zmore: ZCAT,
  xmllint: { operands: "read", values: v("--xpath --path --encode --output", ""), effect: "read" },
  source: { operands: "read-first", effect: "read" },
  ".": { operands: "read-first", effect: "read" },
  // List or stat the paths they are given.
  // Write, change or remove their file operands.
  rmdir: { operands: "write", effect: "destroy" },
  unlink: { operands: "write", effect: "destroy" },
  shred: {
    operands: "write",
    values: { ...v("-n -s --iterations --size"), ...v("--random-source", "read") },
    effect: "destroy",
  },
  truncate: {
    operands: "write",
    values: { ...v("-s --size"), ...v("-r --reference", "read") },
    effect: "destroy",
  },
  chmod: {
    operands: "skip,write",
    values: v("--reference", "read"),
    recursive: ["-R", "--recursive"],
    effect: "write",
  },
  chown: {
    operands: "skip,write",
    values: { ...v("--from"), ...v("--reference", "read") },
    recursive: ["-R", "--recursive"],
    effect: "write",
  },
  chgrp: {
    operands: "skip,write",
    values: v("--reference", "read"),
    recursive: ["-R", "--recursive"],
    effect: "write",
  },
  mkfifo: { operands: "write", values: v("-m --mode"), effect: "write" },
  tee: { operands: "write", effect: "write" },
  ln: {
    operands: "write-last",
    values: v("-S --suffix -t --target-directory"),
    targetDir: ["-t", "--target-directory"],
    effect: "write",
  },
  install: {
    operands: "read,write-last",
    values: v("-m --mode -o --owner -g --group -S --suffix -t --target-directory"),
    targetDir: ["-t", "--target-directory"],
    effect: "write",
  },
  scp: REMOTE_COPY,
  rsync: REMOTE_COPY,
  split: {
    operands: "in,out",
    values: v("-a -b -C -l -n -t --additional-suffix --suffix-length --bytes --lines --number"),
    effect: "write",
  },
  csplit: {
    operands: "read-first",
    values: v("-b -f -n --suffix-format --prefix --digits"),
    effect: "write",
  },
  dos2unix: { operands: "rewrite", stdoutFlags: ["-O", "--to-stdout"], effect: "write" },
  unix2dos: { operands: "rewrite", stdoutFlags: ["-O", "--to-stdout"], effect: "write" },
  gzip: GZIP,
  gunzip: GZIP,
  bzip2: GZIP,
  bunzip2: GZIP,
  xz: GZIP,
  unxz: GZIP,
  zstd: GZIP,
  unzstd: GZIP,
  lz4: GZIP,
  pigz: GZIP,
  zip: {
    operands: "write,read",
    values: v("-b -n -t -tt -x -i -P --password -O --out -Z --compression-method -s"),
    recursive: ["-r", "-R", "--recurse-paths"],
    effect: "write",
  },
  unzip: { operands: "read-first", values: v("-P -x -d"), targetDir: ["-d"], effect: "write" },
  // Arguments are never files.
  true: NONE,
  false: NONE,
  ":": NONE,
  test: NONE,
  "[": NONE,
  "[[": NONE,
  "((": NONE,
  expr: NONE,
  pwd: NONE,
  tty: NONE,
  groups: NONE,
  logname: NONE,
  users: NONE,
  who: NONE,
  uptime: NONE,
  type: NONE,
  getconf: NONE,
  numfmt: NONE,
  factor: NONE,
  yes: NONE,
  ps: NONE,
  free: NONE,
  df: NONE,
  jobs: NONE,
  dirs: NONE,
  wait: NONE,
  cd: NONE,
  pushd: NONE,
  popd: NONE,
  // Builtins: what they do beyond their words is in builtins.ts.
  ...Object.fromEntries(
    [
      ...["declare", "typeset", "local", "export", "readonly", "nameref", "unset", "read", "mapfile"],
      ...["readarray", "getopts", "let", "shift", "return", "exit", "break", "continue", "set", "shopt"],
      ...["hash", "alias", "unalias", "trap", "umask", "ulimit", "times", "caller", "bind", "complete"],
      ...["compgen", "compopt", "fc", "enable", "help", "logout", "disown", "suspend", "history"],
    ].map((n) => [n, NONE]),
  ),
};
