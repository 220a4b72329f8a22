// The environment variables whose value names a path a program loads code or configuration from, each
// decided from the program's own documentation (red team, round 15: BASH_ENV, GIT_CONFIG_GLOBAL,
// XDG_CONFIG_HOME and LD_LIBRARY_PATH in the agent's environment named workspace files, so an ordinary
// write there ran code in every later call). Setting one in a command is a dangerous variable
// (shell/env-vars.ts); this table is about the values the agent's environment already holds: the paths
// they name (a value's own, or what the words of a command or of options name: round 16, pagers and the
// C toolchain) are protected writes, and for some the value alone makes every shell call, or every run of
// the programs that load it, run what is there.

export interface LoadingVariable {
  name: string;
  /** Who loads what from it, as a person reads it ("bash runs the file before every non-interactive shell"). */
  loads: string;
  /** The value is a list of paths split at these characters (ld.so(8): LD_PRELOAD at spaces or colons). */
  list?: RegExp;
  /** The program matches the name in any case (npm reads `npm_config_userconfig` as `NPM_CONFIG_USERCONFIG`). */
  ignoreCase?: true;
  /**
   * Every shell call loads what the path holds now, whatever its command: bash itself for BASH_ENV, and
   * every dynamically linked program (bash, ls, git) for the loader's variables.
   */
  everyCall?: true;
  /**
   * The value is a command line or options, not a path (PAGER="less -R", CC="gcc -B/w/tools",
   * JAVA_TOOL_OPTIONS="-javaagent:/w/agent.jar"): the paths are what these words name (`WORDS`).
   */
  words?: keyof typeof WORDS;
  /** The path is a prefix programs put names after, not a directory (gcc's `-B` and GCC_EXEC_PREFIX: `/w/tools/x-` runs `/w/tools/x-as`). */
  prefix?: true;
  /** Programs that run or load what it names whenever they run (lsb_release sources LSB_OS_RELEASE's file). */
  runBy?: readonly string[];
  /**
   * The only names the program loads from below the directories (a name without a dot may be a directory
   * holding them); a write of any other name there is not loaded. Absent: anything there may be.
   */
  imports?: RegExp;
}

/** A word's path as a program takes it: `null` when the word names none. */
type WordPath = (word: string) => string | null;

/**
 * A word with a slash (a bare name is looked up in PATH), after LESSOPEN's marks (less(1): `|`, `||`, and a
 * `-` for standard input too: `-/x`, `|-/x`) or an option's name (`-B`, `--name=`).
 */
const commandWord: WordPath = (w) => {
  const bare = w.replace(/^\|*-?(?=[/.~])|^\|+/, "").replace(/^(-B|--?[A-Za-z][\w-]*=)/, "");
  return bare.includes("/") ? bare : null;
};

/**
 * How each kind of value names paths, word by word (split at blanks, quotes dropped). A relative path
 * (with a slash) is relative to where the program runs.
 */
export const WORDS = {
  /** A command the program runs through sh (git(1) GIT_PAGER, man(1) MANPAGER, less(1) LESSOPEN, CC). */
  command: commandWord,
  /** java(1) JAVA_TOOL_OPTIONS: `-javaagent:JAR[=options]`, `-agentpath:LIB[=options]`, `-Xbootclasspath/a:`, VM option files. */
  jvm: (w) =>
    /^-(?:javaagent|agentpath|Xbootclasspath\/[ap]|XX:Flags=|XX:VMOptionsFile=):?([^=]+)/.exec(w)?.[1] ??
    null,
  /** perlrun(1) PERL5OPT: `-Idir` puts a directory first on @INC (`-M` then loads from it). */
  perl: (w) => /^-I(.+)$/.exec(w)?.[1] ?? null,
  /** gcc(1) `-Bprefix` (where it finds cc1, as, collect2), `-fplugin=`, `-specs=`, in CFLAGS-like lists; an absolute word. */
  compilerFlags: (w) => /^(?:-B|-fplugin=|-specs=)(.+)$/.exec(w)?.[1] ?? (/^[/~]/.test(w) ? w : null),
  /** `go help build`: GOFLAGS' `-toolexec=cmd`, `-exec=cmd`, `-modfile=`, `-overlay=`, `-pgo=` name files go reads or runs. */
  /** bc(1) BC_ENV_ARGS: options and files, each file loaded (and run) before standard input; relative to where bc runs. */
  files: (w) => (w.startsWith("-") ? null : w),
  /**
   * tar(1) TAR_OPTIONS: `--to-command=`, `--use-compress-program=`/`-I`, `--info-script=`/`-F`, `--rsh-command=`
   * and `--checkpoint-action=exec=` run a command; any word with a slash is taken as one it may run.
   */
  tarOptions: (w) => commandWord(w.replace(/^--checkpoint-action=exec=/, "")),
  goFlags: (w) =>
    /^--?(?:modfile|overlay|pgo)=(.+)$/.exec(w)?.[1] ??
    /^--?(?:toolexec|exec)=(.*\/.*)$/.exec(w)?.[1] ?? // a bare program name is looked up in PATH
    null,
} satisfies Record<string, WordPath>;

