// Commands that print secrets without naming a secret file: the environment (`env`, `printenv`,
// `set`, `export -p`, `ps e`), a variable whose name says it holds a secret (`echo $GITHUB_TOKEN`),
// and tools that print their stored credentials (`gh auth token`). Each is a "sensitive" concern:
// a rule allows it only if its condition says `sensitive`.
import { lookup } from "./lookup.ts";
import type { Concern } from "./units.ts";
import type { Arg } from "./wrappers.ts";

/** Names of variables that hold secrets: a `_`-separated part such as TOKEN, or a known name. */
const SECRET_PART =
  /(^|_)(TOKEN|TOKENS|SECRET|SECRETS|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|CREDENTIALS|APIKEY|PAT|PRIVATE|COOKIE)(_|$)|(^|_)(API|ACCESS|SECRET|PRIVATE|SESSION|AUTH|SIGNING|ENCRYPTION|MASTER|LICENSE|DEPLOY|CLIENT)_KEY(_|$)|_KEY$/i;
const SECRET_NAMES: ReadonlySet<string> = new Set([
  "DATABASE_URL",
  "REDIS_URL",
  "MONGODB_URI",
  "MONGO_URL",
  "PGPASSWORD",
  "MYSQL_PWD",
  "SSHPASS",
  "VAULT_TOKEN",
  "NETRC",
]);

export function isSecretVariable(name: string): boolean {
  return SECRET_NAMES.has(name.toUpperCase()) || SECRET_PART.test(name);
}

/**
 * Variables every shell has whose values are no secret: paths, the user, the locale, the terminal, the
 * shell's own state. Any other name may hold one (SENTRY_DSN, SLACK_WEBHOOK_URL, CI_JOB_JWT, AMQP_URL, …,
 * names no list of dangers ends), so printing it needs a person: allow only what is understood.
 */
const HARMLESS_NAMES: ReadonlySet<string> = new Set([
  ...["PATH", "HOME", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "HOSTNAME", "HOSTTYPE", "OSTYPE"],
  ...["MACHTYPE", "UID", "EUID", "PPID", "GROUPS", "SHLVL", "TERM", "COLORTERM", "COLUMNS", "LINES"],
  ...["LANG", "LANGUAGE", "TZ", "TMPDIR", "EDITOR", "VISUAL", "PAGER", "DISPLAY", "NODE_ENV", "CI"],
  ...["RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS", "EPOCHREALTIME", "BASHPID", "BASH"],
  ...["BASH_VERSION", "BASH_VERSINFO", "BASH_SOURCE", "BASH_LINENO", "BASH_REMATCH", "BASH_SUBSHELL"],
  ...["FUNCNAME", "PIPESTATUS", "REPLY", "OPTARG", "OPTIND", "OPTERR", "IFS", "DIRSTACK", "HISTCMD", "_"],
  ...["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"],
  ...["VIRTUAL_ENV", "CONDA_PREFIX", "GOPATH", "GOROOT", "JAVA_HOME", "CARGO_HOME", "RUSTUP_HOME"],
  ...["NVM_DIR", "PNPM_HOME", "npm_package_name", "npm_package_version", "npm_lifecycle_event"],
]);

export function isHarmlessVariable(name: string): boolean {
  return HARMLESS_NAMES.has(name) || name.startsWith("LC_");
}

/**
 * Why expanding the variables in `raw` may print a secret: names neither harmless nor set earlier by
 * the script itself (`for f in …`, `x=1`, `read line`), whose value then comes from the script.
 */
export function unknownExpansions(raw: string, assigned: ReadonlySet<string>, where: string): Concern[] {
  const out: Concern[] = [];
  for (const v of expandedNames(raw)) {
    if (isHarmlessVariable(v) || assigned.has(v)) continue;
    out.push({
      mention: "sensitive",
      reason: isSecretVariable(v)
        ? `${where} expands $${v}, a variable that holds a secret`
        : `${where} expands $${v}, a variable not known to be harmless (it may hold a secret)`,
    });
  }
  return out;
}

