// Programs that run whatever they later read: REPLs, database and remote shells, editors and
// pagers with shell escapes. Started without a script they read code from the terminal or
// standard input, and Codex types into such a session with `write_stdin`, which reaches no
// hook. So a rule that names only the program never allows such a session: the rule must say
// `interactive` (see docs/policy.md).
import { basename } from "../paths.ts";
import { lookup } from "./lookup.ts";
import type { Arg } from "./wrappers.ts";

export interface InterpreterSpec {
  /** Options that take a separate value that is not code (`-W ignore`, `-r module`). */
  values?: readonly string[];
  /** Options whose value (or presence) supplies the program, so nothing is read later. */
  code?: readonly string[];
  /** Of those, the options whose value is program text (`python3 -c`, `node -e`). */
  inline?: readonly string[];
  /** Options that open an interactive session even with a script. */
  interactive?: readonly string[];
  /** A session by design, whatever the arguments (psql, vim, most). */
  always?: boolean;
  /** Subcommands that open a session (`deno repl`). */
  sessions?: readonly string[];
}

const PYTHON: InterpreterSpec = {
  values: ["-W", "-X", "-Q"],
  // `--version` and `--help` print and exit: no session (python3 --version is an everyday call).
  code: ["-c", "-m", "-V", "--version", "-h", "--help"],
  inline: ["-c"],
  interactive: ["-i"],
};
const NODE: InterpreterSpec = {
  values: [
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--title",
    "-C",
    "--conditions",
  ],
  code: ["-e", "--eval", "-p", "--print", "--run", "--test", "-v", "--version", "-h", "--help"],
  inline: ["-e", "--eval", "-p", "--print"],
  interactive: ["-i", "--interactive"],
};
/**
 * What `node -p` may print unasked: a property of the running node, read with no call (`process.version`,
 * `process.versions.v8`, `process.arch`): the same as `node --version`. Not `process.env` (the environment).
 */
const NODE_FACT = /^process\.(version|versions(\.[a-z0-9_]+)?|arch|platform|release\.(name|lts)|execPath)$/;
/** Or arithmetic on number literals (`1+1`, `2**10`, `(3*4)/5`): no name, so nothing is looked up or called. */
const NODE_ARITHMETIC = /^[\d\s+\-*/%().]*\d[\d\s+\-*/%().]*$/;

/**
 * Or one field of a JSON file named from the working directory (`require('./package.json').version`):
 * require() parses a `.json` file it finds as named, running nothing, but for a directory or a name not
 * there it loads `X.json.js`, `X.json/index.js` or a package.json's `main` (node 20, lib/internal/modules/
 * cjs/loader.js), so the file is the disk's to find as named (nodeJsonFile). Names only, no `..` and no
 * dotted segment; the fields are plain names, so nothing is called.
 */
