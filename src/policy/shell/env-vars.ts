// The variables that change what a program loads, runs or reads. Setting one (as a prefix
// `X=v cmd`, through `env`, `export`, `declare`, `read`, `printf -v`, a `for` loop or `${X:=v}`)
// or unsetting one makes the command need a person, unless the allowing rule names the variable.

export interface DangerousVariable {
  /** An exact name, `PREFIX*` or `*SUFFIX`. */
  pattern: string;
  why: string;
  /** Values that are known to be harmless (a plain locale, say). */
  harmless?: RegExp;
  /** Names the pattern covers that only tune output (`PYTHONUNBUFFERED`). */
  except?: readonly string[];
  /** The program matches the name in any case (npm: `Npm_Config_Userconfig` is `npm_config_userconfig`). */
  ignoreCase?: true;
}

const NO_PAGER = /^(cat|)$/;
const PLAIN_LOCALE = /^(C|POSIX|[A-Za-z]{2,3}(_[A-Za-z]{2})?)(\.(UTF-8|utf8|UTF8|utf-8))?$/;

/** A version name the *env shims look up under their own versions directory (no `/`, no list). */
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/**
 * Version managers' variables (red team, round 11): any program may be one of their shims. pyenv sources
 * every `hooks/<command>/*.bash` under PYENV_HOOK_PATH on each shim call, joins PYENV_VERSION onto its
 * versions directory unchecked (`../..` leaves it: only version files are guarded against traversal) and
 * runs that directory's program, takes its plugins and versions from PYENV_ROOT and starts its
 * version-file search in PYENV_DIR; rbenv, nodenv, jenv, plenv and phpenv are the same program (goenv is
 * under GO*). asdf and mise load plugins and configs from their directories and take `path:`/`ref:`
 * versions (a git ref is built); nvm, fnm and volta pick node's install directory and download mirror.
 * So every variable under a manager's prefix is one, but a *ENV_VERSION that is one plain version name
 * (`3.12.1`, `system`): a directory under the manager's own versions directory.
 */
const VERSION_MANAGERS: readonly DangerousVariable[] = [
  ...["PYENV", "RBENV", "NODENV", "JENV", "PLENV", "PHPENV"].flatMap((m) => [
    {
      pattern: `${m}_VERSION`,
      why: `picks the directory whose programs ${m.toLowerCase()}'s shims run`,
      harmless: VERSION_NAME,
    },
    {
      pattern: `${m}_*`,
      why: `${m.toLowerCase()}'s shims run hooks, plugins or versions from what it names`,
    },
  ]),
  ...["ASDF", "MISE", "RTX", "NVM", "FNM", "VOLTA", "SDKMAN"].map((m) => ({
    pattern: `${m}_*`,
    why: `the ${m.toLowerCase()} version manager runs plugins or versions, or reads configs, from what it names`,
  })),
];

