// What start-up files run by path (shell-runs.ts, red team round 18, r18-04) and what other programs'
// configurations source, include or run (program-configs.ts, r18-06), one row per program: the line that
// names a file, and everyday lines beside it that name nothing to protect.
import { describe, expect, it } from "vitest";
import type { Reference } from "../../../src/policy/path-references.ts";
import { referencePattern } from "../../../src/policy/path-references.ts";
import { type ProgramFormat, programReferences } from "../../../src/policy/program-configs.ts";
import { shellSources } from "../../../src/policy/shell-sources.ts";

const HOME = "/home/u";
const WS = "/home/u/code/ws";

const names = (refs: readonly Reference[], path: string) =>
  refs.some((r) => referencePattern(r.parts, r.below).test(path));

describe("shell start-up files' commands run by path", () => {
  const rc = [
    `${WS}/tools/x.sh`,
    `eval "$(${WS}/tools/y.sh init bash)"`,
    `[ -x ${WS}/tools/w.sh ] && ${WS}/tools/w.sh`,
    'eval "$(~/code/ws/tools/tilde.sh init bash)"',
    'x=$("$HOME/code/ws/tools/homevar.sh" hook)',
    `exec ${WS}/tools/exec.sh`,
    `env A=1 nohup ${WS}/tools/nohup.sh`,
    `python3 -u ${WS}/tools/p.py`,
    `bash ${WS}/tools/b.sh`,
    `eval '${WS}/tools/quoted.sh start'`,
    `echo \`${WS}/tools/tick.sh\``,
    'TOOLS="$HOME/code/ws/bin"; "$TOOLS/assigned"',
    `trap '${WS}/tools/trap.sh' EXIT`,
    `export PROMPT_COMMAND="${WS}/tools/prompt.sh; $PROMPT_COMMAND"`,
    // Round 19 (r19-01, r19-02): a relative path after a cd (or in whatever directory the shell starts),
    // and an alias's command line, which bash runs each time the alias is typed.
    "(cd ~/code/ws && ./tools/rel.sh)",
    "pushd ~/code/ws >/dev/null; tools/pushd.sh; popd",
    `alias later=${WS}/tools/alias.sh`,
    "alias g33=\"$HOME/code/ws/tools/alias2.sh\" g35='cd ~/code/ws && ./tools/alias3.sh'",
  ].join("\n");
  const everyday = [
    "alias ll='ls -la'",
    "cd ~/code/ws",
    `[ -d ${WS}/dir ] && ls ${WS}/dir`,
    "$cmd --x",
    '"$ZSH/tools/upgrade.sh"',
    'eval "$(starship init bash)"',
  ].join("\n");

  it("each form of running a file names it", () => {
    const refs = shellSources(rc, HOME);
    const ran = ["x.sh", "y.sh", "w.sh", "tilde.sh", "homevar.sh", "exec.sh", "nohup.sh", "p.py", "b.sh"];
    for (const f of [...ran, "quoted.sh", "tick.sh", "trap.sh", "prompt.sh", "rel.sh", "pushd.sh"])
      expect(names(refs, `${WS}/tools/${f}`), f).toBe(true);
    for (const f of ["alias.sh", "alias2.sh", "alias3.sh"])
      expect(names(refs, `${WS}/tools/${f}`), f).toBe(true);
    expect(names(refs, `${WS}/bin/assigned`)).toBe(true);
  });

  it("an alias of a PATH name, a directory changed into or tested, and a run-time or PATH name protect nothing", () => {
    const refs = shellSources(everyday, HOME);
    for (const path of [`${WS}/ls`, `${WS}/README.md`, `${WS}/dir/x`, `${WS}/tools/upgrade.sh`])
      expect(names(refs, path), `${path}: ${JSON.stringify(refs)}`).toBe(false);
  });

  it("a zsh or fish line bash cannot read is scanned for a path run as a command", () => {
    const refs = shellSources(
      `if [[ -o interactive ]] { ~/code/ws/z.zsh }\n${WS}/f.fish init fish | source\n`,
      HOME,
    );
    expect([names(refs, `${WS}/z.zsh`), names(refs, `${WS}/f.fish`)]).toEqual([true, true]);
  });
});