const NODE_JSON_FIELD =
  /^require\((['"])(\.\/(?:[\w-][\w.-]*\/)*[\w-][\w.-]*\.json)\1\)(\.[A-Za-z_$][\w$]*)+$/;

/** The code of `node -p CODE` (or `--print CODE`, `--print=CODE`) and nothing else: node's words after its name. */
function printedCode(words: readonly (string | null)[]): string | null {
  const [first, second] = words;
  if (first === "--print" || first === "-p") return words.length === 2 ? (second ?? null) : null;
  return words.length === 1 && first?.startsWith("--print=") === true ? first.slice(8) : null;
}

/** `node -p FACT`, `node -p 1+1` or `node -p "require('./X.json').FIELD"`, and nothing else: node's words after its name. */
export function printsNodeFact(words: readonly (string | null)[]): boolean {
  const code = printedCode(words);
  return code !== null && (NODE_FACT.test(code) || NODE_ARITHMETIC.test(code) || NODE_JSON_FIELD.test(code));
}

/** The JSON file (`./package.json`) `node -p "require('./package.json').version"` reads, or null. */
export function nodeJsonRead(argv: readonly Arg[]): Arg | null {
  const head = argv[0]?.value;
  if (head === null || head === undefined || specOf(basename(head)) !== NODE) return null;
  const code = printedCode(argv.slice(1).map((a) => a.value));
  const file = code === null ? null : NODE_JSON_FIELD.exec(code)?.[2];
  return file === undefined || file === null ? null : { value: file, raw: file, glob: false, tilde: false };
}

/**
 * What `python3 -c` may print unasked: an attribute of the running interpreter's `sys`, a builtin module, so
 * no file is imported (the working directory goes first on sys.path only after site has run; a `./sys.py`
 * or `./sitecustomize.py` does not run). What site loads is the python-start disk check's, as for
 * `python3 -m json.tool` (guards/python-path.ts: a workspace venv, PYTHONPATH, which python PATH finds).
 */
const PYTHON_FACT =
  /^\s*import sys\s*[;\n]\s*print\(\s*sys\.(version|version_info|hexversion|executable|platform|implementation\.name)(\[\s*:?\s*\d*\s*\])?\s*\)\s*;?\s*$/;

/** `python3 -c "import sys; print(sys.version)"` and its like, and nothing else: python's words after its name. */
export function printsPythonFact(words: readonly (string | null)[]): boolean {
  const [first, second] = words;
  return words.length === 2 && first === "-c" && PYTHON_FACT.test(second ?? "");
}

/**
 * `python3 -c 'import uuid; print(uuid.uuid4())'` (or `.hex`): a random UUID from os.urandom. uuid imports
 * files of the standard library (enum, platform, _uuid), looked up with the working directory first on
 * sys.path as for `-m`: the python-start disk check looks there for any module by such a name (python.ts).
 * uuid1() is not listed: its node id may come from running ifconfig or ip.
 */
const PYTHON_UUID = /^\s*import uuid\s*[;\n]\s*print\(\s*uuid\.uuid4\(\)(\.hex)?\s*\)\s*;?\s*$/;

/** `python3 -c 'import uuid; print(uuid.uuid4())'`, and nothing else: python's words after its name. */
export function printsPythonUuid(words: readonly (string | null)[]): boolean {
  const [first, second] = words;
  return words.length === 2 && first === "-c" && PYTHON_UUID.test(second ?? "");
}

const ALWAYS: InterpreterSpec = { always: true };

export const INTERPRETERS: Readonly<Record<string, InterpreterSpec>> = {
  python: PYTHON,
  python2: PYTHON,
  python3: PYTHON,
  pypy: PYTHON,
  pypy3: PYTHON,
  node: NODE,
  nodejs: NODE,
  deno: {
    sessions: ["repl"],
    code: ["run", "eval", "test", "task", "fmt", "lint", "check", "compile"],
    inline: ["eval"],
  },
  bun: {
    sessions: ["repl"],
    code: ["run", "x", "test", "install", "add", "build", "-e", "--eval"],
    inline: ["-e", "--eval"],
  },
  ruby: { values: ["-I", "-r", "-C", "-E", "-F"], code: ["-e", "-v", "--version"], inline: ["-e"] },
  irb: ALWAYS,
  pry: ALWAYS,
  perl: {
    values: ["-I", "-M", "-m"],
    code: ["-e", "-E", "-v", "--version"],
    inline: ["-e", "-E"],
    interactive: ["-d"],
  },
  php: {
    values: ["-c", "-d", "-z"],
    code: ["-r", "-v", "--version", "-S", "-l"],
    inline: ["-r"],
    interactive: ["-a"],
  },
  lua: { values: ["-l"], code: ["-e", "-v"], inline: ["-e"], interactive: ["-i"] },
  luajit: { values: ["-l"], code: ["-e", "-v"], inline: ["-e"], interactive: ["-i"] },
  R: { code: ["-e", "-f", "--file", "--version"], inline: ["-e"] },
  Rscript: { code: ["-e", "--version"], inline: ["-e"] },
  julia: {
    values: ["-L", "-J", "-p", "-t", "--project"],
    code: ["-e", "-E", "-v", "--version"],
    inline: ["-e", "-E"],
    interactive: ["-i"],
  },
  ghci: ALWAYS,
  jshell: ALWAYS,
  groovysh: ALWAYS,
  scala: { code: ["-e", "-version", "--version"] },
  clojure: { code: ["-e", "-M", "-X", "-T"] },
  clj: { code: ["-e", "-M", "-X", "-T"] },
  erl: { code: ["-noshell", "-eval", "-s", "-run"] },
  iex: ALWAYS,
  ocaml: { code: ["-version", "-vnum"] },
  utop: ALWAYS,
  racket: { code: ["-e", "-f", "-t", "-l", "-r", "-v"], interactive: ["-i"] },
  guile: { code: ["-c", "-s", "-v", "--version"] },
  swipl: { code: ["-g", "-t", "--version"] },
  tclsh: {},
  wish: {},
  expect: { code: ["-c", "-f", "-v"], interactive: ["-i"] },
  gdb: ALWAYS,
  lldb: ALWAYS,
  pdb: ALWAYS,
  // Database shells run meta-commands (\!, .shell, system) whatever the arguments.
  psql: ALWAYS,
  mysql: ALWAYS,
  mariadb: ALWAYS,
  sqlite3: ALWAYS,
  sqlite: ALWAYS,
  duckdb: ALWAYS,
  mongo: ALWAYS,
  mongosh: ALWAYS,
  "redis-cli": ALWAYS,
  cqlsh: ALWAYS,
  "clickhouse-client": ALWAYS,
  sqlcmd: ALWAYS,
  pgcli: ALWAYS,
  mycli: ALWAYS,
  litecli: ALWAYS,
  usql: ALWAYS,
  // Remote and network sessions.
  telnet: ALWAYS,
  ftp: ALWAYS,
  sftp: ALWAYS,
  lftp: ALWAYS,
  mosh: ALWAYS,
  nc: ALWAYS,
  ncat: ALWAYS,
  netcat: ALWAYS,
  socat: ALWAYS,
  // Editors and pagers: each has a command to run a shell.
  vi: ALWAYS,
  vim: ALWAYS,
  nvim: ALWAYS,
  view: ALWAYS,
  vimdiff: ALWAYS,
  ex: ALWAYS,
  ed: ALWAYS,
  nano: ALWAYS,
  pico: ALWAYS,
  emacs: ALWAYS,
  micro: ALWAYS,
  joe: ALWAYS,
  mcedit: ALWAYS,
  kak: ALWAYS,
  hx: ALWAYS,
  most: ALWAYS,
  pg: ALWAYS,
  // man is no session here: without a terminal it prints the page and runs no pager, as less and more copy
  // their files (grammar/programs/man.ts, less.ts, more.ts).
  info: ALWAYS,
  mc: ALWAYS,
  tmux: ALWAYS,
  screen: ALWAYS,
  at: ALWAYS,
  batch: ALWAYS,
  crontab: ALWAYS,
  visudo: ALWAYS,
  vipw: ALWAYS,
  sudoedit: ALWAYS,
};

/** pythonX.Y, python3.12, pypy3.10: one entry for every versioned name. */
function specOf(name: string): InterpreterSpec | undefined {
  const direct = lookup(INTERPRETERS, name);
  if (direct) return direct;
  if (/^python[0-9.]+$/.test(name) || /^pypy[0-9.]+$/.test(name)) return PYTHON;
  if (/^(ruby|perl|php|lua|node)[0-9.]+$/.test(name))
    return lookup(INTERPRETERS, name.replace(/[0-9.]+$/, ""));
  return undefined;
}

/**
 * Why the command runs program text given inline (`python3 -c`, `node -e`, `perl -e`), which the
 * engine cannot read as it reads shell: the call then needs a person. Null when it does not.
 */
export function inlineCode(argv: readonly Arg[]): string | null {
  const head = argv[0]?.value;
  if (head === null || head === undefined) return null;
  const name = basename(head);
  const spec = specOf(name);
  if (spec?.inline === undefined) return null;
  if (spec === NODE && printsNodeFact(argv.slice(1).map((a) => a.value))) return null;
  const words = argv.slice(1).map((a) => a.value);
  if (spec === PYTHON && (printsPythonFact(words) || printsPythonUuid(words))) return null;
  for (const a of argv.slice(1)) {
    const v = a.value;
    if (v === null) return null;
    const key = v.startsWith("--") && v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    const cluster = /^-[A-Za-z]{2,}$/.test(v);
    if (
      spec.inline.includes(key) ||
      (cluster && spec.inline.some((o) => o.length === 2 && v.includes(o[1] as string)))
    )
      return `\`${name} ${v}\` runs ${name} code given inline, which the engine cannot read`;
    if (!v.startsWith("-")) return null; // a script file: its arguments follow
  }
  return null;
}

/**
 * Why this command opens a session that runs what it reads later, or null. `argv[0]` is the
 * program; shells (bash, sh, …) are judged by the wrapper table's shellScript instead.
 */
export function interactiveSession(argv: readonly Arg[]): string | null {
  const head = argv[0]?.value;
  if (head === null || head === undefined) return null;
  const name = basename(head);
  const spec = specOf(name);
  if (spec === undefined) return null;
  if (spec.always) return `${name} is an interactive program: what is typed into it later is never judged`;
  const values = spec.values ?? [];
  const code = spec.code ?? [];
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]?.value;
    if (v === null || v === undefined) return null; // a dynamic word: judged as dynamic elsewhere
    if (spec.sessions?.includes(v) && i === 1) return `\`${name} ${v}\` opens an interactive session`;
    const cluster = /^-[A-Za-z]{2,}$/.test(v);
    if (spec.interactive?.some((o) => v === o || (cluster && o.length === 2 && v.includes(o[1] as string))))
      return `${name} ${v} opens an interactive session after its script`;
    const key = v.startsWith("--") && v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    if (code.includes(key) || (cluster && code.some((c) => c.length === 2 && v.includes(c[1] as string))))
      return null;
    if (v === "-") return `${name} - reads its program from standard input`;
    if (v === "--")
      return i + 1 < argv.length ? null : `${name} with no script reads its program from standard input`;
    if (values.includes(key)) {
      if (key === v) i++; // `--import X`; `--import=X` holds its value
      continue;
    }
    if (v.startsWith("-")) continue;
    if (argv[i]?.pipe) return `${name} runs a program read from another command's output`;
    return null; // a script file (or a subcommand) runs instead of a session
  }
  return `${name} with no script reads its program from the terminal or standard input`;
}

/**
 * The script file an interpreter runs (`python3 x.py`, `node .env`), or null when its program is given
 * otherwise (`-c`, `-m`, `-e`, standard input). The interpreter reads that file and shows its lines in
 * errors and tracebacks: it is a read of the file, judged as one (a secret, a path outside the project).
 */
export function interpreterScript(argv: readonly Arg[]): Arg | null {
  const head = argv[0]?.value;
  if (head === null || head === undefined) return null;
  const spec = specOf(basename(head));
  if (spec === undefined || spec.always) return null;
  const values = spec.values ?? [];
  const code = spec.code ?? [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) return null;
    if (spec.sessions?.includes(v) && i === 1) return null;
    const cluster = /^-[A-Za-z]{2,}$/.test(v);
    const key = v.startsWith("--") && v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    if (code.includes(key) || (cluster && code.some((c) => c.length === 2 && v.includes(c[1] as string))))
      return null;
    if (v === "-") return null;
    if (v === "--") return argv[i + 1] ?? null;
    if (values.includes(key)) {
      if (key === v) i++; // `--import X`; `--import=X` holds its value
      continue;
    }
    if (v.startsWith("-")) continue;
    return a.pipe ? null : a;
  }
  return null;
}

