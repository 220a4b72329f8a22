// The environment variables whose value names a path a program loads code or configuration from, each
// decided from the program's own documentation (red team, round 15: BASH_ENV, GIT_CONFIG_GLOBAL,
// XDG_CONFIG_HOME and LD_LIBRARY_PATH in the agent's environment named workspace files, so an ordinary
// write there ran code in every later call). Setting one in a command is a dangerous variable
// (shell/env-vars.ts); this table is about the values the agent's environment already holds: the paths
// they name are protected writes, and for some the value alone makes every shell call run what is there.

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
   * The only names the program loads from below the directories (a name without a dot may be a directory
   * holding them); a write of any other name there is not loaded. Absent: anything there may be.
   */
  imports?: RegExp;
}

const COLONS = /:/;

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
  { name: "GIT_EXEC_PATH", loads: "git runs its subcommands (`git-*`) from the directory" },
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
  // Gradle's init.d scripts; kubectl's exec credential plugins; the AWS CLI's credential_process;
  // docker's credential helpers.
  { name: "GRADLE_USER_HOME", loads: "gradle runs the init scripts in the directory" },
  { name: "KUBECONFIG", loads: "kubectl runs the credential plugins the files name", list: COLONS },
  { name: "AWS_CONFIG_FILE", loads: "the AWS CLI runs the credential_process the file names" },
  { name: "DOCKER_CONFIG", loads: "docker runs the credential helpers its config.json names" },
];

/** One path the agent's environment names through a loading variable; `path` null: relative to where a program runs. */
export interface LoadedPath {
  variable: LoadingVariable;
  /** The environment's own spelling of the name (npm's any case). */
  name: string;
  /** The entry as the value has it. */
  entry: string;
  path: string | null;
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

/**
 * Every path the environment's loading variables name. A relative entry (and an empty one in a list, which
 * the programs read as the working directory) names a path below wherever the program runs: `path` null.
 */
export function loadedPaths(env: NodeJS.ProcessEnv): LoadedPath[] {
  const out: LoadedPath[] = [];
  for (const [name, value] of Object.entries(env)) {
    const variable = value === undefined || value === "" ? undefined : variableOf(name);
    if (variable === undefined) continue;
    const entries = variable.list === undefined ? [value as string] : (value as string).split(variable.list);
    for (const entry of entries)
      if (!librarySearched(variable, entry))
        out.push({ variable, name, entry, path: entry.startsWith("/") ? entry : null });
  }
  return out;
}