export const DANGEROUS_VARIABLES: readonly DangerousVariable[] = [
  // The dynamic loader and libc.
  { pattern: "LD_*", why: "the dynamic loader loads the libraries it names" },
  { pattern: "DYLD_*", why: "the dynamic loader loads the libraries it names" },
  { pattern: "GLIBC_TUNABLES", why: "changes how libc behaves (and has been exploited)" },
  { pattern: "GCONV_PATH", why: "libc loads conversion modules from it" },
  { pattern: "LOCPATH", why: "libc loads locale data from it" },
  { pattern: "NLSPATH", why: "libc loads message catalogues from it" },
  { pattern: "HOSTALIASES", why: "the resolver reads the file it names" },
  // Finding commands and files.
  { pattern: "PATH", why: "decides which file runs for every command name" },
  { pattern: "CDPATH", why: "decides where `cd` goes" },
  { pattern: "HOME", why: "decides what `~` and every program's config file are" },
  { pattern: "PWD", why: "the engine reads `$PWD` as the working directory" },
  { pattern: "OLDPWD", why: "decides where `cd -` goes" },
  // Assigning an entry of DIRSTACK rewrites pushd's stack, so a later popd, `pushd +N` or `~N` goes
  // where the text does not say (red team, round 10).
  { pattern: "DIRSTACK", why: "rewrites the directory stack that popd, `pushd +N` and `~N` go to" },
  { pattern: "XDG_*", why: "decides where programs read their configuration from" },
  { pattern: "SHELL", why: "programs (make, script, editors) run it as the shell" },
  { pattern: "TMPDIR", why: "decides where programs write temporary files" },
  // The shell itself.
  { pattern: "BASH_ENV", why: "every non-interactive bash runs the file it names" },
  { pattern: "ENV", why: "sh runs the file it names" },
  { pattern: "BASH_FUNC_*", why: "an exported function replaces a command in child shells" },
  // bash's command hash table and alias table as arrays: `BASH_CMDS[ls]=./x; ls` runs ./x.
  { pattern: "BASH_CMDS", why: "is bash's command table: a name in it runs the file it maps to" },
  { pattern: "BASH_ALIASES", why: "defines aliases, which replace command names" },
  { pattern: "BASH_ARGV0", why: "sets `$0`, which a later word may run" },
  { pattern: "EXECIGNORE", why: "hides programs from the PATH search, so another directory's program runs" },
  // `$"…"` is looked up in TEXTDOMAIN's catalogue under TEXTDOMAINDIR and the translation expanded as a
  // double-quoted string (bash 5.2's default, without `shopt -s noexpand_translation`).
  { pattern: "TEXTDOMAIN", why: 'picks the message catalogue whose translations of `$"…"` bash expands' },
  { pattern: "TEXTDOMAINDIR", why: 'picks the message catalogue whose translations of `$"…"` bash expands' },
  { pattern: "BASH_LOADABLES_PATH", why: "`enable -f` loads builtins from it" },
  { pattern: "BASH_XTRACEFD", why: "redirects the trace output to another file" },
  { pattern: "BASH_COMPAT", why: "changes how bash parses and runs later lines" },
  { pattern: "SHELLOPTS", why: "turns on shell options in child shells" },
  { pattern: "BASHOPTS", why: "turns on shell options in child shells" },
  { pattern: "POSIXLY_CORRECT", why: "changes how bash and GNU tools read their arguments" },
  { pattern: "IFS", why: "decides how bash splits words" },
  { pattern: "PS4", why: "is expanded (and its substitutions run) on every traced command" },
  { pattern: "PS1", why: "is expanded as a prompt" },
  { pattern: "PROMPT_COMMAND", why: "runs before every prompt" },
  { pattern: "GLOBIGNORE", why: "changes which files a glob matches" },
  { pattern: "HISTFILE", why: "decides which file the history builtin reads and writes" },
  { pattern: "INPUTRC", why: "readline reads the file it names" },
  { pattern: "ZDOTDIR", why: "zsh runs the startup files in it" },
  { pattern: "FPATH", why: "zsh loads functions from it" },
  { pattern: "FCEDIT", why: "`fc` runs it as the editor" },
  { pattern: "TERMINFO*", why: "programs load terminal descriptions from it" },
  { pattern: "LANG", why: "a multi-byte locale changes how text is parsed", harmless: PLAIN_LOCALE },
  { pattern: "LC_*", why: "a multi-byte locale changes how text is parsed", harmless: PLAIN_LOCALE },
  // Git, pagers, editors, helpers that run programs.
  { pattern: "GIT_PAGER", why: "runs as git's pager", harmless: NO_PAGER },
  {
    pattern: "GIT_*",
    why: "git runs, loads or reads what it names (config, pager, ssh, diff, hooks)",
    except: [
      ...["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME"],
      ...["GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS"],
    ],
  },
  { pattern: "PAGER", why: "runs as the pager", harmless: NO_PAGER },
  { pattern: "*_PAGER", why: "runs as the pager", harmless: NO_PAGER },
  { pattern: "MANPAGER", why: "runs as the pager", harmless: NO_PAGER },
  { pattern: "MANOPT", why: "adds options (such as a pager) to man" },
  { pattern: "MANPATH", why: "is where man finds pages, whose `.so` includes any file" },
  { pattern: "MANROFF*", why: "adds options and preprocessors to the groff man runs" },
  { pattern: "GROFF_*", why: "groff reads macro and font files from it" },
  { pattern: "MAN_DISABLE_SECCOMP", why: "lifts man's sandbox around the programs that parse pages" },
  { pattern: "LESS*", why: "less runs LESSOPEN/LESSCLOSE and reads its key files" },
  { pattern: "MORE", why: "adds options to more" },
  { pattern: "EDITOR", why: "runs as the editor" },
  { pattern: "VISUAL", why: "runs as the editor" },
  { pattern: "*_EDITOR", why: "runs as the editor" },
  { pattern: "BROWSER", why: "runs as the browser" },
  { pattern: "*ASKPASS*", why: "runs to ask for a password" },
  { pattern: "SSH_*", why: "ssh reads agents, configs and commands from it" },
  { pattern: "RIPGREP_CONFIG_PATH", why: "rg reads options (such as --pre) from the file" },
  { pattern: "GREP_OPTIONS", why: "adds options to grep" },
  { pattern: "PS_PERSONALITY", why: "changes how ps reads its options (as BSD, an e prints environments)" },
  { pattern: "CMD_ENV", why: "changes how ps reads its options (as BSD, an e prints environments)" },
  { pattern: "LSB_OS_RELEASE", why: "lsb_release runs the file it names as shell code" },
  { pattern: "TAR_OPTIONS", why: "adds options (such as --to-command) to tar" },
  { pattern: "GZIP", why: "adds options to gzip" },
  { pattern: "BC_ENV_ARGS", why: "adds files to bc, which runs them and prints their numbers" },
  { pattern: "ZIPOPT", why: "adds options to zip (-TT runs a command to test the archive)" },
  { pattern: "SHELLCHECK_OPTS", why: "adds options to shellcheck (-a prints the files scripts source)" },
  { pattern: "XZ_OPT", why: "adds options to xz" },
  { pattern: "ZSTD_*", why: "adds options to zstd" },
  { pattern: "BZIP2", why: "adds options to bzip2" },
  { pattern: "WGETRC", why: "wget reads commands from the file" },
  { pattern: "CURL_HOME", why: "curl reads a config file from it" },
  // curl and most HTTP clients send every request through the proxy these name (round 22: a loopback GET).
  ...["http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy"].map((pattern) => ({
    pattern,
    why: "sends requests through the proxy it names, off this machine",
    ignoreCase: true as const,
  })),
  { pattern: "SSLKEYLOGFILE", why: "curl and TLS libraries write session keys to the file" },
  { pattern: "OPENSSL_*", why: "OpenSSL loads config and engines from it" },
  // git runs gpg to verify a signature (`%G?` in a format, --show-signature): gpg reads gpg.conf from
  // GNUPGHOME and starts the agent and dirmngr programs it names (red team, round 12).
  {
    pattern: "GNUPGHOME",
    why: "gpg (which git runs to verify signatures) reads its config and programs from it",
  },
  { pattern: "FZF_*", why: "fzf runs the commands it names" },
  { pattern: "PARALLEL*", why: "GNU parallel runs or reads what it names" },
  { pattern: "MAKE*", why: "adds options and variables to make" },
  { pattern: "CC", why: "build tools run it as the compiler" },
  { pattern: "CXX", why: "build tools run it as the compiler" },
  { pattern: "CPP", why: "build tools run it as the preprocessor" },
  // gcc(1): where it finds cc1, as and collect2 first; cgo's flags reach gcc (`-B` is the same search).
  { pattern: "COMPILER_PATH", why: "gcc runs its subprograms (as, cc1) from it first" },
  { pattern: "GCC_EXEC_PREFIX", why: "gcc runs its subprograms (as, cc1) from it first" },
  {
    pattern: "CGO_*",
    why: "go passes it to the C compiler (a `-B` runs subprograms from a directory)",
    except: ["CGO_ENABLED"],
  },
  // Interpreters and package managers.
  { pattern: "NODE_OPTIONS", why: "node loads the modules and options it names" },
  { pattern: "NODE_PATH", why: "node resolves modules from it" },
  { pattern: "NODE_REPL_*", why: "node's REPL reads it" },
  {
    // NODE_V8_COVERAGE and NODE_REDIRECT_WARNINGS write files where they say, NODE_EXTRA_CA_CERTS and
    // NODE_ICU_DATA read or load them (red team, round 8).
    pattern: "NODE_*",
    why: "node reads, loads or writes the files it names",
    except: ["NODE_ENV", "NODE_NO_WARNINGS", "NODE_PENDING_DEPRECATION"],
  },
  // libmount (findmnt, mount) reads its tables from the files these name and prints their fields.
  { pattern: "LIBMOUNT_*", why: "findmnt and mount read and print the table file it names" },
  { pattern: "DPKG_*", why: "dpkg-query reads the database, root and pager it names" },
  {
    pattern: "APT_CONFIG",
    why: "apt reads its configuration (which can name the programs it runs) from the file",
  },
  { pattern: "MAGIC", why: "file reads its magic database from it and prints the lines it cannot parse" },
  { pattern: "RUSTUP_*", why: "rustup picks the toolchain (any directory's programs) from it" },
  ...VERSION_MANAGERS,
  {
    pattern: "PYTHON*",
    why: "python runs, loads or reads what it names",
    except: [
      "PYTHONUNBUFFERED",
      "PYTHONDONTWRITEBYTECODE",
      "PYTHONHASHSEED",
      "PYTHONIOENCODING",
      "PYTHONUTF8",
    ],
  },
  { pattern: "PERL*", why: "perl loads the modules and options it names" },
  { pattern: "RUBY*", why: "ruby loads the modules and options it names" },
  { pattern: "GEM_*", why: "ruby loads gems from it" },
  { pattern: "BUNDLE_*", why: "bundler reads its configuration from it" },
  { pattern: "JAVA_TOOL_OPTIONS", why: "every JVM loads the agents it names" },
  { pattern: "_JAVA_OPTIONS", why: "every JVM loads the agents it names" },
  { pattern: "JDK_JAVA_OPTIONS", why: "java loads the agents it names" },
  { pattern: "*_OPTS", why: "adds options (such as agents) to a launcher" },
  { pattern: "CLASSPATH", why: "java loads classes from it" },
  { pattern: "PHPRC", why: "php reads its configuration from it" },
  { pattern: "PHP_INI_SCAN_DIR", why: "php reads its configuration from it" },
  { pattern: "LUA_*", why: "lua runs or loads what it names" },
  { pattern: "RUSTC_WRAPPER", why: "cargo runs it in place of rustc" },
  { pattern: "RUSTC", why: "cargo runs it as the compiler" },
  { pattern: "RUSTFLAGS", why: "adds options to the compiler" },
  { pattern: "CARGO_*", why: "cargo runs or reads what it names" },
  { pattern: "GOFLAGS", why: "adds options to go" },
  // A go release named here (or `auto` with a newer go.mod) is downloaded and run (red team, round 8);
  // GOROOT, GOPROXY, GOENV, GOWORK, … pick the toolchain, the module host, the config and the modules.
  { pattern: "GOTOOLCHAIN", why: "go downloads and runs the toolchain it names" },
  {
    pattern: "GO*",
    why: "go reads its toolchain, configuration, module host or modules from it",
    except: ["GOOS", "GOARCH", "GOAMD64", "GOARM", "GOMAXPROCS", "GOGC", "GOTRACEBACK"],
  },
  // pytest imports the plugins PYTEST_PLUGINS names, and PYTEST_ADDOPTS adds options (`-p MODULE`).
  {
    pattern: "PYTEST_*",
    why: "pytest imports the plugins (and takes the options) it names",
    except: ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"],
  },
  // GNU tar takes its default archive from TAPE: a host:path one makes it run a remote shell (red team,
  // round 8), and any other names a file it reads.
  { pattern: "TAPE", why: "tar opens the archive it names (a host:path one over a remote shell)" },
  // npm (and pnpm, through npm-conf) take every variable matching /^npm_config_/i, and yarn (1 and berry)
  // every one whose lower-cased name starts with `yarn_` (red team, round 11: `Npm_Config_Userconfig=FILE
  // npm ls` prints FILE's lines). git, node, python, pip, cargo, uv and go read their names as written.
  { pattern: "npm_config_*", why: "npm reads options (such as script-shell) from it", ignoreCase: true },
  { pattern: "YARN_*", why: "yarn reads its configuration from it", ignoreCase: true },
  { pattern: "PNPM_*", why: "pnpm reads its configuration from it" },
  { pattern: "PIP_*", why: "pip reads options (such as an index URL) from it" },
  { pattern: "UV_*", why: "uv reads its configuration from it" },
  { pattern: "CONDARC", why: "conda reads its configuration (channels) from the file" },
  { pattern: "DOCKER_*", why: "docker talks to the daemon or reads the config it names" },
  { pattern: "KUBECONFIG", why: "kubectl reads credentials from the file" },
  // Found missing by the table of variables naming loaded paths (env-loads.ts, round 15).
  { pattern: "GRADLE_USER_HOME", why: "gradle runs the init scripts in the directory" },
  { pattern: "AWS_CONFIG_FILE", why: "the AWS CLI runs the credential_process the file names" },
  { pattern: "AIRLOCK_*", why: "changes how Airlock itself behaves" },
  // The coding agents' configuration homes (env-loads.ts, round 16): their hooks and MCP servers run.
  { pattern: "CLAUDE_CONFIG_DIR", why: "Claude Code runs the hooks of the settings in it" },
  { pattern: "CODEX_HOME", why: "Codex runs the hooks and MCP servers of the config in it" },
  { pattern: "OPENCODE_CONFIG*", why: "OpenCode loads the config and plugins it names" },
  { pattern: "PI_CODING_AGENT_DIR", why: "Pi loads the extensions in it" },
  { pattern: "COPILOT_HOME", why: "Copilot CLI runs the hooks in it" },
  {
    pattern: "GEMINI_CLI_*",
    why: "Gemini CLI reads its settings, hooks or trusted folders from what it names",
  },
];