const COLONS = /:/;

/** Programs that run groff's formatter: man's pages go through nroff, nroff through groff, groff runs troff. */
const GROFF_RUNNERS = ["man", "groff", "nroff", "troff"];

/** Programs that run gcc's driver (cc and c++ are gcc's names on Debian; go runs it for cgo and `go env`). */
const GCC_RUNNERS = ["gcc", "g++", "cc", "c++", "cpp", "go"];

/**
 * Python imports identifiers (no dot) with the suffixes importlib knows (.py, .pyc, extension modules'
 * .so/.pyd) and reads .pth files in site directories (named here too); node's require() loads a bare name's
 * exact file as JavaScript whatever its extension (`require("README.md")`), so NODE_PATH is not narrowed.
 */
const PYTHON_IMPORTS = /^[^.]*$|\.(py|pyc|pyw|pth|so|pyd)$/;
/**
 * perl loads `use Foo::Bar` as Foo/Bar.pm (or .pmc), `require "x.pl"`, h2ph's .ph, AutoLoader's .al/.ix and
 * XS libraries' .so/.bs (perlfunc require, AutoLoader, DynaLoader).
 */
const PERL_IMPORTS = /^[^.]*$|\.(pm|pmc|pl|ph|al|ix|so|bs)$/;

export const LOADING_VARIABLES: readonly LoadingVariable[] = [
  // bash(1) INVOCATION; dash(1) and bash's sh mode read ENV in interactive shells; zsh(1) STARTUP/SHUTDOWN
  // FILES reads $ZDOTDIR/.zshenv in every zsh; readline(3) reads INPUTRC (its `$include` reads any file).
  { name: "BASH_ENV", loads: "bash runs the file before every non-interactive shell", everyCall: true },
  { name: "ENV", loads: "sh (and bash as sh) runs the file in every interactive shell" },
  // The agent's shell may be zsh (Claude Code runs the user's shell), which sources $ZDOTDIR/.zshenv first.
  {
    name: "ZDOTDIR",
    loads: "zsh runs its start-up files (.zshenv in every zsh) from the directory",
    everyCall: true,
  },
  { name: "INPUTRC", loads: "readline reads its key bindings from the file" },
  // Programs that run a command the variable names (git(1) core.pager/GIT_PAGER, man(1) MANPAGER and
  // PAGER, less(1) INPUT PREPROCESSOR, git-var(1) GIT_EDITOR/VISUAL/EDITOR): a pager runs when standard
  // output is a terminal, as an agent's pty is (red team, round 16: `script -qc 'git log'` ran GIT_PAGER).
  { name: "GIT_PAGER", loads: "git runs the command as its pager", words: "command", runBy: ["git"] },
  {
    name: "PAGER",
    loads: "git, man and others run the command as the pager",
    words: "command",
    runBy: ["git", "man", "dpkg", "dpkg-query"],
  },
  // dpkg-query(1) DPKG_PAGER, before PAGER: `dpkg -l` pages its listing on a terminal.
  {
    name: "DPKG_PAGER",
    loads: "dpkg-query runs the command as its pager",
    words: "command",
    runBy: ["dpkg", "dpkg-query"],
  },
  { name: "MANPAGER", loads: "man runs the command as its pager", words: "command", runBy: ["man"] },
  ...["LESSOPEN", "LESSCLOSE"].map((name) => ({
    name,
    loads: "less (the pager of git and man) runs the command on every file it shows",
    words: "command" as const,
    runBy: ["less", "git", "man", "dpkg", "dpkg-query"],
  })),
  ...["GIT_EDITOR", "VISUAL", "EDITOR"].map((name) => ({
    name,
    loads: "git and other programs run the command as the editor",
    words: "command" as const,
  })),
  {
    name: "SHELL",
    loads: "programs that start a shell (script, editors, make's $SHELL users) run it",
    words: "command",
  },
  // man(1) MANOPT: options before the command line's, `-P`/`--pager=` among them (red team, round 17).
  { name: "MANOPT", loads: "man runs the pager its options name", words: "command", runBy: ["man"] },
  // less(1) LESSKEYIN, LESSKEY and their system forms: a key file's `#env` section sets LESSOPEN, which
  // less then runs on every file (less 590 ran a LESSKEYIN file's `LESSOPEN=|/x %s`).
  ...["LESSKEYIN", "LESSKEY", "LESSKEYIN_SYSTEM", "LESSKEY_SYSTEM"].map((name) => ({
    name,
    loads: "less reads key bindings and variables (LESSOPEN, a command it runs) from the file",
    runBy: ["less", "git", "man"],
  })),
  // git(1) GIT_EXTERNAL_DIFF: `git diff`, `log -p`, `show` run it for every changed file.
  {
    name: "GIT_EXTERNAL_DIFF",
    loads: "git runs the command to show every diff",
    words: "command",
    runBy: ["git"],
  },
  // Options the agent's environment adds to a program's own, which run a command or load a file (red team,
  // rounds 16/17): bc(1) BC_ENV_ARGS' files, tar(1) TAR_OPTIONS' commands, zip(1) ZIPOPT's `-TT` test command.
  { name: "BC_ENV_ARGS", loads: "bc loads and runs the files it names first", words: "files", runBy: ["bc"] },
  {
    name: "TAR_OPTIONS",
    loads: "tar runs the commands its options name (--to-command, -I, --info-script)",
    words: "tarOptions",
    runBy: ["tar"],
  },
  {
    name: "ZIPOPT",
    loads: "zip runs the command its -TT (--unzip-command) option names to test an archive",
    words: "command",
    runBy: ["zip"],
  },
  // groff(1) ENVIRONMENT, read by the nroff every `man NAME` runs (red team, round 19, r19-17: a macro file
  // whose `.so` named a key printed it in the page; a DESC's `postpro` and GROFF_BIN_PATH's troff ran, and so
  // did a prefixed `/dir/xtroff`). A bare GROFF_COMMAND_PREFIX (`g`) names programs looked up in PATH.
  ...["GROFF_TMAC_PATH", "GROFF_FONT_PATH", "GROFF_BIN_PATH"].map((name) => ({
    name,
    loads:
      "groff (which man runs) reads macro files and device descriptions, or runs troff, from the directories",
    list: COLONS,
    runBy: GROFF_RUNNERS,
  })),
  {
    name: "GROFF_COMMAND_PREFIX",
    loads: "groff runs troff and its preprocessors by names with this prefix",
    words: "command",
    prefix: true,
    runBy: GROFF_RUNNERS,
  },
  // lsb_release (Debian's, a sh script) sources the os-release file LSB_OS_RELEASE names.
  { name: "LSB_OS_RELEASE", loads: "lsb_release runs the file as shell code", runBy: ["lsb_release"] },
  // openssl(1) loads the configuration file at start, whose providers and engines sections load shared
  // libraries (3.0 opened a config's `module` path); the two directories hold the modules a bare name loads.
  ...["OPENSSL_CONF", "OPENSSL_MODULES", "OPENSSL_ENGINES"].map((name) => ({
    name,
    loads: "openssl loads its configuration, and the shared libraries it names, from it",
    runBy: ["openssl"],
  })),
  // ld.so(8): LD_PRELOAD, LD_AUDIT and LD_LIBRARY_PATH (`;` too); iconv_open(3) loads gconv modules.
  {
    name: "LD_PRELOAD",
    loads: "the dynamic loader loads the libraries into every program",
    list: /[:\s]/,
    everyCall: true,
  },
  {
    name: "LD_AUDIT",
    loads: "the dynamic loader loads the auditing libraries into every program",
    list: COLONS,
    everyCall: true,
  },
  {
    name: "LD_LIBRARY_PATH",
    loads: "the dynamic loader looks every program's libraries up in the directories first",
    list: /[:;]/,
    everyCall: true,
  },
  {
    name: "GCONV_PATH",
    loads: "libc loads character-set conversion modules from the directories",
    list: COLONS,
    everyCall: true,
  },
  // git(1) ENVIRONMENT VARIABLES, git-config(1) FILES, git-init(1) TEMPLATE DIRECTORY.
  { name: "GIT_CONFIG_GLOBAL", loads: "git reads the file as the user's configuration (programs it runs)" },
  { name: "GIT_CONFIG_SYSTEM", loads: "git reads the file as the system configuration (programs it runs)" },
  { name: "GIT_CONFIG", loads: "`git config` reads and writes the file" },
  // Round 23b: `git difftool --tool-help` ran tools/git-mergetool from a GIT_EXEC_PATH in the workspace, and
  // `git fsck` a nested repository's core.fsmonitor through GIT_COMMON_DIR: a git call asks while either does.
  { name: "GIT_EXEC_PATH", loads: "git runs its subcommands (`git-*`) from the directory", runBy: ["git"] },
  {
    name: "GIT_COMMON_DIR",
    loads: "git reads the repository's configuration (programs it runs) and hooks from the directory",
    runBy: ["git"],
  },
  { name: "GIT_TEMPLATE_DIR", loads: "git init and clone copy the directory's hooks into new repositories" },
  { name: "GIT_SSH", loads: "git runs the program to reach a remote" },
  { name: "GIT_ASKPASS", loads: "git runs the program to ask for a password" },
  { name: "SSH_ASKPASS", loads: "ssh and git run the program to ask for a password" },
  // XDG Base Directory Specification: git (git/config, git/attributes), and most programs' configuration.
  { name: "XDG_CONFIG_HOME", loads: "git and most programs read their configuration from the directory" },
  // python(1) ENVIRONMENT VARIABLES, pip's configuration.
  {
    name: "PYTHONPATH",
    loads: "python imports modules from the directories first",
    list: COLONS,
    imports: PYTHON_IMPORTS,
  },
  { name: "PYTHONSTARTUP", loads: "interactive python runs the file first" },
  { name: "PYTHONUSERBASE", loads: "python runs the .pth files of the directory's site-packages" },
  { name: "PYTHONHOME", loads: "python takes its standard library from the directory" },
  { name: "PYTHONPYCACHEPREFIX", loads: "python runs the compiled modules it finds in the directory" },
  { name: "PIP_CONFIG_FILE", loads: "pip reads its configuration (indexes, options) from the file" },
  // node(1) NODE_PATH; npm-config(7): userconfig, globalconfig, prefix and cache, in any case.
  { name: "NODE_PATH", loads: "node resolves modules from the directories", list: COLONS },
  ...["USERCONFIG", "GLOBALCONFIG", "PREFIX", "CACHE"].map((key) => ({
    name: `NPM_CONFIG_${key}`,
    loads:
      "npm reads its configuration (script-shell, node-options) or installs and runs packages from there",
    ignoreCase: true as const,
  })),
  // perlrun(1) PERL5LIB, PERLLIB; ruby(1) RUBYLIB; gem(1) GEM_HOME, GEM_PATH; bundler's BUNDLE_GEMFILE.
  {
    name: "PERL5LIB",
    loads: "perl loads modules from the directories first",
    list: COLONS,
    imports: PERL_IMPORTS,
  },
  {
    name: "PERLLIB",
    loads: "perl loads modules from the directories first",
    list: COLONS,
    imports: PERL_IMPORTS,
  },
  { name: "RUBYLIB", loads: "ruby loads libraries from the directories first", list: COLONS },
  { name: "GEM_HOME", loads: "ruby loads installed gems from the directory", list: COLONS },
  { name: "GEM_PATH", loads: "ruby loads installed gems from the directories", list: COLONS },
  { name: "BUNDLE_GEMFILE", loads: "bundler runs the Gemfile, which is ruby" },
  // cargo's and rustup's environment: config.toml, installed binaries, registry sources whose build
  // scripts run, toolchains.
  {
    name: "CARGO_HOME",
    loads: "cargo reads its configuration and runs binaries and build scripts from the directory",
  },
  { name: "RUSTUP_HOME", loads: "rustup runs its toolchains from the directory" },
  // `go help environment`: GOENV's file sets GOFLAGS and GOTOOLCHAIN; GOPATH and GOMODCACHE hold the
  // module cache builds compile; GOROOT is the toolchain itself.
  { name: "GOENV", loads: "go reads its settings (GOFLAGS, GOTOOLCHAIN) from the file" },
  { name: "GOPATH", loads: "go builds modules from the directories' module cache", list: COLONS },
  { name: "GOMODCACHE", loads: "go builds modules from the directory" },
  { name: "GOROOT", loads: "go runs its toolchain from the directory" },
  {
    name: "GOFLAGS",
    loads: "go runs or reads the files its -toolexec, -exec, -modfile, -overlay name",
    words: "goFlags",
    runBy: ["go"],
  },
  // The C toolchain, which `go env` and every cgo build run (red team, round 16): gcc(1) ENVIRONMENT
  // VARIABLES (COMPILER_PATH, GCC_EXEC_PREFIX: where it finds cc1, as, collect2 first), `-B` in CC or
  // cgo's flags (`go help environment`: CGO_CFLAGS, CGO_CPPFLAGS, CGO_CXXFLAGS, CGO_FFLAGS, CGO_LDFLAGS).
  ...["CC", "CXX"].map((name) => ({
    name,
    loads: "go (for cgo, `go env` too) and build tools run the command as the C compiler",
    words: "command" as const,
    prefix: true as const,
    runBy: ["go"],
  })),
  {
    name: "COMPILER_PATH",
    loads: "gcc runs its subprograms (cc1, as, collect2) from the directories first",
    list: COLONS,
    runBy: GCC_RUNNERS,
  },
  {
    name: "GCC_EXEC_PREFIX",
    loads: "gcc runs its subprograms (cc1, as, collect2) from names with this prefix first",
    prefix: true,
    runBy: GCC_RUNNERS,
  },
  ...["CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS"].map((name) => ({
    name,
    loads: "go passes the flags to the C compiler, and gcc runs its subprograms from a `-B` directory",
    words: "compilerFlags" as const,
    prefix: true as const,
    runBy: ["go"],
  })),
  // The JVM's agents (java(1)), perl's switches (perlrun(1) PERL5OPT), nvm's and pyenv's installs (the node
  // and python their shims and PATH entries run), conda's configuration file (channels, which it installs from).
  ...["JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"].map((name) => ({
    name,
    loads: "every JVM loads the agents and class paths the options name",
    words: "jvm" as const,
  })),
  {
    name: "PERL5OPT",
    loads: "perl puts the `-I` directories first and loads `-M` modules from them",
    words: "perl",
    runBy: ["perl"],
  },
  { name: "NVM_DIR", loads: "nvm runs node (and npm, npx) from the directory's installs" },
  { name: "PYENV_ROOT", loads: "pyenv's shims run the versions, plugins and hooks of the directory" },
  { name: "CONDARC", loads: "conda reads its configuration (channels it installs from) from the file" },
  // Gradle's init.d scripts; kubectl's exec credential plugins; the AWS CLI's credential_process;
  // docker's credential helpers.
  { name: "GRADLE_USER_HOME", loads: "gradle runs the init scripts in the directory" },
  { name: "KUBECONFIG", loads: "kubectl runs the credential plugins the files name", list: COLONS },
  { name: "AWS_CONFIG_FILE", loads: "the AWS CLI runs the credential_process the file names" },
  { name: "DOCKER_CONFIG", loads: "docker runs the credential helpers its config.json names" },
  // Round 16 (r16b-09): the coding agents' own configuration homes, each per its docs, whose hooks, MCP
  // servers and plugins run at the agent's next start (a real `claude -p` ran a SessionStart hook written
  // to $CLAUDE_CONFIG_DIR/settings.json, which also held Airlock's own hook). GEMINI_CLI_HOME is not here:
  // Gemini reads `$GEMINI_CLI_HOME/.gemini/`, protected by its name wherever it is.
  {
    name: "CLAUDE_CONFIG_DIR",
    loads: "Claude Code runs the hooks and MCP servers of the directory's settings",
  },
  {
    name: "CODEX_HOME",
    loads: "Codex runs the hooks, MCP servers and notify program of the directory's config",
  },
  { name: "OPENCODE_CONFIG", loads: "OpenCode starts the MCP servers and plugins the file names" },
  { name: "OPENCODE_CONFIG_DIR", loads: "OpenCode loads the plugins and config of the directory" },
  { name: "PI_CODING_AGENT_DIR", loads: "Pi loads the extensions and settings of the directory" },
  { name: "COPILOT_HOME", loads: "Copilot CLI runs the hooks and MCP servers of the directory" },
  ...["SYSTEM_SETTINGS_PATH", "SYSTEM_DEFAULTS_PATH"].map((key) => ({
    name: `GEMINI_CLI_${key}`,
    loads: "Gemini CLI runs the hooks and MCP servers the settings file names",
  })),
  {
    name: "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    loads: "Gemini CLI runs a folder's hooks only when the file trusts it",
  },
];

