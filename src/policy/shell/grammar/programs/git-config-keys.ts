// Configuration keys whose value is a URL (a remote's fetch and push URLs, a proxy): a credential in one
// sits in its user-info, which the companion can see on disk (guards/git-contents.ts checks every file
// git reads its configuration from, as for `git remote -v`), so `git config --get remote.origin.url` is
// judged like `git remote -v`, not as a read of the whole configuration. Sections and variable names are
// case-insensitive to git; a subsection (the remote's name) may hold dots.
const URL_KEY = /^(remote\..+\.(url|pushurl|proxy)|https?\.(.+\.)?proxy)$/i;

export function isUrlConfigKey(key: string): boolean {
  return URL_KEY.test(key);
}

/** A key whose value is a secret by its name (`http.*.extraheader`, `github.token`, `sendemail.smtpPass`). */
export const CREDENTIAL_KEY =
  /header|token|pass|secret|auth|cookie|credential|bearer|session|api-?key|private/i;

/**
 * A `--get-regexp` pattern read here as git reads it: letters, digits, `-`, `_`, `.` (any character) and `\.`,
 * optionally anchored with `^` and `$`, on which POSIX extended and JavaScript regular expressions agree.
 * Null for any other pattern.
 */
export function simpleKeyPattern(pattern: string): RegExp | null {
  return /^\^?([A-Za-z0-9._-]|\\\.)*\$?$/.test(pattern) ? new RegExp(pattern) : null;
}

/**
 * Keys of every kind that holds a credential, with a one-letter subsection: a pattern matching one of them
 * can print a credential whatever the configuration holds (`.`, `url`, `^http`); one matching none prints
 * only keys the disk then looks at (a remote named `alias` is `remote.alias.url`: guards/git-contents.ts).
 */
const CREDENTIAL_KEYS = [
  ...["remote.x.url", "remote.x.pushurl", "remote.x.proxy", "http.proxy", "http.x.proxy", "https.proxy"],
  ...["http.extraheader", "http.x.extraheader", "credential.helper", "credential.x.helper"],
  ...["credential.username", "credential.x.username", "url.x.insteadof", "url.x.pushinsteadof"],
  ...["submodule.x.url", "github.token", "hub.oauthtoken", "sendemail.smtppass", "x.password", "x.secret"],
];

/** Whether `git config --get-regexp PATTERN` can print a credential by the keys alone. */
export function patternMayPrintCredential(pattern: string | null): boolean {
  const re = pattern === null ? null : simpleKeyPattern(pattern);
  return re === null || CREDENTIAL_KEYS.some((k) => re.test(k));
}

// Settings a command line may give git for one run (`git -c color.ui=never log -1`) that only change how it
// prints: colours, quoting of names, decorations, columns. Their values are plain words git compares with
// its own list (never a program: not `core.pager`, `pager.*`, `diff.external`, `core.fsmonitor`, `alias.*`,
// `log.showSignature`, which starts gpg). Any other key, or another value, keeps `-c` not understood.
const DISPLAY_KEY =
  /^(color\.(ui|diff|status|branch|grep|showbranch|decorate|advice|push|remote|transport|pager)|core\.quotepath|log\.decorate|log\.abbrevcommit|diff\.noprefix|diff\.mnemonicprefix|column\.ui|advice\.[a-z]+)$/i;
const DISPLAY_VALUE = /^(true|false|yes|no|on|off|1|0|always|never|auto|short|full)$/i;

/** Whether `-c KEY=VALUE` only changes how git prints (the word after `-c`). */
export function isDisplayConfig(assignment: string): boolean {
  const eq = assignment.indexOf("=");
  if (eq <= 0) return false;
  return DISPLAY_KEY.test(assignment.slice(0, eq)) && DISPLAY_VALUE.test(assignment.slice(eq + 1));
}