interface Compiled {
  test: (name: string) => boolean;
  entry: DangerousVariable;
}

const COMPILED: readonly Compiled[] = DANGEROUS_VARIABLES.map((entry) => {
  if (entry.ignoreCase) {
    const p = entry.pattern.toLowerCase();
    const prefix = p.endsWith("*") ? p.slice(0, -1) : null;
    return {
      entry,
      test: (n) => (prefix === null ? n.toLowerCase() === p : n.toLowerCase().startsWith(prefix)),
    };
  }
  const p = entry.pattern;
  if (p.startsWith("*") && p.endsWith("*") && p.length > 2) {
    const mid = p.slice(1, -1);
    return { entry, test: (n) => n.includes(mid) };
  }
  if (p.endsWith("*")) {
    const prefix = p.slice(0, -1);
    return { entry, test: (n) => n.startsWith(prefix) };
  }
  if (p.startsWith("*")) {
    const suffix = p.slice(1);
    return { entry, test: (n) => n.endsWith(suffix) };
  }
  return { entry, test: (n) => n === p };
});

/**
 * Why setting `name` (to `value`, when known) changes what programs load, run or read; null when
 * it does not. Names are matched as bash compares them (case-sensitive).
 */
export function dangerousVariable(name: string, value: string | null = null): string | null {
  for (const c of COMPILED) {
    if (!c.test(name)) continue;
    if (c.entry.except?.includes(name)) continue;
    if (c.entry.harmless && value !== null && c.entry.harmless.test(value)) return null;
    return `${name} ${c.entry.why}`;
  }
  return null;
}