/** One path the agent's environment names through a loading variable; `path` null: relative to where a program runs. */
export interface LoadedPath {
  variable: LoadingVariable;
  /** The environment's own spelling of the name (npm's any case). */
  name: string;
  /** The entry as the value has it. */
  entry: string;
  path: string | null;
  /** `path` is a prefix of file names (gcc's `-B`), not only a directory. */
  prefix?: true;
}

/**
 * ld.so(8): an LD_PRELOAD or LD_AUDIT word without a slash is a library looked up as any other is (through
 * LD_LIBRARY_PATH, which names its own directories here), not a file where the program runs; an empty word
 * names nothing. The search lists read an empty entry as the working directory.
 */
function librarySearched(variable: LoadingVariable, entry: string): boolean {
  return (variable.name === "LD_PRELOAD" || variable.name === "LD_AUDIT") && !entry.includes("/");
}

/** Looked up once per variable of the environment, for every path a call writes. */
const BY_NAME = new Map(LOADING_VARIABLES.map((v) => [v.name, v]));

function variableOf(name: string): LoadingVariable | undefined {
  const exact = BY_NAME.get(name);
  if (exact !== undefined) return exact;
  const folded = BY_NAME.get(name.toUpperCase());
  return folded?.ignoreCase === true ? folded : undefined;
}