/** Per program: configuration text, the paths it names, and paths it must not. */
const ROWS: [ProgramFormat, string, string[], string[]][] = [
  [
    "vim",
    `set undodir=${WS}/undo\n" source ${WS}/commented.vim\nsource ${WS}/v.vim\ncall system('${WS}/sys.sh')\nexe 'so ' . $HOME . '/code/ws/joined.vim'\nset rtp+=${WS}/plug`,
    [`${WS}/v.vim`, `${WS}/sys.sh`, `${WS}/joined.vim`, `${WS}/plug/plugin/p.vim`],
    [`${WS}/undo/x`, `${WS}/commented.vim`, `${WS}/plug/README.md`],
  ],
  [
    "vim",
    `vim.opt.number = true\ndofile(os.getenv("HOME") .. "/code/ws/init.lua")\nvim.cmd.source("${WS}/c.vim")`,
    [`${WS}/init.lua`, `${WS}/c.vim`],
    [`${WS}/other.lua`],
  ],
  [
    "tmux",
    `set -g @resurrect-dir '${WS}/resurrect'\nrun-shell -b ${WS}/tmr\nsource-file ${WS}/t.conf\nif-shell 'test -x ${WS}/if.sh' 'run ${WS}/if.sh'`,
    [`${WS}/tmr`, `${WS}/t.conf`, `${WS}/if.sh`],
    [`${WS}/resurrect/x`],
  ],
  [
    "npm",
    `registry=https://registry.npmjs.org/\ncache=${WS}/cache\nscript-shell=${WS}/ss\nnode-options=--require ${WS}/x.js`,
    [`${WS}/ss`, `${WS}/x.js`],
    [`${WS}/cache/x`, "/registry.npmjs.org/"],
  ],
  [
    "emacs",
    `(setq backup-directory-alist '(("." . "${WS}/bak")))\n(load "~/code/ws/e.el")\n(add-to-list 'load-path "${WS}/lisp")`,
    [`${WS}/e.el`, `${WS}/lisp/m.el`],
    [`${WS}/bak/x`, `${WS}/lisp/README.md`],
  ],
  [
    "psql",
    `\\set HISTFILE ${WS}/hist\n\\i ${WS}/a.sql\n\\ir local.sql`,
    [`${WS}/a.sql`, "/etc/local.sql"],
    [`${WS}/hist`],
  ],
  [
    "gdb",
    `set history filename ${WS}/hist\nsource ${WS}/g.gdb\nadd-auto-load-safe-path ${WS}`,
    [`${WS}/g.gdb`, `${WS}/.gdbinit`, `${WS}/build/app-gdb.py`],
    [`${WS}/hist`, `${WS}/src/main.c`],
  ],
  [
    "r",
    `options(repos = "https://cran.r-project.org")\nsource("~/code/ws/R/p.R")\n.libPaths(c("~/code/ws/lib", .libPaths()))`,
    [`${WS}/R/p.R`, `${WS}/lib/pkg/R/pkg`],
    [`${WS}/README.md`],
  ],
  [
    "ipython",
    `c.InteractiveShellApp.exec_files = ['${WS}/ipy.py']\nc.x.y = '${WS}/data'`,
    [`${WS}/ipy.py`],
    [`${WS}/data`],
  ],
  [
    "kitty",
    `font_size 11\ninclude theme.conf\nstartup_session ${WS}/session`,
    ["/etc/theme.conf", `${WS}/session`],
    [],
  ],
  [
    "alacritty",
    `[general]\nimport = ["~/code/ws/a.toml"]\nworking_directory = "${WS}"\n[terminal.shell]\nprogram = "${WS}/sh"`,
    [`${WS}/a.toml`, `${WS}/sh`],
    [`${WS}/README.md`],
  ],
  ["inputrc", `set editing-mode vi\n$include ${WS}/inputrc`, [`${WS}/inputrc`], []],
];

describe("other programs' configurations", () => {
  it.each(ROWS)("%s: names what it loads or runs, and nothing else", (format, text, named, not) => {
    const refs = programReferences(format, text, { home: HOME, base: "/etc" });
    for (const path of named) expect(names(refs, path), `${path}: ${JSON.stringify(refs)}`).toBe(true);
    for (const path of not) expect(names(refs, path), `${path}: ${JSON.stringify(refs)}`).toBe(false);
  });
});
