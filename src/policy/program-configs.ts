// Paths other programs' user configurations source, include or run at every start (red team, round 18,
// r18-06: ~/.vimrc's `source ~/dotfiles/v.vim`, tmux.conf's `run-shell`, ~/.npmrc's `script-shell`, emacs's
// `(load …)`, psqlrc's `\i`, kitty's `include`): one row per format saying which lines load or run something.
// Conservative line scans, as most of these formats have no parser in reach: every absolute or home path
// on such a line counts (the file, or a directory programs load from). Alacritty's TOML is parsed. Pure:
// guards/program-config-files.ts says where each program's files live and reads them.
import { parse as parseToml } from "smol-toml";
import { cwdNames, type ProgramFormat } from "./cwd-names.ts";
import { cwdReference, type Expansion, pathReference, type Reference } from "./path-references.ts";

export type { ProgramFormat };

/** A named path, and whether it is another configuration of the same format (an include chain). */
export interface ProgramReference extends Reference {
  chain: boolean;
}

interface FormatRule {
  /** What the program does with a path named on a matching line, as a person reads it. */
  how: string;
  comment: RegExp;
  /** A line that sources, includes or runs something: each absolute or home path on it counts. */
  runs: RegExp;
  /** Of those, a line that adds a directory the program loads code from: everything below counts. */
  dirs?: RegExp;
  /** The endings of the files the program loads from such a directory, when it loads only those. */
  loads?: readonly string[];
  /** Of those, a line that includes another file of the same format: the disk side reads it too. */
  includes?: RegExp;
  /** A relative argument the program takes from the naming file's directory (psql's `\ir`, kitty's include). */
  relative?: RegExp;
}

