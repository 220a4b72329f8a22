// The protected-write table: files whose contents decide what later runs (git config and hooks, shell
// and editor start-up files, agent configuration, installed code), never written without a person.
// secret-paths.ts compiles it; the disk check (guards/home-links.ts) also resolves it under HOME.
import { STARTUP_WRITE_PATTERNS } from "./startup-writes.ts";

/** Files whose contents decide what later runs: writing one is running code later. */
export const PROTECTED_WRITE_PATTERNS: readonly string[] = [
  ".git/",
  // A `.git` file (`gitdir: DIR`) makes DIR the repository of this directory, with DIR/config's programs.
  ".git",
  // A directory holding HEAD (with objects/ and refs/, or a commondir) is a repository to git, its
  // config deciding what runs there: creating one is deciding what runs (red team, round 7).
  "HEAD",
  "commondir",
  ".gitconfig",
  ".config/git/",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  // Debian's ~/.bashrc sources it in every interactive shell.
  ".bash_aliases",
  ".profile",
  // What a login shell (Codex runs every call as `bash -lc`) sources before ~/.bash_profile.
  "etc/profile",
  "etc/profile.d/",
  "etc/bash.bashrc",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".inputrc",
  ".envrc",
  // fix17a: other files a shell hook loads on entering the directory, each per its tool's docs: zsh-autoenv's
  // enter and leave scripts, RVM's `.rvmrc` (sourced) and its `.versions.conf`/`.ruby-env` (`env-PATH=`,
  // `VAR=value`), rbenv-vars' `.rbenv-vars` (RUBYOPT, PATH for every ruby), and localvimrc's `.lvimrc`
  // (run by vim opening a file below). The version pickers beside them are protected below (s22-02).
  ".autoenv.zsh",
  ".autoenv_leave.zsh",
  ".rvmrc",
  ".versions.conf",
  ".ruby-env",
  ".rbenv-vars",
  ".lvimrc",
  ".vscode/",
  ".config/autostart/",
  ".config/systemd/",
  ".pi/",
  ".claude/",
  ".codex/",
  ".agents/",
  // Agent and editor configuration that starts programs (MCP servers, tasks, dev containers).
  ".mcp.json",
  ".cursor/",
  ".gemini/",
  // OpenCode: `mcp` servers it starts and plugins it loads at its next launch (red team, round 5).
  "opencode.json",
  "opencode.jsonc",
  ".opencode/",
  ".windsurf/",
  ".continue/",
  ".devcontainer/",
  // Git hooks kept in the work tree (husky sets core.hooksPath to it).
  ".husky/",
  // The installed packages' code: `npx NAME` and every script runs their bins (red team, round 8: an
  // edited node_modules/typescript/bin/tsc ran on `npx tsc --version`).
  "node_modules/",
  ".githooks/",
  // pre-commit runs the repository's `repo: local` hooks on the next commit.
  ".pre-commit-config.yaml",
  // Package-manager and build configuration that names programs to run.
  ".yarnrc.yml",
  ".yarnrc",
  ".pnpmfile.cjs",
  ".cargo/config.toml",
  ".cargo/config",
  // Other tools' configuration that runs code (red team, round 10): Mercurial's hooks run on any hg
  // command, JetBrains run configurations (startup tasks run when the project opens), mise's tasks, hooks
  // and `path:` tool versions, git-lfs's endpoint (pushes go there with the user's credentials).
  ".hg/",
  ".idea/",
  ".mise.toml",
  "mise.toml",
  "mise.local.toml",
  ".mise/",
  ".tool-versions",
  ".lfsconfig",
  // Git-hook managers' configuration (red team, round 13): the person's next `git commit` runs what it
  // names, outside any agent gate. `*` in a name matches any run of characters (`.lintstagedrc.json`).
  "lint-staged.config.*",
  ".lintstagedrc*",
  "lefthook.*",
  ".lefthook.*",
  "lefthook-local.*",
  ".lefthook-local.*",
  ".lefthook/",
  ".lefthook-local/",
  ".huskyrc*",
  "husky.config.*",
  ".simple-git-hooks.*",
  "simple-git-hooks.*",
  ".overcommit.yml",
  "commitlint.config.*",
  ".commitlintrc*",
  // Round 20 (r20-s02): nano-staged's, rusty-hook's, CaptainHook's, yorkie's configs, and cargo-husky's hooks
  // (copied into .git/hooks at the next `cargo test`).
  ".nano-staged.*",
  "nano-staged.*",
  ".nanostagedrc",
  ".rusty-hook.toml",
  "rusty-hook.toml",
  "captainhook.json",
  ".cargo-husky/",
  ".yorkierc",
  // Editors' project configuration that runs programs when the person opens the project: Zed's tasks and
  // language servers, Helix's language servers, Neovim's and Vim's `exrc` files, jj's repository config.
  ".zed/",
  ".helix/",
  ".nvim.lua",
  ".nvimrc",
  ".exrc",
  ".jj/",
  // Red team, round 14: start-up files and installed code in the project. pdb runs `./.pdbrc` as Python when
  // it starts; a virtualenv's `bin/activate` and `site-packages/*.pth` run at every activation and interpreter
  // start (any directory holding pyvenv.cfg is one, found on disk: python-venv.ts); direnv's cache holds the
  // rc `use flake` sources and `layout python`'s virtualenv; IPython runs a profile's startup/ files and
  // ipython_config.py (in ~/.ipython or IPYTHONDIR; no longer the working directory's); the dev container
  // spec reads `.devcontainer.json` at the root (its initializeCommand runs on the host); Copilot CLI loads
  // hooks from `.github/hooks/*.json` and `.github/copilot/settings*.json`.
  ".pdbrc",
  // fix15e: a pyvenv.cfg makes its directory a virtualenv, whose files the PATH lookup runs as installed
  // code; written by the agent, it would make a directory the agent filled (`tools/bin/ls`) installed code.
  "pyvenv.cfg",
  // Round 18 (r18-02): `conda-meta/` makes its directory a conda environment as pyvenv.cfg does a venv, and
  // pixi keeps the project's environments in `.pixi/envs/`.
  "conda-meta/",
  ".pixi/",
  ".venv/",
  "venv/",
  ".tox/",
  ".nox/",
  ".direnv/",
  ".ipython/",
  ".devcontainer.json",
  ".github/hooks/",
  ".github/copilot/",
  // Round 14: Sapling's repository config, whose [hooks] run on any sl command as Mercurial's do.
  ".sl/",
  // Round 14: Yarn PnP's installed code, loaded by every node process of the project as
  // node_modules/ is: the resolver and its map, the packages' zips and unpacked builds, the release
  // yarnPath runs, plugins, and the editor SDKs editors start.
  ".pnp.cjs",
  ".pnp.loader.mjs",
  ".pnp.data.json",
  ".yarn/releases/",
  ".yarn/plugins/",
  ".yarn/sdks/",
  ".yarn/cache/",
  ".yarn/unplugged/",
  // Round 14: other coding agents' project configuration that starts programs when the agent opens
  // the folder, each per its docs: Kiro's MCP servers and hooks (kiro.dev/docs/mcp/configuration), Amazon
  // Q's `.amazonq/mcp.json` and `default.json` (docs.aws.amazon.com/amazonq, mcp-ide), Roo Code's
  // `.roo/mcp.json` (docs.roocode.com), Kilo Code's `.kilocode/mcp.json` and `kilo.jsonc`/`.kilo/`
  // (kilo.ai/docs), Qwen Code's `.qwen/settings.json` mcpServers (qwenlm.github.io/qwen-code-docs),
  // OpenHands' `.openhands/setup.sh`, run at every session's start (docs.openhands.dev), Cline's hooks
  // (docs.cline.bot/customization/hooks), and aider's `lint-cmd`/`test-cmd`, run after every edit
  // (aider.chat/docs/usage/lint-test.html). Their rules and hints (`.clinerules/*.md`, `.goosehints`) are text.
  ".kiro/",
  ".amazonq/",
  ".roo/",
  ".kilocode/",
  ".kilo/",
  "kilo.json",
  "kilo.jsonc",
  ".qwen/",
  ".openhands/",
  ".clinerules/hooks/",
  ".aider.conf.yml",
  // Round 21 (s21-01): more agents' project directories that hold MCP server lists (JetBrains Junie's
  // `.junie/mcp/mcp.json`, which rule generators such as rulesync write), Trae's `.trae/mcp.json`, Augment's
  // `.augment/` settings and Goose's `.goose/`: unproven that each starts a server unprompted, so a write
  // there asks rather than guessing which of their files are only text. `.junie/guidelines.md` stays text.
  ".junie/mcp/",
  ".trae/",
  ".augment/",
  ".goose/",
  // Red team, round 14 (r14-16, s02, s05): mise loads more names per directory than mise.toml (its
  // LOCAL_CONFIG_FILENAMES and the MISE_ENV ones: `.config/mise/`'s config.toml and conf.d/*.toml,
  // `mise/config.toml`, `mise.<env>.toml`, `.mise.local.toml`, the old `.rtx.toml`), each with the same
  // `_.source`, hooks and tasks, and `.miserc.toml` picks which load; rustup runs the programs of a
  // `rust-toolchain.toml` `path`, and rust-analyzer a `rust-analyzer.toml`'s overrideCommand.
  ".config/mise/",
  "mise/config.toml",
  "mise/config.*.toml",
  "mise.*.toml",
  ".mise.*.toml",
  ".rtx.toml",
  ".rtx.*.toml",
  ".miserc.toml",
  ".config/miserc.toml",
  "rust-toolchain.toml",
  "rust-toolchain",
  "rust-analyzer.toml",
  // Round 20 (r20-s04): other ecosystems' toolchain pickers, which download or run what they name on every
  // later call of the program (`--version` too), each per its tool's docs. bazelisk downloads the Bazel a
  // `.bazelversion` names (`FORK/VERSION`: that fork's release), reads BAZELISK_BASE_URL and USE_BAZEL_VERSION
  // from `.bazeliskrc`, and runs `tools/bazel` (or `tools/bazel.<os>-<arch>`) instead of Bazel; a `.bazelrc`'s
  // `startup --server_javabase` picks the JVM Bazel's server runs. The dotnet muxer reads global.json in the
  // directory it runs in or above (`sdk.paths`, .NET 10: SDKs searched relative to it; `msbuild-sdks`). Gradle's
  // wrapper runs the distributionUrl of `gradle/wrapper/gradle-wrapper.properties` (and its jar), and the daemon
  // downloads the `toolchainUrl.*` JDK of `gradle/gradle-daemon-jvm.properties`; Maven's launcher reads
  // `.mvn/jvm.config` (JVM options, `-javaagent:` included) and `.mvn/maven.config`, loads `.mvn/extensions.xml`'s
  // core extensions, and mvnw runs `.mvn/wrapper/`'s distribution. SDKMAN's `sdk env` (on every cd with
  // sdkman_auto_env) puts `candidates/NAME/VERSION/bin` of each `.sdkmanrc` line on PATH, a `../` VERSION
  // included; tfenv's terraform installs the `.terraform-version` release (TFENV_AUTO_INSTALL), and tfswitch
  // reads `.tfswitchrc` and `.tfswitch.toml` (whose `bin` is where it writes the binary). swiftly's proxies
  // only select an installed toolchain by `.swift-version`, which stays an ordinary write;
  // jenv runs `versions/NAME/bin/java` for a `.java-version` NAME of `../../proj/jdk` (version-names.ts).
  ".bazelversion",
  ".bazeliskrc",
  "tools/bazel",
  "tools/bazel.*",
  ".bazelrc",
  "global.json",
  "gradle/wrapper/",
  "gradle/gradle-daemon-jvm.properties",
  ".mvn/",
  ".sdkmanrc",
  ".terraform-version",
  ".tfswitchrc",
  ".tfswitch.toml",
  ".java-version",
  // Red team, round 22 (s22-02): the node, python, ruby, go and bun version pickers, which a shell hook reads on
  // every cd and may install from: nvm's documented zsh hook runs `nvm install` when an `.nvmrc`'s version is
  // missing, fnm's `--use-on-cd` hook offers to install one (`fnm use --install-if-missing`), RVM auto-installs a
  // `.ruby-version` ruby and creates a `.ruby-gemset`, and mise installs the idiomatic files' versions. pyenv and
  // rbenv refuse a climbing name, but the same files feed the installers, so each is a picker as `.java-version` is.
  ".nvmrc",
  ".node-version",
  ".python-version",
  ".ruby-version",
  ".ruby-gemset",
  ".go-version",
  ".bun-version",
  // Red team, round 15 (r15a-05): the user's own start-up files, which matter where the workspace is the
  // home directory (an agent started in ~), each per its program's docs. Python imports `sitecustomize` and
  // `usercustomize` from any sys.path entry and runs a site directory's `*.pth` import lines at every start:
  // an installed-packages directory (the user site ~/.local/lib/pythonX.Y/site-packages, a distribution's
  // dist-packages) is installed code as node_modules/ is (a project venv's is found by pyvenv.cfg).
  // systemd's user environment.d (LD_PRELOAD for every session), fish's config and conf.d, Neovim's and
  // Vim's rc and plugin directories (XDG and classic, nvim's site packages), tmux's conf, gdb's init (run
  // as commands), psql's rc (`\!` runs a shell), the X session scripts, pam_env's file, direnv's rc and lib,
  // Gradle's init scripts (run by every build), ~/.local/bin (on PATH in Debian's and Fedora's profile),
  // and the editors' user settings (terminal env, tasks, interpreter paths).
  "site-packages/",
  "dist-packages/",
  // PEP 582's project package directory, which pdm's start-up puts on sys.path with its `.pth` files run (s21-02).
  "__pypackages__/",
  "sitecustomize.py",
  "usercustomize.py",
  ".config/environment.d/",
  ".config/fish/",
  ".config/nvim/",
  ".local/share/nvim/site/",
  ".vimrc",
  "_vimrc",
  ".gvimrc",
  ".vim/",
  ".config/vim/",
  ".tmux.conf",
  ".config/tmux/",
  ".gdbinit",
  ".config/gdb/",
  ".psqlrc",
  ".psqlrc-*",
  ".xprofile",
  ".xinitrc",
  ".xsession",
  ".xsessionrc",
  ".pam_environment",
  ".direnvrc",
  ".config/direnv/",
  ".gradle/init.d/",
  ".gradle/init.gradle",
  ".gradle/init.gradle.kts",
  ".local/bin/",
  ".config/Code/User/",
  ".config/VSCodium/User/",
  // Round 15 (r15b-03): the start-up files programs read from home and from the directory they start in.
  ...STARTUP_WRITE_PATTERNS,
];
