// Names a program's user configuration gives relative to the directory the program starts in (cwd-names.ts,
// red team round 19, r19-08, r19-09, r19-10, r19-22), one row per program: each position protects its name
// below any directory, and everyday lines beside it (PATH names, home paths, flags) protect nothing.
import { describe, expect, it } from "vitest";
import { type Reference, referencePattern, sshReferences } from "../../../src/policy/path-references.ts";
import { type ProgramFormat, programReferences } from "../../../src/policy/program-configs.ts";

const HOME = "/home/u";
const WORKSPACES = ["/home/u/code/ws", "/srv/other/project", "/tmp/x"];

const names = (refs: readonly Reference[], path: string) =>
  refs.some((r) => referencePattern(r.parts, r.below).test(path));

const refsOf = (format: ProgramFormat, text: string) =>
  programReferences(format, text, { home: HOME, base: `${HOME}/.config` });

/** Each row: the configuration's text, and the names it protects relative to any workspace. */
const ROWS: [ProgramFormat, string, string[]][] = [
  [
    "vim",
    [
      "silent! source .vimrc.local",
      "so tools/x3.vim",
      "luafile tools/x4.lua",
      "py3file tools/p.py",
      "autocmd VimEnter * silent !./tools/x1.sh --flag",
      "nnoremap <F5> :!tools/run.sh<CR>",
      "set shell=./tools/n2.sh",
      "set makeprg=./tools/mk.sh\\ -j4 sw=2",
      "let &grepprg = 'bin/grep.sh'",
      "let g:python3_host_prog = './venv/bin/python3'",
      'vim.g.node_host_prog = "tools/node.sh"',
      "let x = system('./tools/sys.sh')",
      'dofile("lua/local.lua")',
      "set rtp+=vimfiles",
      'vim.opt.rtp:append("nvim-local")',
      "exe '!./tools/exe.sh'",
      "set exrc",
    ].join("\n"),
    [
      ".vimrc.local",
      "tools/x3.vim",
      "tools/x4.lua",
      "tools/p.py",
      "tools/x1.sh",
      "tools/run.sh",
      "tools/n2.sh",
      "tools/mk.sh",
      "bin/grep.sh",
      "venv/bin/python3",
      "tools/node.sh",
      "tools/sys.sh",
      "lua/local.lua",
      "vimfiles/plugin/p.vim",
      "nvim-local/lua/x.lua",
      "tools/exe.sh",
      ".exrc",
      ".nvim.lua",
    ],
  ],
  [
    "tmux",
    [
      "source-file -q .tmux.local",
      "run-shell ./tools/x5.sh",
      'if-shell "true" "source-file tools/x6.conf"',
      "set -g default-command ./tools/dc.sh",
      "set -g status-right '#(./tools/st.sh)'",
    ].join("\n"),
    [".tmux.local", "tools/x5.sh", "tools/x6.conf", "tools/dc.sh", "tools/st.sh"],
  ],
  [
    "npm",
    "script-shell=./tools/x7.sh\nnode-options=--require ./hook.js --import=./esm/loader.mjs\ninit-module=init.js",
    ["tools/x7.sh", "hook.js", "esm/loader.mjs", "init.js"],
  ],
  [
    "emacs",
    '(load-file "lisp/local.el")\n(add-to-list \'load-path "site-lisp")\n(shell-command "./tools/e.sh")',
    ["lisp/local.el", "site-lisp/x.el", "tools/e.sh"],
  ],
  [
    "psql",
    "\\i tools/x8.sql\n\\! ./tools/bang.sh\n\\set X `./tools/tick.sh`",
    ["tools/x8.sql", "tools/bang.sh", "tools/tick.sh"],
  ],
  ["gdb", "source .gdb.local\nshell ./tools/g.sh", [".gdb.local", "tools/g.sh"]],
  [
    "r",
    'source("tools/r.R")\nsystem("./tools/n.sh")\n.libPaths(c("rlib", .libPaths()))',
    ["tools/r.R", "tools/n.sh", "rlib/pkg/R/pkg"],
  ],
  [
    "ipython",
    "c.InteractiveShellApp.exec_files = ['tools/ip.py', \"startup.py\"]\nc.InteractiveShellApp.exec_lines = ['%run tools/run.py']",
    ["tools/ip.py", "startup.py", "tools/run.py"],
  ],
  ["kitty", "shell ./tools/k.sh", ["tools/k.sh"]],
  ["inputrc", "$include .inputrc.local", [".inputrc.local"]],
  [
    "alacritty",
    '[terminal.shell]\nprogram = "./tools/a.sh"\nargs = ["-l", "conf/a.rc"]\n',
    ["tools/a.sh", "conf/a.rc"],
  ],
];

