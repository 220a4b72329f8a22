// The variables bash itself sets or reads for its own steering, from the "Shell Variables" section of
// bash's manual (5.2, plus 5.3's additions). A loop variable of one of these names is not known in the
// loop's body: bash rewrites `_` after every simple command, `REPLY`/`MAPFILE`/`BASH_REMATCH`/`OPTARG`/
// `COPROC` are the default targets of `read`, `mapfile`, `[[ =~ ]]`, `getopts` and `coproc` written
// without a name, `LINENO`/`RANDOM`/`SECONDS`/`BASHPID`/… expand to fresh values whatever was assigned,
// and `cd` sets `PWD`/`OLDPWD`. Binding is the positive rule: only a name outside this list is bound.

const OWN_NAMES: ReadonlySet<string> = new Set([
  ...["_", "BASH", "BASHOPTS", "BASHPID", "CDPATH", "CHILD_MAX", "COLUMNS", "COMPREPLY", "COPROC"],
  ...["DIRSTACK", "EMACS", "ENV", "EPOCHREALTIME", "EPOCHSECONDS", "EUID", "EXECIGNORE", "FCEDIT"],
  ...["FIGNORE", "FUNCNAME", "FUNCNEST", "GLOBIGNORE", "GLOBSORT", "GROUPS", "HISTCMD", "HISTCONTROL"],
  ...["HISTFILE", "HISTFILESIZE", "HISTIGNORE", "HISTSIZE", "HISTTIMEFORMAT", "HOME", "HOSTFILE"],
  ...["HOSTNAME", "HOSTTYPE", "IFS", "IGNOREEOF", "INPUTRC", "INSIDE_EMACS", "LANG", "LINENO", "LINES"],
  ...["MACHTYPE", "MAIL", "MAILCHECK", "MAILPATH", "MAPFILE", "OLDPWD", "OPTARG", "OPTERR", "OPTIND"],
  ...["OSTYPE", "PATH", "PIPESTATUS", "POSIXLY_CORRECT", "PPID", "PROMPT_COMMAND", "PROMPT_DIRTRIM"],
  ...["PS0", "PS1", "PS2", "PS3", "PS4", "PWD", "RANDOM", "REPLY", "SECONDS", "SHELL", "SHELLOPTS"],
  ...["SHLVL", "SRANDOM", "TIMEFORMAT", "TMOUT", "TMPDIR", "UID", "auto_resume", "histchars"],
]);

/** Families of names bash keeps for itself (BASH_REMATCH, BASH_COMMAND, COMP_WORDS, LC_ALL, …). */
const OWN_PREFIXES = ["BASH_", "COMP_", "READLINE_", "LC_"];

/** Whether bash sets NAME itself or treats it specially, so no assignment of the script's holds. */
export function isBashOwnVariable(name: string): boolean {
  return OWN_NAMES.has(name) || OWN_PREFIXES.some((p) => name.startsWith(p));
}