/** The entries of a value: the paths a list or the words of a command name (`~/` as the shell would have it), or the value. */
function entriesOf(variable: LoadingVariable, value: string, home: string | undefined): string[] {
  if (variable.list !== undefined) return value.split(variable.list);
  if (variable.words === undefined) return [value];
  const named: string[] = [];
  for (const word of value.split(/\s+/)) {
    const path = WORDS[variable.words](word.replace(/^['"]+|['"]+$/g, ""));
    if (path !== null && path !== "") named.push(home !== undefined ? path.replace(/^~(?=\/)/, home) : path);
  }
  return named;
}

/**
 * Every path the environment's loading variables name. A relative entry (and an empty one in a list, which
 * the programs read as the working directory) names a path below wherever the program runs: `path` null.
 */
export function loadedPaths(env: Readonly<Record<string, string | undefined>>): LoadedPath[] {
  const out: LoadedPath[] = [];
  for (const [name, value] of Object.entries(env)) {
    const variable = value === undefined || value === "" ? undefined : variableOf(name);
    if (variable === undefined) continue;
    for (const entry of entriesOf(variable, value as string, env.HOME))
      if (!librarySearched(variable, entry))
        out.push({
          variable,
          name,
          entry,
          path: entry.startsWith("/") ? entry : null,
          ...(variable.prefix ? { prefix: true as const } : {}),
        });
  }
  return out;
}

/** Every program some loading variable is run by: the units whose variables the disk looks at. */
export const RUN_BY: ReadonlySet<string> = new Set(LOADING_VARIABLES.flatMap((v) => v.runBy ?? []));
