// Names a program's user configuration gives RELATIVE to the directory the program is started in (red team,
// round 19, r19-08, r19-10, r19-22: ~/.vimrc's `silent! source .vimrc.local`, `autocmd … !./tools/x.sh`,
// `set shell=./tools/s.sh`, tmux's `source-file -q .tmux.local` and `run-shell ./x`, psql's `\i x.sql`):
// the program resolves them in whichever project the person opens, so each protects that name below any
// directory. One row per format, positions as data; each row's regexps are global, group 1 the value. Pure.
import { cwdCommandPaths, cwdReference, type Reference } from "./path-references.ts";

/** The user configuration formats program-configs.ts reads (declared here, the module it reads with). */
export type ProgramFormat =
  | "vim"
  | "tmux"
  | "npm"
  | "emacs"
  | "psql"
  | "gdb"
  | "r"
  | "ipython"
  | "kitty"
  | "alacritty"
  | "inputrc";

interface CwdRule {
  /** A file read as code or configuration from the directory (a bare name counts: `source .vimrc.local`). */
  files?: RegExp[];
  /** A directory code is loaded from (vim's `set rtp+=vimfiles`): everything below it. */
  dirs?: RegExp[];
  /** A shell command run in the directory: its words with a `/` (a bare name is PATH's). */
  commands?: RegExp[];
  /**
   * A line holding commands nested in quotes (tmux's `if-shell true "run-shell ./x"`): every word with a `/`
   * on it, split at blanks, quotes, `;` and parentheses.
   */
  commandLines?: RegExp;
  /** A setting that makes the program read fixed names from the directory (vim's `set exrc`). */
  reads?: { when: RegExp; names: readonly string[] };
}

/** A vim option or Neovim provider variable whose value is a program (`set shell=…`, `g:python3_host_prog`). */
const VIM_PROGRAM_OPTIONS =
  /(?:^|[\s&.:])(?:shell|sh|makeprg|mp|grepprg|gp|formatprg|fp|keywordprg|kp|equalprg|ep|\w+_host_prog)\s*[+^]?=\s*(?:'([^']*)'|"([^"]*)"|((?:\\.|[^\s\\])+))/g;
/** A quoted string argument of a call that runs a shell command (vim's system(), R's system(), Lua's io.popen). */
const CALL_COMMAND = (calls: string) =>
  new RegExp(`\\b(?:${calls})\\s*\\(\\s*(?:command\\s*=\\s*)?\\[?\\s*(?:'([^']*)'|"([^"]*)")`, "g");
/** A quoted string argument of a call that reads a file (R's source(), Lua's dofile()). */
const CALL_FILE = (calls: string) =>
  new RegExp(`\\b(?:${calls})\\s*\\(\\s*(?:file\\s*=\\s*)?(?:'([^']*)'|"([^"]*)")`, "g");

