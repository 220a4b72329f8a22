// The file-effects oracle: commands generated from the program grammars run in a sandbox under
// `strace -f -e trace=%file,execve`, and every file the process opened, wrote or executed inside
// the sandbox must be among the effects the judge reported for the command's units (none
// unreported), and every program it executed must be a judged unit. Shared by the CI slice
// (effects-oracle.test.ts) and the full run (bench/policy/effects-oracle.mjs).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { analyzeShell } from "../../../../src/policy/shell/analysis.ts";
import { PROGRAM_GRAMMARS } from "../../../../src/policy/shell/grammar/index.ts";
import { GIT_SUBCOMMANDS } from "../../../../src/policy/shell/grammar/programs/git.ts";
import type { OptionSpec, ProgramGrammar } from "../../../../src/policy/shell/grammar/spec.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";

export function straceAvailable(): boolean {
  return spawnSync("strace", ["-V"], { encoding: "utf8" }).status === 0;
}

/** Programs run for real: read-only ones installed on Debian (fd is `fdfind` there). */
const RUNNABLE: Readonly<Record<string, string>> = {
  ls: "ls",
  cat: "cat",
  less: "less",
  md5sum: "md5sum",
  b2sum: "b2sum",
  cmp: "cmp",
  nl: "nl",
  tac: "tac",
  hexdump: "hexdump",
  paste: "paste",
  fold: "fold",
  lscpu: "lscpu",
  locale: "locale",
  head: "head",
  tail: "tail",
  wc: "wc",
  grep: "grep",
  rg: "rg",
  fd: "fdfind",
  sed: "sed",
  awk: "awk",
  sort: "sort",
  uniq: "uniq",
  cut: "cut",
  tr: "tr",
  jq: "jq",
  diff: "diff",
  stat: "stat",
  file: "file",
  du: "du",
  column: "column",
  df: "df",
  tree: "tree",
  realpath: "realpath",
  readlink: "readlink",
  basename: "basename",
  dirname: "dirname",
  date: "date",
  echo: "echo",
  printf: "printf",
  which: "which",
  base64: "base64",
  find: "find",
  od: "od",
  strings: "strings",
  // Round 17.
  groups: "groups",
  getconf: "getconf",
  gofmt: "gofmt",
  // Round 15 (lsb_release is left out: it is a shell script that runs getopt, cut and tr itself).
  uptime: "uptime",
  top: "top",
  lsof: "lsof",
  ss: "ss",
  netstat: "netstat",
  comm: "comm",
  join: "join",
  rev: "rev",
  cksum: "cksum",
  expand: "expand",
  unexpand: "unexpand",
  iconv: "iconv",
  // Round 15, second list (fix15i). zcat and gunzip are scripts that exec gzip, a unit of its own. java is
  // left out: every JVM writes its performance-data file, /tmp/hsperfdata_USER/PID (removed on exit), by a
  // name relative to that directory, which the trace reads as a file of the sandbox.
  expr: "expr",
  shuf: "shuf",
  gzip: "gzip",
  gunzip: "gunzip",
  zcat: "zcat",
  unzip: "unzip",
  getent: "getent",
  perl: "perl",
  shellcheck: "shellcheck",
};
/** Options left out of the runs: they wait for input or time, or their own step refuses them. */
const SKIP =
  /^(--?(events|continuous|follow|retry|pid|sleep-interval|max-unchanged-stats|help|version|debug|line-buffered|files0-from|random-source|compress-program|pre|hostname-bin|search-zip|files-from|fromfile|magic-file|compile|uncompress|uncompress-noreport|set|paginate|ext-diff|type-add|type-clear|ignore-file|batch-size|mmap|block-buffered|exec|exec-batch|base-directory|search-path|repeat)|-[fFzZCsRlxXdVh])$/;
const REFUSING = new Set([
  "runs",
  "set",
  "script-file",
  "program-file",
  "filter-file",
  "rerun",
  "base",
  "list-of-files",
  "no-index",
  "sysroot",
  "info-files",
]);
/** git options its grammar refuses by name: cat-file's content batches print objects whose ids come on standard input. */
const GIT_REFUSED = /^--batch(-command)?$/;
/** git subcommands run in a sandbox that is a repository, with operands that make sense to each. */
const GIT_OPERANDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  log: [[], ["--", "f.txt"], ["HEAD", "--", "dir"]],
  show: [[], ["HEAD:notes.txt"]],
  diff: [[], ["f.txt"], ["HEAD", "--", "dir"]],
  blame: [["f.txt"]],
  status: [[], ["dir"]],
  "ls-files": [[], ["dir"]],
  "ls-tree": [["HEAD"], ["-r", "HEAD", "dir"]],
  grep: [["KEY"], ["KEY", "--", "dir"]],
  "rev-parse": [["HEAD"]],
  branch: [[]],
  shortlog: [["HEAD"]],
  describe: [["--always"]],
  "cat-file": [["-p", "HEAD:notes.txt"]],
  reflog: [[], ["-n", "2"], ["show", "HEAD"]],
  cherry: [["-v", "HEAD"]],
  notes: [[]],
};