const RULES: Record<Exclude<ProgramFormat, "alacritty">, FormatRule> = {
  // Vim script and Neovim's Lua (init.lua): `:source`, `:luafile`, system(), dofile(), vim.cmd.source.
  vim: {
    how: "runs it at vim's start",
    comment: /^\s*(?:"|--)/,
    // `!cmd` anywhere a command can be (an autocmd's, a mapping's `:!`), and options naming a program
    // ('shell', 'makeprg', g:python3_host_prog: round 19, r19-10, r19-22).
    runs: /\b(?:so|source|luafile|pyf|pyfile|py3f|py3file|pyxfile|rubyfile|dofile|loadfile|system|systemlist|jobstart|job_start|termopen|term|terminal|execute|exe|os\.execute|io\.popen|rtp|runtimepath|packpath|pp)\b|(?:^|[\s:|"'])!(?!=)|\b(?:shell|sh|makeprg|mp|grepprg|gp|formatprg|fp|keywordprg|kp|equalprg|ep|\w+_host_prog)\s*[+^]?=/,
    dirs: /\b(?:rtp|runtimepath|packpath|pp)\b/,
    loads: [".vim", ".lua"],
    includes: /\b(?:so|source|dofile|loadfile|luafile)\b/,
  },
  // tmux(1): source-file and the shell commands of run-shell, if-shell, default-command and `#()`.
  tmux: {
    how: "sources or runs it at tmux's start",
    comment: /^\s*#/,
    runs: /\b(?:source-file|source|run-shell|run|if-shell|if|default-command|default-shell|display-popup|popup|new-window|neww|split-window|splitw|respawn-pane|pipe-pane)\b|#\(/,
    includes: /\b(?:source-file|source)\b/,
  },
  // npm's ini: programs it runs (script-shell at every `npm run`), node-options' --require, init-module.
  npm: {
    how: "runs it in every npm command",
    comment: /^\s*[#;]/,
    runs: /^\s*(?:script-shell|shell|editor|git|browser|viewer|node-options|init-module|onload-script|globalconfig|userconfig)\s*=/,
    includes: /^\s*(?:globalconfig|userconfig)\s*=/,
  },
  // Emacs Lisp: (load …), (load-file …), org-babel-load-file, the processes it starts, load-path.
  emacs: {
    how: "loads or runs it at emacs's start",
    comment: /^\s*;/,
    runs: /\((?:load|load-file|org-babel-load-file|shell-command|async-shell-command|call-process|start-process|make-process|add-to-list\s+'load-path|push|setq\s+load-path)\b/,
    dirs: /load-path/,
    loads: [".el", ".elc", ".eln"],
    includes: /\((?:load|load-file)\b/,
  },
  // psql: `\i`, `\ir` (from the file's directory), `\include`, `\!` and backquoted shell commands.
  psql: {
    how: "runs it at psql's start",
    comment: /^\s*--/,
    runs: /^\s*\\(?:i|ir|include|include_relative|!|o|g|copy)\b|`/,
    includes: /^\s*\\(?:i|ir|include|include_relative)\b/,
    relative: /^\s*\\(?:ir|include_relative)\s+['"]?([^\s'"]+)/,
  },
  // gdb: `source`, `shell`/`!`, Python, and the auto-load safe path that lets a directory's .gdbinit run.
  gdb: {
    how: "runs it at gdb's start",
    comment: /^\s*#/,
    runs: /^\s*(?:source|so|shell|!|python|py|pipe|add-auto-load-safe-path|add-auto-load-scripts-directory|set\s+auto-load\s+safe-path)\b|\b(?:exec|open|system|subprocess)\b/,
    dirs: /auto-load/,
    // The safe path lets gdb load a directory's .gdbinit and an object file's `-gdb.py` script.
    loads: ["/.gdbinit", "-gdb.py", "-gdb.gdb", "-gdb.scm"],
    includes: /^\s*(?:source|so)\b/,
  },
  // R's .Rprofile: source(), sys.source(), system(), dyn.load(), .libPaths() (a library directory).
  r: {
    how: "runs it at R's start",
    comment: /^\s*#/,
    runs: /(?:\b(?:source|sys\.source|system|system2|shell|dyn\.load)|\.libPaths)\s*\(/,
    dirs: /\.libPaths/,
    includes: /\b(?:source|sys\.source)\s*\(/,
  },
  // IPython's configuration (Python): exec_files, exec_lines' `%run`, file_to_run, sys.path additions.
  ipython: {
    how: "runs it at IPython's start",
    comment: /^\s*#/,
    runs: /\b(?:exec_files|exec_lines|file_to_run|code_to_run|extra_extensions|exec|execfile|runpy|system|subprocess|sys\.path)\b|%run/,
    dirs: /\bsys\.path\b/,
    loads: [".py", ".pth", ".so"],
  },
  // kitty.conf: include, globinclude, geninclude (a Python program), startup_session, shell, launch, watcher.
  kitty: {
    how: "includes or runs it at kitty's start",
    comment: /^\s*#/,
    runs: /^\s*(?:include|globinclude|geninclude|envinclude|startup_session|shell|editor|watcher|exe_search_path|map\s.*\b(?:launch|kitten)|kitten)\b/,
    dirs: /^\s*exe_search_path\b/,
    includes: /^\s*(?:include|globinclude)\b/,
    relative: /^\s*(?:include|globinclude|geninclude|startup_session|watcher)\s+['"]?([^\s'"]+)/,
  },
  // readline's inputrc: `$include`.
  inputrc: {
    how: "includes it in every program's line editing (readline)",
    comment: /^\s*#/,
    runs: /^\s*\$include\b/,
    includes: /^\s*\$include\b/,
  },
};

/** Home as an expression in these languages, joined to a string that follows (`$HOME . '/x'`, `vim.env.HOME .. "/x"`). */
const HOME_JOIN =
  /(?:\$HOME|\$\{HOME\}|vim\.env\.HOME|os\.getenv\(\s*["']HOME["']\s*\)|Sys\.getenv\(\s*["']HOME["']\s*\)|\(getenv\s+"HOME"\))\s*(?:\.\.|\.|\+|,)?\s*["']/g;
/** A path written from the root or home (or right after a `!` that runs it); not a URL's `//host`. */
const PATH_TOKEN =
  /(?:^|[\s'"=(,[{`|!])((?:~|\$HOME|\$\{HOME\})\/[^\s'"`,;)\]}|]*|\/[^\s'"`,;)\]}|/][^\s'"`,;)\]}|]*)/g;

function pathTokens(line: string, home: string): string[] {
  const joined = line.replace(HOME_JOIN, `"${home}`);
  return [...joined.matchAll(PATH_TOKEN)].map((m) =>
    (m[1] as string).replace(/^(\$HOME|\$\{HOME\})\//, "~/").replace(/[.:]+$/, ""),
  );
}

/** A directory the program loads only some files from: one reference per ending, anywhere below it. */
function loaded(r: Reference, endings: readonly string[] | undefined): Reference[] {
  if (endings === undefined) return [r];
  const dir = [...r.parts];
  const last = dir.pop();
  if (last !== undefined)
    dir.push(last.type === "lit" ? { ...last, value: last.value.replace(/\/*$/, "/") } : last);
  return endings.map((end) => ({
    ...r,
    below: false,
    parts: [...dir, { type: "any" }, { type: "lit", value: end.replace(/^\//, "") }],
  }));
}

/**
 * What a line-scanned configuration names, by its format's row, and what its lines name relative to the
 * directory the program starts in (cwd-names.ts).
 */
function scanned(format: ProgramFormat, rule: FormatRule, text: string, x: Expansion): ProgramReference[] {
  const out: ProgramReference[] = [];
  for (const line of text.split("\n")) {
    if (rule.comment.test(line)) continue;
    out.push(...cwdNames(format, line, x.home, rule.how).map((r) => ({ ...r, chain: false })));
    if (!rule.runs.test(line)) continue;
    const below = rule.dirs?.test(line) ?? false;
    const chain = rule.includes?.test(line) ?? false;
    const rel = rule.relative?.exec(line)?.[1];
    const words = pathTokens(line, x.home);
    if (rel !== undefined && !/^[~/$]/.test(rel)) words.push(rel);
    for (const word of words) {
      const r = pathReference(
        word,
        word.startsWith("/") || word.startsWith("~") ? { ...x, base: null } : x,
        rule.how,
        { below },
      );
      if (r !== null) out.push(...loaded(r, below ? rule.loads : undefined).map((l) => ({ ...l, chain })));
    }
  }
  return out;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * alacritty.toml: `import` (top level, or `[general]` since 0.14; relative to the file's directory) and
 * the shell it starts (`[terminal.shell]`, older `[shell]`) with its arguments.
 */
function alacritty(text: string, x: Expansion): ProgramReference[] {
  let doc: Record<string, unknown>;
  try {
    doc = record(parseToml(text));
  } catch {
    return [];
  }
  const out: ProgramReference[] = [];
  const imports = [doc.import, record(doc.general).import].flatMap((v) => (Array.isArray(v) ? v : []));
  for (const f of imports)
    if (typeof f === "string") {
      const r = pathReference(f, x, "imports it as alacritty's configuration");
      if (r !== null) out.push({ ...r, chain: true });
    }
  for (const shell of [doc.shell, record(doc.terminal).shell].map(record)) {
    const args = Array.isArray(shell.args) ? shell.args : [];
    for (const word of [shell.program, ...args]) {
      if (typeof word !== "string") continue;
      const how = "runs it as alacritty's shell";
      // A relative one with a `/` is from the directory alacritty is started in (round 19).
      const r = /^(~\/|\/)/.test(word)
        ? pathReference(word, { ...x, base: null }, how)
        : word.includes("/")
          ? cwdReference(word, `${how}, from whichever directory it is started in`)
          : null;
      if (r !== null) out.push({ ...r, chain: false });
    }
  }
  return out;
}

/** The paths a program's configuration file names for the program to load or run. */
export function programReferences(format: ProgramFormat, text: string, x: Expansion): ProgramReference[] {
  return format === "alacritty" ? alacritty(text, x) : scanned(format, RULES[format], text, x);
}
