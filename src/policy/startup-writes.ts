// The start-up files a program reads on its own, every time it starts, from the home directory or the
// directory it starts in (red team, round 15: r15b-03 with the agent started in ~, and s02): writing one is
// running code at the next start. Part of the protected-write table (secret-paths.ts); each entry checked
// against its program's documentation or run. Build files a person runs on purpose (Makefile,
// gradle.properties, .mvn/jvm.config, .bazelrc) stay ordinary writes.

/** Per-user start-up files and PATH directories: they matter where the workspace is the home directory. */
const HOME_STARTUP: readonly string[] = [
  // nvm's installer adds `\. "$NVM_DIR/nvm.sh"` and its bash_completion to ~/.bashrc; NVM_DIR is ~/.nvm, or
  // $XDG_CONFIG_HOME/nvm when set, and its versions/ are the node and npm every shell runs.
  ".nvm/",
  ".config/nvm/",
  // rustup's `. "$HOME/.cargo/env"` (env.fish, env.nu for other shells) in ~/.profile and ~/.bashrc, which
  // puts ~/.cargo/bin first on PATH; bun's and deno's installers put their bin directories on PATH too.
  ".cargo/env",
  ".cargo/env.*",
  ".cargo/bin/",
  ".bun/bin/",
  ".deno/bin/",
  // pyenv's shims, plugins and hooks (pyenv.d) run at every `python`; pipx's venvs are the programs its
  // ~/.local/bin links run (old and current homes).
  ".pyenv/",
  ".local/share/pipx/",
  ".local/pipx/",
  // Emacs loads ~/.emacs(.el, .elc), ~/.emacs.d/ or ~/.config/emacs/ (init.el, early-init.el, installed
  // packages) at start; Doom's and Spacemacs' configuration is loaded by theirs.
  ".emacs",
  ".emacs.el",
  ".emacs.elc",
  ".emacs.d/",
  ".config/emacs/",
  ".doom.d/",
  ".config/doom/",
  ".spacemacs",
  ".spacemacs.d/",
  // direnv sources ~/.config/direnv/direnvrc and lib/*.sh before every .envrc (both in protected-writes.ts),
  // and ~/.local/share/direnv/allow/ holds which .envrc files run without asking.
  ".local/share/direnv/",
  // smartcd runs ~/.smartcd/scripts/<dir>/bash_enter when a shell enters that directory (fix17a).
  ".smartcd/",
  // gh's config.yml `aliases` starting with `!` run in a shell; extensions are programs `gh NAME` runs.
  ".config/gh/",
  ".local/share/gh/",
  // curl reads ~/.curlrc, or curlrc in $XDG_CONFIG_HOME (~/.config) and $CURL_HOME, before every transfer:
  // `output`, `upload-file`, `proxy` and `config` (proven: an `output` line wrote where it named). wget reads
  // ~/.wgetrc (`use_askpass` runs a program, `output_document`, `post_file`; proven likewise).
  ".curlrc",
  "_curlrc",
  ".config/curlrc",
  ".wgetrc",
  // less reads ~/.lesskey or $XDG_CONFIG_HOME/lesskey, whose `#env` section sets LESSOPEN (proven: a
  // `LESSOPEN=|cmd %s` line ran at `less FILE`), and the compiled ~/.less; Debian's lesspipe runs
  // ~/.lessfilter or ~/.config/lessfilter for every file less opens.
  ".lesskey",
  ".config/lesskey",
  ".less",
  ".lessfilter",
  ".config/lessfilter",
  // The usual names of the file PYTHONSTARTUP names, run by every interactive python.
  ".pythonrc",
  ".pythonrc.py",
  ".pythonstartup",
  ".pythonstartup.py",
  // starship runs its `[custom.*]` modules' `command` and `when` at every prompt.
  ".config/starship.toml",
  // Other shells' start-up files and what they source: Fedora's ~/.bashrc sources ~/.bashrc.d/*, Oh My Zsh's
  // plugins and custom/ run in every zsh, csh/tcsh read .cshrc, .tcshrc and .login, ksh and mksh their rc,
  // Nushell, xonsh and PowerShell their config directories.
  ".bashrc.d/",
  ".oh-my-zsh/",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".kshrc",
  ".mkshrc",
  ".config/nushell/",
  ".xonshrc",
  ".config/xonsh/",
  ".config/powershell/",
  // Version control's user configuration, as ~/.gitconfig: Mercurial's and Sapling's hooks run on any
  // command, jj's pager, diff and editor commands on an everyday `jj log`.
  ".hgrc",
  ".config/hg/",
  ".config/sapling/",
  ".jjconfig.toml",
  ".config/jj/",
  // Jupyter runs ~/.jupyter/*_config.py as Python when `jupyter lab` or `jupyter notebook` starts.
  ".jupyter/",
  // Round 19 (r19-14): REPLs' start-up files read from home only, each run as code (or as commands whose
  // `.shell`/`system` run programs) when the REPL starts: Guile's, mongosh's and the old mongo shell's, the
  // sqlite3 shell's (and its XDG home), Julia's (before 0.7, and the depot's config/startup.jl), Erlang's
  // (the current directory's too before OTP 21), SBCL's, Racket's, tclsh's and wish's, gnuplot's, pdb++'s,
  // ruby/debug's (rdbg), GHC's ghci.conf (~/.ghc, or the XDG one), OCaml's XDG init.ml.
  ".guile",
  ".mongoshrc.js",
  ".mongorc.js",
  ".sqliterc",
  ".config/sqlite3/",
  ".juliarc.jl",
  ".julia/config/",
  ".erlang",
  ".config/erlang/",
  ".sbclrc",
  ".racketrc",
  ".tclshrc",
  ".wishrc",
  ".gnuplot",
  ".pdbrc.py",
  ".rdbgrc",
  ".rdbgrc.rb",
  ".ghc/ghci.conf",
  ".config/ghc/",
  ".config/ocaml/",
  // The X session (.xprofile, .xsessionrc, .xsession, .xinitrc in protected-writes.ts): Fedora's startx runs
  // .Xclients and xinit .xserverrc.
  ".Xclients",
  ".xserverrc",
  // Window managers' and desktops' configuration, which starts programs with the session (i3's, sway's,
  // Hyprland's and river's `exec`, labwc's and Openbox's autostart, awesome's rc.lua, bspwmrc, sxhkd's
  // bindings, qtile's config.py, xmonad.hs, niri's spawn-at-startup, Wayfire's autostart, KDE's
  // autostart-scripts and plasma-workspace/env, which Plasma sources at login).
  ".config/i3/",
  ".i3/",
  ".config/sway/",
  ".sway/",
  ".config/hypr/",
  ".config/river/",
  ".config/labwc/",
  ".config/openbox/",
  ".config/awesome/",
  ".config/bspwm/",
  ".config/sxhkd/",
  ".config/qtile/",
  ".xmonad/",
  ".config/xmonad/",
  ".config/niri/",
  ".config/wayfire.ini",
  ".config/autostart-scripts/",
  ".config/plasma-workspace/",
  // Hooked agents' global configuration (docs/agents.md): OpenCode's plugins and config in
  // ~/.config/opencode/, Copilot CLI's hooks/*.json, config and MCP servers in $COPILOT_HOME (~/.copilot),
  // Crush's user config and its data-directory config.
  ".config/opencode/",
  ".copilot/",
  ".config/crush/",
  ".local/share/crush/",
];

