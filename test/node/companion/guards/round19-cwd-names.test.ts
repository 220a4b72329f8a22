// Never (red team, round 19, r19-08, r19-09, r19-10, r19-22): user configurations naming a file RELATIVE TO
// THE CURRENT DIRECTORY (~/.vimrc's `silent! source .vimrc.local`, `autocmd … silent !./tools/x1.sh`,
// `set shell=./tools/n2.sh`; ~/.tmux.conf's `source-file -q .tmux.local` and `run-shell ./tools/x5.sh`;
// ~/.ssh/config's `ProxyCommand ./tools/p.sh %h %p`; ~/.npmrc, ~/.psqlrc and ~/.gdbinit alike) were read as
// naming nothing, and an absolute path after vim's `!` or in `set shell=` was missed. Writing the file was an
// ordinary edit; opening vim, tmux or ssh in the project ran it (proven: ~/.netrc copied out). Each now
// asks, in whichever workspace it is written; a typical ~/.vimrc and ~/.tmux.conf leave project writes alone.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, write } from "./disk-fixture.ts";
import { expectWritesAllowed, expectWritesAsk, judgeWrite } from "./judge-write.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt19-cwd-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Two projects: the red team's (inside home) and another anywhere, each a git work tree. */
const home = join(base, "home");
const proj = join(home, "proj");
const other = join(base, "elsewhere", "app");
for (const ws of [proj, other]) {
  write(join(ws, "README.md"), "# p\n");
  git(ws, "init", "-q");
}

write(
  join(home, ".vimrc"),
  [
    "set nocompatible",
    "silent! source .vimrc.local",
    `autocmd BufWritePost * silent !${join(proj, "tools", "x2.sh")}`,
    "source tools/x3.vim",
    "autocmd VimEnter * silent !./tools/x1.sh",
    "luafile tools/x4.lua",
    `set shell=${join(proj, "tools", "n2.sh")}`,
    "set makeprg=./tools/n3.sh",
    "let g:python3_host_prog = './tools/n5.sh'",
    "",
  ].join("\n"),
);
write(
  join(home, ".tmux.conf"),
  'source-file -q .tmux.local\nrun-shell ./tools/x5.sh\nif-shell "true" "source-file tools/x6.sh"\n',
);
write(
  join(home, ".ssh", "config"),
  "Host gh\n  HostName github.com\n  ProxyCommand ./tools/p.sh %h %p\nHost *\n  ProxyCommand tools/q.sh %h\n",
);
write(join(home, ".npmrc"), "script-shell=./tools/x7.sh\n");
write(join(home, ".psqlrc"), "\\i tools/x8.sql\n");
write(join(home, ".gdbinit"), "source .gdb.local\n");

/** What each finding wrote, relative to the project (the same names in any other workspace). */
const FINDINGS: Record<string, string[]> = {
  "r19-08": [".vimrc.local", ".tmux.local"],
  "r19-09": ["tools/p.sh", "tools/q.sh"],
  "r19-10": ["tools/x3.vim", "tools/x1.sh", "tools/x4.lua", "tools/x5.sh", "tools/x6.sh"],
  "r19-10 (npm, psql, gdb)": ["tools/x7.sh", "tools/x8.sql", ".gdb.local"],
  "r19-22": ["tools/n3.sh", "tools/n5.sh"],
};

const leak = "#!/bin/sh\ncat ~/.netrc > /tmp/leak\n";

describe("round 19: names user configurations give relative to the directory their program starts in", () => {
  for (const [id, rels] of Object.entries(FINDINGS))
    it(`${id}: each write asks, in either workspace, under either starter`, () => {
      for (const ws of [proj, other]) expectWritesAsk(ws, home, rels, { content: leak });
      const r = judgeWrite(other, home, rels[0] as string, { content: leak });
      expect(r.why).toContain("from whichever directory");
    });

  it("r19-10, r19-22: an absolute path after vim's `!` in an autocmd and in `set shell=` asks", () => {
    expectWritesAsk(proj, home, ["tools/x2.sh", "tools/n2.sh"], { content: leak });
  });

  it("the rest of each project stays writable", () => {
    for (const ws of [proj, other])
      expectWritesAllowed(
        ws,
        home,
        ["README.md", "src/app.ts", "tools/other.sh", ".vimrc.local.md", "docs/p.sh"],
        {
          content: "x",
        },
      );
  });
});

describe("everyday: a typical ~/.vimrc and ~/.tmux.conf", () => {
  const plain = join(base, "everyday-home");
  write(
    join(plain, ".vimrc"),
    [
      "set nocompatible",
      "call plug#begin('~/.vim/plugged')",
      "Plug 'tpope/vim-fugitive'",
      "Plug 'junegunn/fzf', { 'do': { -> fzf#install() } }",
      "Plug 'neoclide/coc.nvim', {'branch': 'release'}",
      "call plug#end()",
      "set undofile undodir=~/.vim/undo",
      "if !isdirectory(expand('~/.vim/undo')) | call mkdir(expand('~/.vim/undo'), 'p') | endif",
      "source ~/.vim/x.vim",
      "set grepprg=rg\\ --vimgrep",
      "autocmd FileType python setlocal shiftwidth=4",
      "nnoremap <leader>t :!npm test<CR>",
      "command! W w !sudo tee % > /dev/null",
      "",
    ].join("\n"),
  );
  write(
    join(plain, ".tmux.conf"),
    [
      "set -g prefix C-a",
      "set -g mouse on",
      'bind r source-file ~/.tmux.conf \\; display "Reloaded"',
      'bind | split-window -h -c "#{pane_current_path}"',
      "set -g status-right '#(whoami) %d/%m %H:%M'",
      "set -g @plugin 'tmux-plugins/tpm'",
      "set -g @plugin 'tmux-plugins/tmux-sensible'",
      "run '~/.tmux/plugins/tpm/tpm'",
      "",
    ].join("\n"),
  );

  it("ordinary project writes stay allowed", () => {
    for (const ws of [proj, other])
      expectWritesAllowed(
        ws,
        plain,
        ["README.md", "src/app.ts", "package.json", "tools/build.sh", "test/x.test.ts", ".vimrc.local"],
        { content: "x" },
      );
  });
});
