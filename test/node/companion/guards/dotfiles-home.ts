// A realistic developer's home for the class scan of user configuration files (round 19): a long ~/.bashrc
// whose aliases cd into projects, ~/.gitconfig, a ~/.vimrc with vim-plug and its cloned plug-ins, VS Code's
// user settings beside its Local History and workspace state, an nvim lua configuration with lazy.nvim,
// tmux, ssh, gh, starship, histories naming project files, and the project `~/code/app` (a git repository).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { git, write } from "./disk-fixture.ts";

const BASHRC = `# ~/.bashrc: executed by bash(1) for non-login shells.
case $- in
    *i*) ;;
      *) return;;
esac
HISTCONTROL=ignoreboth
shopt -s histappend
HISTSIZE=10000
HISTFILESIZE=20000
shopt -s checkwinsize
[ -x /usr/bin/lesspipe ] && eval "$(SHELL=/bin/sh lesspipe)"
if [ -z "\${debian_chroot:-}" ] && [ -r /etc/debian_chroot ]; then
    debian_chroot=$(cat /etc/debian_chroot)
fi
case "$TERM" in
    xterm-color|*-256color) color_prompt=yes;;
esac
if [ -x /usr/bin/dircolors ]; then
    test -r ~/.dircolors && eval "$(dircolors -b ~/.dircolors)" || eval "$(dircolors -b)"
    alias ls='ls --color=auto'
    alias grep='grep --color=auto'
fi
alias ll='ls -alF'
alias la='ls -A'
alias l='ls -CF'
if [ -f ~/.bash_aliases ]; then
    . ~/.bash_aliases
fi
if ! shopt -oq posix; then
  if [ -f /usr/share/bash-completion/bash_completion ]; then
    . /usr/share/bash-completion/bash_completion
  elif [ -f /etc/bash_completion ]; then
    . /etc/bash_completion
  fi
fi
export EDITOR=nvim
export VISUAL=nvim
export GOPATH=$HOME/go
export PROJECTS=~/code
export CDPATH=.:~/code
export PATH="$HOME/.local/bin:$GOPATH/bin:$HOME/.cargo/bin:$PATH"
export NVM_DIR="$HOME/.nvm"
[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"
[ -s "$NVM_DIR/bash_completion" ] && \\. "$NVM_DIR/bash_completion"
export PYENV_ROOT="$HOME/.pyenv"
command -v pyenv >/dev/null || export PATH="$PYENV_ROOT/bin:$PATH"
eval "$(pyenv init -)"
[ -f ~/.fzf.bash ] && source ~/.fzf.bash
complete -C /usr/bin/terraform terraform
alias app='cd ~/code/app'
alias api='cd ~/code/app/api && source .venv/bin/activate'
alias web='cd "$HOME/code/app/web"'
alias blog='cd ~/code/blog'
alias dots='cd ~/dotfiles'
alias k=kubectl
alias gs='git status'
alias gd='git diff'
alias dc='docker compose'
mkcd() { mkdir -p "$1" && cd "$1"; }
proj() { cd ~/code/"$1" || return; }
gclone() { git clone "git@github.com:$1.git" ~/code/"$(basename "$1")"; }
eval "$(starship init bash)"
eval "$(direnv hook bash)"
eval "$(zoxide init bash)"
`;

const GITCONFIG = `[user]
	name = Dev Person
	email = dev@example.com
[core]
	editor = nvim
	excludesfile = ~/.gitignore_global
	pager = delta
[init]
	defaultBranch = main
[pull]
	rebase = true
[alias]
	co = checkout
	lg = log --graph --oneline --decorate
	st = status -sb
[includeIf "gitdir:~/code/"]
	path = ~/.gitconfig-work
[safe]
	directory = /home/dev/code/app
[delta]
	navigate = true
[merge]
	conflictstyle = diff3
`;

const VIMRC = `set nocompatible
call plug#begin('~/.vim/plugged')
Plug 'tpope/vim-fugitive'
Plug 'junegunn/fzf', { 'do': { -> fzf#install() } }
Plug 'junegunn/fzf.vim'
Plug 'dense-analysis/ale'
call plug#end()
set number relativenumber
set undofile
set undodir=~/.vim/undo
set backupdir=~/.vim/backup//
set directory=~/.vim/swap//
let g:ale_fixers = {'javascript': ['eslint'], 'python': ['black']}
nnoremap <leader>p :cd ~/code/app<CR>
autocmd BufWritePre *.py :ALEFix
`;

const VSCODE_SETTINGS = JSON.stringify(
  {
    "editor.fontSize": 14,
    "editor.formatOnSave": true,
    "files.exclude": { "**/node_modules": true },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own variable, as settings.json spells it
    "python.defaultInterpreterPath": "${workspaceFolder}/.venv/bin/python",
    "terminal.integrated.defaultProfile.linux": "bash",
    "terminal.integrated.cwd": "/home/dev/code/app",
    "git.autofetch": true,
    "workbench.colorTheme": "Default Dark Modern",
  },
  null,
  2,
);