/** The sandbox's files; `.env` is there so a read of it would show. */
const FILES: Readonly<Record<string, string>> = {
  "notes.txt": "alpha\nbeta\nKEY=1\n",
  "f.txt": "one\ntwo\nthree\n",
  "v.txt": "x\n",
  "data.json": '{"a":1,"scripts":{"t":"x"}}\n',
  "dir/a.txt": "a KEY\n",
  "dir/sub/b.txt": "b\n",
  "other/a.txt": "a\n",
  ".env": "SECRET=hunter2\n",
};

/** Operand sets a program's runs use (its pattern or program first where it has one). */
const OPERANDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  grep: [
    ["KEY", "notes.txt"],
    ["KEY", "dir"],
    ["KEY", "f.txt", "notes.txt"],
  ],
  rg: [["KEY", "notes.txt"], ["KEY", "dir"], ["KEY"]],
  fd: [["a"], ["a", "dir"]],
  sed: [
    ["-n", "1p", "notes.txt"],
    ["p", "f.txt"],
  ],
  awk: [
    ["{print $1}", "notes.txt"],
    ["NR==1", "f.txt"],
  ],
  jq: [
    [".", "data.json"],
    [".scripts", "data.json"],
  ],
  date: [["+%s"], []],
  tr: [["a", "b"]],
  echo: [["hi"], []],
  printf: [["%s\\n", "x"]],
  which: [["ls"]],
  basename: [["dir/a.txt"]],
  dirname: [["dir/a.txt"]],
  diff: [
    ["f.txt", "notes.txt"],
    ["dir", "other"],
  ],
  uniq: [["f.txt"]],
  ls: [[], ["dir"], ["f.txt", "dir"]],
  du: [[], ["dir"]],
  column: [["notes.txt"], ["-t", "f.txt", "notes.txt"]],
  df: [[], ["dir"], ["f.txt"]],
  tree: [[], ["dir"]],
  lscpu: [[]],
  uptime: [[]],
  // Interactive top is not understood; batch mode, once, is its everyday form.
  top: [["-b", "-n", "1"]],
  lsof: [["f.txt"], ["+D", "dir"], ["+d", "dir"], ["-i", ":1"], ["-t", "notes.txt", "f.txt"]],
  ss: [[], ["state", "listening"]],
  netstat: [[]],
  locale: [[], ["LC_NUMERIC"]],
  expr: [
    ["1", "+", "2"],
    ["abc", ":", "a"],
  ],
  // gzip writes its files in place unless -c (or -l, -t): the everyday forms print to standard output.
  gzip: [
    ["-c", "a.gz"],
    ["-l", "a.gz"],
  ],
  gunzip: [["-c", "a.gz"]],
  zcat: [["a.gz"], []],
  unzip: [
    ["-l", "a.zip"],
    ["-t", "a.zip"],
    ["-p", "a.zip", "notes.txt"],
  ],
  getent: [["passwd", "root"], ["group"]],
  perl: [["-v"]],
  paste: [
    ["notes.txt", "f.txt"],
    ["-", "f.txt"],
  ],
  cut: [["-c1", "notes.txt"]],
  find: [
    ["dir", "-name", "a.txt"],
    [".", "-type", "f"],
    ["dir", "-newer", "f.txt", "-print"],
    ["-L", "dir", "-maxdepth", "1"],
    ["dir", "other", "-iname", "A*", "-o", "-size", "-1k"],
    ["dir", "-fprint", "out.txt"],
    [],
  ],
};

function valueFor(o: OptionSpec): string {
  if (o.choices !== undefined)
    return o.choices.find((c) => !/recurse|always|force/.test(c)) ?? (o.choices[0] as string);
  if (o.kind === "number") return "2";
  if (o.kind === "read" || o.kind === "list") return "v.txt";
  if (o.kind === "write") return "out.txt";
  if (o.kind === "walk") return "dir";
  // A sed script (`-e`): `a` alone is an append command without its text, which sed refuses to compile.
  if (o.mode === "script") return "p";
  if (o.kind === "pattern") return "a";
  const n = o.names.join(" ");
  if (/field|delimiter|key|bytes|characters|lines|count/.test(n)) return "1";
  if (/format|printf|time-style|date/.test(n)) return "%s";
  return "x";
}