/** Files a tool runs when a person merely starts it in the directory that holds them. */
export const PROJECT_STARTUP: readonly string[] = [
  // R sources .Rprofile from the working directory (else home) at start, after .Renviron, which can name
  // another profile (R_PROFILE_USER) or library path (?Startup).
  ".Rprofile",
  ".Renviron",
  // irb loads ~/.irbrc, $XDG_CONFIG_HOME/irb/irbrc, then .irbrc, irb.rc or _irbrc in the working directory;
  // pry loads ~/.pryrc (or $XDG_CONFIG_HOME/pry/pryrc) and ./.pryrc.
  ".irbrc",
  "irb.rc",
  "_irbrc",
  ".config/irb/",
  ".pryrc",
  ".config/pry/",
  // Round 19 (r19-14): debuggers and REPLs that run a file of the directory they start in (else home's)
  // before anything else: perl -d's `.perldb` (`perldb.ini` without a terminal; perl5db.pl, proven: it ran a
  // `.perldb` that copied ~/.netrc), Octave's `.octaverc`, GHCi's `.ghci` (`:!` runs a shell), IEx's
  // `.iex.exs`, the OCaml toplevel's (and utop's) `.ocamlinit`, byebug's `.byebugrc`.
  ".perldb",
  "perldb.ini",
  ".octaverc",
  ".ghci",
  ".iex.exs",
  ".ocamlinit",
  ".byebugrc",
  // lldb sources ~/.lldbinit and ~/.lldbinit-<program> at every start; a working directory's .lldbinit only
  // with target.load-cwd-lldbinit (it warns by default), which the home one can set.
  ".lldbinit",
  ".lldbinit-*",
  // A VS Code workspace file holds `tasks` (runOn folderOpen) and `settings` (terminal env, interpreter
  // paths) as .vscode/ does.
  "*.code-workspace",
  // Coding agents' project configuration that starts MCP servers and language servers: opencode-ai's (the
  // Go one, before Crush) ./.opencode.json, Crush's .crush.json and crush.json.
  ".opencode.json",
  ".crush.json",
  "crush.json",
];

/** Every start-up file of this table, home-level and project-level. */
export const STARTUP_WRITE_PATTERNS: readonly string[] = [...HOME_STARTUP, ...PROJECT_STARTUP];