const NVIM_INIT = `local lazypath = vim.fn.stdpath("data") .. "/lazy/lazy.nvim"
if not vim.loop.fs_stat(lazypath) then
  vim.fn.system({ "git", "clone", "--filter=blob:none", "https://github.com/folke/lazy.nvim.git", lazypath })
end
vim.opt.rtp:prepend(lazypath)
vim.opt.undodir = os.getenv("HOME") .. "/.vim/undodir"
require("lazy").setup("plugins")
`;

/** The files of the home, relative to it (`~` the home's path, spelled as real files spell it). */
function homeFiles(home: string): Record<string, string> {
  const app = join(home, "code", "app");
  return {
    ".bashrc": BASHRC,
    ".bash_aliases": "alias t='cd ~/code/app && npm test'\nalias lg=lazygit\nalias tf=terraform\n",
    ".profile": 'if [ -n "$BASH_VERSION" ]; then\n  . "$HOME/.bashrc"\nfi\nPATH="$HOME/bin:$PATH"\n',
    ".bash_history": `vim ${app}/src/index.ts\ncd ~/code/app/api\n./scripts/build.sh\n`,
    ".gitconfig": GITCONFIG.replace("/home/dev", home),
    ".gitignore_global": ".DS_Store\n*.swp\n.envrc\n",
    ".vimrc": VIMRC,
    ".viminfo": `# File marks:\n'0  1  0  ${app}/src/index.ts\n`,
    ".vim/plugged/fzf.vim/plugin/fzf.vim": "let s:bin = expand('<sfile>:h:h').'/bin/preview.sh'\n",
    ".vim/plugged/ale/autoload/ale.vim": "function! ale#Lint() abort\nendfunction\n",
    ".vim/undo/%home%dev%code%app%src%index.ts": "Vim\u009fUnDo\u00e5\0\0binary",
    ".tmux.conf": "set -g mouse on\nset -g @plugin 'tmux-plugins/tpm'\nrun '~/.tmux/plugins/tpm/tpm'\n",
    ".ssh/config": "Host github.com\n  IdentityFile ~/.ssh/id_ed25519\n  AddKeysToAgent yes\n",
    ".npmrc": "save-exact=true\n",
    ".config/Code/User/settings.json": VSCODE_SETTINGS.replace("/home/dev", home),
    ".config/Code/User/keybindings.json":
      '[{ "key": "ctrl+k t", "command": "workbench.action.terminal.toggleTerminal" }]\n',
    ".config/Code/User/History/-7a1b2c/entries.json": JSON.stringify({
      version: 1,
      resource: `file://${app}/src/index.ts`,
      entries: [{ id: "AbCd.ts", timestamp: 1 }],
    }),
    ".config/Code/User/workspaceStorage/9f8e/workspace.json": JSON.stringify({ folder: `file://${app}` }),
    ".config/Code/User/globalStorage/storage.json": JSON.stringify({
      openedPathsList: { entries: [{ fileUri: `file://${app}/src/lib/util.ts` }] },
    }),
    ".config/Code/logs/20261127/main.log": `opened ${app}/src/index.ts\n`,
    ".config/nvim/init.lua": NVIM_INIT,
    ".config/nvim/lua/plugins/init.lua":
      'return {\n  { "nvim-telescope/telescope.nvim" },\n  { "folke/tokyonight.nvim" },\n}\n',
    ".config/gh/config.yml": "git_protocol: ssh\neditor: nvim\naliases:\n  co: pr checkout\n",
    ".config/starship.toml": '[directory]\ntruncation_length = 3\n[git_branch]\nsymbol = " "\n',
    ".config/htop/htoprc": "fields=0 48 17 18 38 39 40 2 46 47 49 1\nsort_key=46\n",
    ".config/git/ignore": "node_modules/\n",
  };
}

/** Builds the home at `home`; the project is `~/code/app`, a git repository with a few files. */
export function dotfilesHome(home: string): { ws: string } {
  const ws = join(home, "code", "app");
  mkdirSync(ws, { recursive: true });
  git(ws, "init", "-q");
  for (const rel of ["README.md", "package.json", "src/index.ts", "api/server.py"])
    write(join(ws, rel), "x\n");
  for (const [rel, text] of Object.entries(homeFiles(home))) write(join(home, rel), text);
  return { ws };
}

/** Twenty everyday writes in the project (the api/ and web/ directories are aliases' cd targets). */
export const EVERYDAY_WRITES = [
  ...["src/index.ts", "src/lib/util.ts", "src/components/Button.tsx", "tests/index.test.ts", "README.md"],
  ...["package.json", "tsconfig.json", ".gitignore", "docs/guide.md", "api/server.py"],
  ...["api/requirements.txt", "web/app.js", "scripts/build.sh", "Makefile", ".env.example"],
  ...["CHANGELOG.md", "src/styles.css", "packages/core/index.ts", ".github/workflows/ci.yml", "Dockerfile"],
];