const RULES: Partial<Record<ProgramFormat, CwdRule>> = {
  // vim and Neovim resolve an Ex command's file name against the current directory (`:h :source`,
  // `:h 'runtimepath'`); `:!`, `system()` and the program options run through 'shell' there.
  vim: {
    files: [
      /\b(?:so|source|luaf|luafile|pyf|pyfile|py3f|py3file|pyxf|pyxfile|rubyf|rubyfile|perlfile|tclfile|mzf|mzfile)!?\s+([^\s|"'<)]+)/g,
      CALL_FILE("dofile|loadfile|vim\\.cmd\\.source"),
    ],
    dirs: [
      /\b(?:rtp|runtimepath|pp|packpath)\s*[+^]?=\s*([^\s|"']+)/g,
      /\b(?:rtp|runtimepath|packpath)\s*:\s*(?:append|prepend)\s*\(\s*["']([^"']+)/g,
    ],
    commands: [
      /(?:^|[\s:|"'])!(?!=)([^|<\n]*)/g,
      VIM_PROGRAM_OPTIONS,
      CALL_COMMAND("system|systemlist|jobstart|job_start|termopen|term_start|os\\.execute|io\\.popen"),
    ],
    reads: {
      when: /(?:\bset?\s+(?:[^"|]*\s)?(?:exrc|ex)\b|\bexrc\s*=\s*true)/,
      names: [".vimrc", ".exrc", ".gvimrc", ".nvimrc", ".nvim.lua"],
    },
  },
  // tmux(1) 3.3: source-file's relative path is the client's directory; run-shell, if-shell, `#()`,
  // default-command and a new pane's command run in the session's directory, where tmux was started.
  tmux: {
    files: [/\bsource(?:-file)?((?:\s+(?:-[Fnqv]+|-t\s*\S+))*\s+[^;'"\\}]+)/g],
    commandLines:
      /\b(?:run-shell|run|if-shell|if|default-command|default-shell|display-popup|popup|new-window|neww|split-window|splitw|respawn-pane|pipe-pane)\b|#\(/,
  },
  // npm resolves path settings against the current directory, and runs the programs it is given in the
  // package's directory (`npm run` from a subdirectory ran `script-shell=./tools/x.sh` at the top).
  npm: {
    files: [/^\s*(?:init-module|globalconfig|userconfig|onload-script)\s*=\s*["']?([^\s"']+)/g],
    commands: [/^\s*(?:script-shell|shell|editor|git|browser|viewer|node-options)\s*=\s*(.*)/g],
  },
  // Emacs expands a relative name against default-directory, the directory it was started in.
  emacs: {
    files: [/\((?:load-file|org-babel-load-file)\s+"([^"]+)"/g],
    dirs: [/load-path\s+"([^"]+)"/g],
    commands: [
      /\((?:shell-command|async-shell-command|call-process|start-process-shell-command)\s+"([^"]*)"/g,
    ],
  },
  // psql(1): `\i` reads from the current directory (`\ir` is the file's, read already); `\!`, backquotes,
  // `\o |cmd` and `\copy … program` run shell commands there.
  psql: {
    files: [/^\s*\\(?:i|include)\s+['"]?([^\s'"]+)/g],
    commands: [/^\s*\\!(.*)/g, /`([^`]*)`/g, /\\(?:o|out|g|gx|w|write)\s+\|(.*)/g, /\bprogram\s+'([^']*)'/g],
  },
  // gdb: `source` looks in the current directory first; `shell`/`!` and `pipe` run there.
  gdb: {
    files: [/^\s*(?:source|so)(?:\s+-[sv])*\s+(\S+)/g],
    commands: [/^\s*(?:shell|!)\s*(.*)/g, /^\s*pipe\b[^|]*\|(.*)/g],
  },
  // R runs in the directory it was started in: source(), sys.source(), dyn.load(), system(), .libPaths().
  r: {
    files: [CALL_FILE("source|sys\\.source|dyn\\.load")],
    dirs: [/\.libPaths\s*\(\s*(?:c\s*\(\s*)?["']([^"']+)/g],
    commands: [CALL_COMMAND("system|system2|shell")],
  },
  // IPython finds exec_files, `%run` and file_to_run in the current directory first; sys.path entries too.
  ipython: {
    files: [
      /\bexec_files\s*=\s*\[([^\]]*)\]/g,
      /%run\s+(?:-\S+\s+)*([^\s'"]+)/g,
      /\bfile_to_run\s*=\s*["']([^"']+)/g,
    ],
    dirs: [/\bsys\.path\.(?:append|insert)\s*\((?:\s*\d+\s*,)?\s*["']([^"']+)/g],
    commands: [/["']!([^"']*)/g],
  },
  // kitty's shell and editor, started by the desktop in home or from a terminal in a project.
  kitty: { commands: [/^\s*(?:shell|editor)\s+(.*)/g] },
  // readline opens `$include`'s name as given: from the directory of whichever program starts (bash -i).
  inputrc: { files: [/^\s*\$include\s+(\S+)/g] },
};

/** The values a row's regexp captures in a line (the first group that matched). */
function captures(res: readonly RegExp[] | undefined, line: string): string[] {
  return (res ?? []).flatMap((re) =>
    [...line.matchAll(re)].map((m) => m.slice(1).find((g) => g !== undefined) ?? ""),
  );
}

/** A file list as written: blank- or comma-separated, quotes dropped, flags (`-q`, `-t pane`) skipped. */
function names(text: string): string[] {
  const words = text.split(/[\s,]+/).map((w) => w.replace(/^["'[]+|["'\]]+$/g, ""));
  return words.filter((w, i) => w !== "" && !w.startsWith("-") && words[i - 1] !== "-t");
}

/** The words with a `/` of a line whose commands nest in quotes; flags' values (`--x=./y`) included. */
function lineWords(line: string): string[] {
  return line
    .split(/[\s"'();\\]+/)
    .map((w) => w.replace(/^-[^=]*=?/, ""))
    .filter((w) => w.includes("/"));
}

/** A vim option value's escapes (`./build.sh\ -j4`). */
function unescaped(text: string): string {
  return text.replace(/\\(.)/g, "$1");
}

/** What one line of a program's configuration names relative to the directory the program starts in. */
export function cwdNames(format: ProgramFormat, line: string, home: string, how: string): Reference[] {
  const rule = RULES[format];
  if (rule === undefined) return [];
  const where = `${how}, from whichever directory it is started in`;
  const file = (name: string, below = false) => cwdReference(name, where, below) ?? [];
  return [
    ...captures(rule.files, line)
      .flatMap(names)
      .flatMap((n) => file(n)),
    ...captures(rule.dirs, line)
      .flatMap(names)
      .flatMap((n) => file(n, true)),
    ...captures(rule.commands, line).flatMap((c) => cwdCommandPaths(unescaped(c), home, where)),
    ...(rule.commandLines?.test(line) ? lineWords(line).flatMap((w) => file(w)) : []),
    ...(rule.reads?.when.test(line) ? rule.reads.names.flatMap((n) => file(n)) : []),
  ];
}