/** The variables a word expands (`$X`, `${X…}`), outside single quotes. */
export function expandedNames(raw: string): string[] {
  if (!raw.includes("$")) return [];
  const out: string[] = [];
  let dq = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === '"') dq = !dq;
    else if (c === "'" && !dq) {
      const end = raw.indexOf("'", i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === "$") {
      const m = /^\$\{?[!#]?([A-Za-z_][A-Za-z0-9_]*)/.exec(raw.slice(i));
      if (m) out.push(m[1] as string);
    }
  }
  return out;
}

/** Whether the words after the program print the whole environment (or a secret variable). */
type Dump = (args: readonly Arg[]) => boolean;

const operands = (args: readonly Arg[]) => args.filter((a) => a.value === null || !a.value.startsWith("-"));
const namesSecret = (args: readonly Arg[]) =>
  operands(args).some((a) => a.value === null || !isHarmlessVariable(a.value.split("=")[0] as string));

/** The words of a declaration builtin, an assignment of a run-time value by the name it assigns. */
function declared(args: readonly Arg[]): Arg[] {
  return args.map((a) =>
    a.value === null && a.declares !== undefined ? { ...a, value: `${a.declares}=` } : a,
  );
}

/**
 * A declaration builtin's option words and the names after them: bash reads a `+` word as options too
 * (`declare +x` prints every variable not exported), and `--` ends them.
 */
function declarationWords(args: readonly Arg[]): { options: Arg[]; names: Arg[] } {
  let i = 0;
  while (i < args.length && args[i]?.value !== "--" && /^[-+]./.test(args[i]?.value ?? "")) i++;
  return { options: args.slice(0, i), names: args.slice(args[i]?.value === "--" ? i + 1 : i) };
}

function declarationPrints(all: readonly Arg[]): boolean {
  const args = declared(all);
  const { options, names } = declarationWords(args);
  // `declare -F` (an F in any `-` cluster: `-pF`, `+x -F`) prints function names and nothing else (bash
  // 5.2); `+F` is no such option and prints every variable.
  if (options.some((a) => /^-\w*F/.test(a.value ?? ""))) return false;
  return (
    names.length === 0 ||
    (args.some((a) => a.value === null || /^[-+]\w*p/.test(a.value)) &&
      names.some((a) => a.value === null || !isHarmlessVariable(a.value.split("=")[0] as string)))
  );
}

/** Whether an `env -S` string is plain words (no `#`, `$`, quote or backslash) and one is a command. */
function splitStringRuns(text: string | null | undefined): boolean {
  if (text === null || text === undefined || !/^[A-Za-z0-9_./:@%+,= -]+$/.test(text)) return false;
  return text
    .split(" ")
    .filter((w) => w !== "")
    .some((w) => !w.startsWith("-") && !/^[^=]+=/.test(w));
}

/** Builtins and programs that print variables. */
export const ENVIRONMENT_DUMPS: Readonly<Record<string, Dump>> = {
  // `env` with a command is a wrapper (judged there); with none it prints everything.
  env: (args) => {
    for (let i = 0; i < args.length; i++) {
      const v = args[i]?.value;
      if (v === null || v === undefined) return false;
      // `-S STRING` splits STRING into the command's words: one with a plain command word runs it (env
      // -S 'cat README.md'); a string with a comment, an escape, a quote or `${VAR}` is left to count as none.
      if (/^(-S|--split-string)$/.test(v) && splitStringRuns(args[i + 1]?.value)) return false;
      if (/^(-u|--unset|-C|--chdir|-S|--split-string|-P|-a|--argv0)$/.test(v)) i++;
      else if (!v.startsWith("-") && !/^[^=]+=/.test(v)) return false;
    }
    return true;
  },
  printenv: (args) => operands(args).length === 0 || namesSecret(args),
  set: (args) => args.length === 0,
  // Every declaration builtin prints variables with their values when given no name (`readonly`,
  // `local`, `export -p`), and the names it is given with -p (`readonly X; readonly -p` prints X).
  declare: declarationPrints,
  typeset: declarationPrints,
  local: declarationPrints,
  export: declarationPrints,
  readonly: declarationPrints,
  // BSD-style `ps e`, `ps auxe`, `ps eww`: every process's environment.
  ps: (args) => args.some((a) => a.value === null || /^[A-Za-z]*e[A-Za-z]*$/.test(a.value)),
};

/**
 * npm settings whose value is no credential: `npm config get registry` prints a URL. Any other key may be
 * one (`_authToken`, `//host/:_auth`, `certfile`, a proxy URL with its password, a key of the user's own).
 */
const NPM_PLAIN_KEYS = [
  ...["registry", "@[\\w.-]+:registry", "cache", "prefix", "globalconfig", "userconfig", "init-module"],
  ...["loglevel", "tag", "save-prefix", "save-exact", "engine-strict", "ignore-scripts", "legacy-peer-deps"],
  ...["fund", "audit", "progress", "color", "node-version", "script-shell", "shell", "editor", "umask"],
  ...["strict-ssl", "omit", "include", "access", "init-license", "init-version", "lockfile-version"],
].join("|");
/** `npm config get` with no key (every setting), or with one not known to be plain. Options aside. */
const NPM_GETS_CREDENTIAL = new RegExp(`^config get(?!(?: (?:${NPM_PLAIN_KEYS}|-[-\\w=]*))+$)`);

/** Subcommands of tools that print a stored credential. */
export const CREDENTIAL_PRINTERS: Readonly<Record<string, readonly RegExp[]>> = {
  gh: [/^auth token\b/, /^auth status\b.*(\s|^)(-t|--show-token)\b/],
  glab: [/^auth status\b.*(\s|^)(-t|--show-token)\b/, /^config get token\b/],
  aws: [/^configure (get|export-credentials)\b/, /^sts get-session-token\b/, /^ecr get-login-password\b/],
  gcloud: [/^auth (application-default )?print-(access|identity)-token\b/, /^config config-helper\b/],
  az: [/^account get-access-token\b/],
  kubectl: [/^config view\b.*--raw\b/, /^create token\b/],
  docker: [/^credential\b/],
  npm: [/^token\b/, /^config (list|ls)\b/, NPM_GETS_CREDENTIAL],
  security: [/^find-(generic|internet)-password\b.*(\s|^)-[a-z]*[wg]/, /^dump-keychain\b/],
  pass: [/^(show\s|\S+$)/],
  op: [/^(read|item get|inject)\b/],
  vault: [/^(read|kv get|token lookup|print token)\b/],
  "secret-tool": [/^lookup\b/],
  heroku: [/^auth:token\b/],
  doctl: [/^auth token\b/],
  flyctl: [/^auth token\b/],
  fly: [/^auth token\b/],
  netlify: [/^status\b.*--verbose/],
  vercel: [/^env pull\b/],
};

/** What a command prints that is a secret, as concerns a rule must name `sensitive` to allow. */
export function secretOutput(name: string, argv: readonly Arg[], assigned: ReadonlySet<string>): Concern[] {
  const out: Concern[] = [];
  const args = argv.slice(1);
  for (const a of args) out.push(...unknownExpansions(a.raw, assigned, `\`${a.raw}\``));
  const dump = lookup(ENVIRONMENT_DUMPS, name);
  if (dump?.(args))
    out.push({
      mention: "sensitive",
      // Filtering the dump does not help: grep matches values as well as names (`env | grep NODE` prints
      // NODE_AUTH_TOKEN). One harmless variable by name (`printenv NODE_ENV`) runs.
      reason: `${name} prints environment variables, secrets included (a filter sees values too; \`printenv NAME\` prints one)`,
    });
  const printers = lookup(CREDENTIAL_PRINTERS, name);
  if (printers) {
    const rest = args.map((a) => a.value ?? "\u0000").join(" ");
    if (subcommandForms(args).some((form) => printers.some((re) => re.test(form))))
      out.push({ mention: "sensitive", reason: `\`${name} ${rest}\` prints a stored credential` });
  }
  return out;
}

/**
 * The words from each one that may be the subcommand on: global options and their values may come first
 * (`npm --loglevel silent config get _authToken`, `aws --profile p configure get …`), and which word takes a
 * value is the tool's to know, so every word that is no option may start it.
 */
function subcommandForms(args: readonly Arg[]): string[] {
  const words = args.map((a) => a.value ?? "\u0000");
  return words.flatMap((w, i) => (i === 0 || !w.startsWith("-") ? [words.slice(i).join(" ")] : []));
}