function spell(o: OptionSpec, name: string): string[] {
  if (o.value === undefined) return [name];
  const v = valueFor(o);
  if (o.value === "optional") return name.startsWith("--") ? [`${name}=${v}`] : [`${name}${v}`];
  return [name, v];
}

function quote(w: string): string {
  return /^[A-Za-z0-9_./=+%:,-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`;
}

/** A deterministic generator (mulberry32) so the corpus is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function usable(g: ProgramGrammar): OptionSpec[] {
  return g.options.filter(
    (o) =>
      (o.mode === undefined || !REFUSING.has(o.mode)) &&
      o.command === undefined &&
      o.second === undefined &&
      !o.names.some((n) => SKIP.test(n)),
  );
}

/** Commands generated from the grammars: every option alone with each operand set, then random combinations. */
export function generateCorpus(size: number, seed = 1): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (words: string[]) => {
    const c = words.map(quote).join(" ");
    if (!seen.has(c)) {
      seen.add(c);
      out.push(c);
    }
  };
  const programs = PROGRAM_GRAMMARS.filter((g) => RUNNABLE[g.names[0] as string] !== undefined);
  for (const g of programs) {
    const bin = RUNNABLE[g.names[0] as string] as string;
    const operandSets = OPERANDS[g.names[0] as string] ?? [["notes.txt"], ["f.txt", "v.txt"]];
    for (const ops of operandSets) add([bin, ...ops]);
    for (const o of usable(g))
      for (const name of o.names)
        if (name.startsWith("-")) add([bin, ...spell(o, name), ...(operandSets[0] ?? [])]);
  }
  for (const [name, operandSets] of Object.entries(GIT_OPERANDS)) {
    const sub = GIT_SUBCOMMANDS[name];
    if (sub === undefined) continue;
    for (const ops of operandSets) add(["git", name, ...ops]);
    const options = sub.options.filter(
      (o) =>
        (o.mode === undefined || !REFUSING.has(o.mode)) &&
        o.kind !== "exec" &&
        o.command === undefined &&
        !o.names.some((n) => GIT_REFUSED.test(n)),
    );
    for (const o of options.slice(0, 60))
      add(["git", name, ...spell(o, o.names[0] as string), ...(operandSets[0] ?? [])]);
  }
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  for (let guard = 0; out.length < size && guard < size * 20; guard++) {
    const g = pick(programs);
    const bin = RUNNABLE[g.names[0] as string] as string;
    const opts = usable(g);
    const words: string[] = [bin];
    const n = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < n && opts.length > 0; k++) {
      const o = pick(opts);
      words.push(...spell(o, pick(o.names.filter((x) => x.startsWith("-")))));
    }
    add([...words, ...pick(OPERANDS[g.names[0] as string] ?? [["notes.txt"], ["f.txt", "v.txt"]])]);
  }
  return out;
}

/** A sandbox with the files; for a git command, also a repository with one commit and a change. */
export function makeSandbox(command = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "airlock-effects-"));
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  // The archives the compressors' runs read, made before the trace starts.
  if (/^(gzip|gunzip|zcat|unzip) /.test(command))
    spawnSync("sh", ["-c", "gzip -c notes.txt > a.gz && zip -q a.zip notes.txt"], { cwd: dir });
  if (command.startsWith("git ")) {
    const git = "git -c user.email=a@b -c user.name=a";
    spawnSync("bash", ["-c", `git init -q . && git add -A && ${git} commit -qm x && echo more >> f.txt`], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" },
    });
  }
  return dir;
}

export interface Access {
  syscall: string;
  path: string;
  write: boolean;
  directory: boolean;
}

/** Runs one command under strace; the files it touched inside the sandbox and the programs it ran. */
export function trace(
  command: string,
  sandbox: string,
): { accesses: Access[]; execs: string[]; status: number | null } {
  const log = join(sandbox, "..", `${basename(sandbox)}.strace`);
  const run = spawnSync(
    "strace",
    [
      "-f",
      "-qq",
      "-y",
      "-e",
      "trace=%file,execve",
      "-e",
      "signal=none",
      "-o",
      log,
      "bash",
      "--norc",
      "--noprofile",
      "-c",
      command,
    ],
    {
      cwd: sandbox,
      input: "",
      timeout: 10_000,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: sandbox,
        LC_ALL: "C",
        GIT_CONFIG_NOSYSTEM: "1",
      },
    },
  );
  const text = readFileSync(log, "utf8");
  rmSync(log, { force: true });
  const accesses: Access[] = [];
  const execs: string[] = [];
  // A call another process interrupts is split: `pid name(args <unfinished ...>` … `pid <... name resumed>rest`.
  const pending = new Map<string, string>();
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    const start = /^(\d+)\s+(.*) <unfinished \.\.\.>$/.exec(raw);
    if (start !== null) {
      pending.set(start[1] as string, start[2] as string);
      continue;
    }
    const resumed = /^(\d+)\s+<\.\.\. \w+ resumed>(.*)$/.exec(raw);
    if (resumed !== null) {
      lines.push(`${resumed[1]} ${pending.get(resumed[1] as string) ?? ""}${resumed[2]}`);
      pending.delete(resumed[1] as string);
      continue;
    }
    lines.push(raw);
  }
  for (const line of lines) {
    const m = /^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)/.exec(line);
    if (m === null) continue;
    const [, syscall, args, ret] = m as unknown as [string, string, string, string];
    if (Number(ret) < 0) continue;
    const path = /"((?:[^"\\]|\\.)*)"/.exec(args)?.[1];
    if (path === undefined) continue;
    // With -y, a directory descriptor shows its path: `openat(3</tmp/s/dir>, "sub", …)`.
    const base = /^\d+<([^>]*)>,/.exec(args)?.[1] ?? sandbox;
    if (syscall === "execve") {
      execs.push(path);
      continue;
    }
    if (syscall !== "openat" && syscall !== "open" && syscall !== "creat") continue;
    const abs = resolve(base, path);
    if (abs !== sandbox && !abs.startsWith(`${sandbox}/`)) continue;
    const write = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(args) || syscall === "creat";
    accesses.push({
      syscall,
      path: relative(sandbox, abs) || ".",
      write,
      directory: /O_DIRECTORY/.test(args) || isDirectory(abs),
    });
  }
  return { accesses, execs, status: run.status };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A glob effect (`sed*`, sed's temporary file) as a regular expression over one path. */
function globRegex(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
  return new RegExp(`^${body}$`);
}

const under = (path: string, dir: string) => dir === "." || path === dir || path.startsWith(`${dir}/`);

/** What the judge reported as touched, as sandbox-relative paths. */
function reported(command: string): { units: ExecUnit[]; covers: (a: Access) => boolean } {
  const units = analyzeShell(command).units;
  const execs = units.filter((u): u is ExecUnit => u.kind === "exec");
  const effects = execs.flatMap((u) => u.effects?.paths ?? []);
  const norm = (v: string | null) => (v === null ? null : relative(".", v) || ".");
  const covers = (a: Access): boolean => {
    // The working directory itself (find opens it to come back to it): a handle, not contents.
    if (a.directory && !a.write && a.path === ".") return true;
    for (const e of effects) {
      const p = norm(e.arg.value);
      if (p === null) return true; // a path only known at run time is judged as anything
      const deep = e.depth === undefined || a.path === p || dirname(a.path) === p;
      if (e.access === "walk" && !a.write && under(a.path, p) && deep && (a.directory || e.contents))
        return true;
      if (e.access === "list" && a.directory && (a.path === p || dirname(a.path) === p)) return true;
      const same = e.arg.glob ? globRegex(p).test(a.path) : a.path === p;
      if (a.write && e.access === "write" && (same || (e.below === true && under(a.path, p)))) return true;
      if (!a.write && (e.access === "read" || e.access === "exec") && a.path === p) return true;
      if (!a.write && e.access === "list" && a.path === p) return true;
    }
    return false;
  };
  return { units: execs, covers };
}

export interface OracleResult {
  command: string;
  unreported: string[];
  unjudgedExecs: string[];
  understood: boolean;
}

/** Runs `command` and compares what it touched with what the judge reported for `judged` (the same, but for tests of the oracle). */
export function check(command: string, sandbox: string, judged = command): OracleResult {
  const { accesses, execs } = trace(command, sandbox);
  const { units, covers } = reported(judged);
  const understood = units.every((u) => u.notUnderstood === undefined);
  const unreported = [
    ...new Set(accesses.filter((a) => !covers(a)).map((a) => `${a.write ? "write" : "read"} ${a.path}`)),
  ];
  const programs = new Set(units.map((u) => u.program));
  const unjudgedExecs = [
    ...new Set(execs.slice(1).filter((e) => !programs.has(basename(e)) && basename(e) !== "bash")),
  ];
  return { command, unreported, unjudgedExecs, understood };
}