/** ssh's options that take a value. */
const SSH_VALUES = new Set([..."BbcDEeFIiJLlmOopQRSWw"].map((c) => `-${c}`));
/** ssh forms that run no remote shell (port forwarding, control commands, printing config). */
const SSH_NO_SHELL = /^-[a-zA-Z]*[NGVQ]/;

/**
 * `ssh [options] host [command…]`: without a command it opens a remote shell (a session);
 * with one, the command string runs on the remote host, where the working directory is unknown.
 */
export function sshSession(argv: readonly Arg[]): {
  interactive: string | null;
  remote: string | null | undefined;
} {
  let i = 1;
  let noShell = false;
  let tty = false;
  for (; i < argv.length; i++) {
    const v = argv[i]?.value;
    if (v === null || v === undefined) return { interactive: null, remote: null };
    if (v === "--") {
      i++;
      break;
    }
    if (!v.startsWith("-")) break;
    if (SSH_NO_SHELL.test(v)) noShell = true;
    if (/^-[a-zA-Z]*t/.test(v)) tty = true;
    const last = `-${v[v.length - 1]}`;
    if (SSH_VALUES.has(last)) i++;
  }
  const rest = argv.slice(i + 1);
  if (i >= argv.length || noShell) return { interactive: null, remote: undefined };
  if (rest.length === 0)
    return { interactive: "ssh with no command opens a remote shell", remote: undefined };
  const words = rest.map((a) => a.value);
  const remote = words.includes(null) ? null : words.join(" ");
  return { interactive: tty ? "ssh -t runs the command on a remote terminal" : null, remote };
}