/** Everyday lines: PATH names, home and runtime paths, flags, options that name no program. */
const EVERYDAY: [ProgramFormat, string][] = [
  [
    "vim",
    [
      "call plug#begin('~/.vim/plugged')",
      "Plug 'tpope/vim-fugitive'",
      "Plug 'junegunn/fzf', { 'do': { -> fzf#install() } }",
      "call plug#end()",
      "set undodir=~/.vim/undo",
      "source ~/.vim/x.vim",
      "source $VIMRUNTIME/defaults.vim",
      "execute 'source ' . expand('<sfile>:p:h') . '/local.vim'",
      "if !isdirectory(expand('~/.vim/undo')) | call mkdir(expand('~/.vim/undo'), 'p') | endif",
      "set grepprg=rg\\ --vimgrep",
      "set shell=bash",
      "nnoremap <leader>t :!pytest %<CR>",
      "command! W w !sudo tee % > /dev/null",
      "let g:python3_host_prog = expand('~/.venv/bin/python')",
      "set rtp+=~/.fzf",
      "set noexrc expandtab",
      "if a != b | endif",
    ].join("\n"),
  ],
  [
    "tmux",
    [
      "set -g prefix C-a",
      'bind r source-file ~/.tmux.conf \\; display "Reloaded"',
      'bind | split-window -h -c "#{pane_current_path}"',
      "set -g @plugin 'tmux-plugins/tpm'",
      "set -g status-right '#(whoami) %d/%m %H:%M'",
      "run '~/.tmux/plugins/tpm/tpm'",
    ].join("\n"),
  ],
  ["npm", "registry=https://registry.npmjs.org/\nprefix=~/.npm-global\nscript-shell=bash"],
  ["gdb", "set pagination off\nsource ~/.gdb/x.gdb\nset history filename ~/.gdb_history"],
  ["r", 'options(repos = c(CRAN = "https://cloud.r-project.org"))\nsource("~/.Rlocal.R")'],
];

describe("names relative to the directory a program starts in (round 19)", () => {
  for (const [format, text, protectedNames] of ROWS)
    it(`${format}: each position protects its name in every workspace`, () => {
      const refs = refsOf(format, text);
      for (const ws of WORKSPACES)
        for (const name of protectedNames) expect(names(refs, `${ws}/${name}`), `${ws}/${name}`).toBe(true);
    });

  it("ssh: ProxyCommand, LocalCommand, KnownHostsCommand and Match exec (r19-09)", () => {
    const refs = sshReferences(
      'Host gh\n  ProxyCommand ./tools/p.sh %h %p\n  LocalCommand bin/l.sh\nMatch exec "tools/m.sh %h"\nHost *\n  ProxyCommand tools/q.sh %h\n',
      { home: HOME, base: `${HOME}/.ssh` },
    );
    for (const ws of WORKSPACES)
      for (const name of ["tools/p.sh", "bin/l.sh", "tools/m.sh", "tools/q.sh"])
        expect(names(refs, `${ws}/${name}`), `${ws}/${name}`).toBe(true);
    const plain = sshReferences("Host *\n  ProxyCommand ssh -W %h:%p bastion\n  IdentityFile ~/.ssh/id\n", {
      home: HOME,
      base: `${HOME}/.ssh`,
    });
    expect(names(plain, "/home/u/code/ws/bastion")).toBe(false);
  });

  for (const [format, text] of EVERYDAY)
    it(`${format}: everyday lines protect no project file`, () => {
      const refs = refsOf(format, text);
      for (const rel of ["README.md", "src/app.ts", "tools/build.sh", "bash", "pytest", "rg", "vim-fugitive"])
        expect(names(refs, `/home/u/code/ws/${rel}`), rel).toBe(false);
    });

  it("a relative name is protected only where it is written: another name in the workspace is not", () => {
    const refs = refsOf("vim", "silent! source .vimrc.local\nset shell=./tools/n2.sh");
    expect(names(refs, "/home/u/code/ws/.vimrc.local.bak")).toBe(false);
    expect(names(refs, "/home/u/code/ws/tools/n2.sh.orig")).toBe(false);
    expect(names(refs, "/home/u/code/ws/xtools/n2.sh")).toBe(false);
  });
});
