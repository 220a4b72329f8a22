// Settings files whose names are everyday in some projects and the credential store in others (red team,
// round 16, r16b-07): a project's gradle.properties (signing.password, a publish token), a Maven
// settings.xml (`<server><password>`), Rails' database.yml, ASP.NET's appsettings*.json, WordPress's
// wp-config.php, MediaWiki's LocalSettings.php. Each is a secret when its text sets a credential to a
// literal value; one that reads it from the environment (`${env.X}`, `<%= ENV[...] %>`, getenv()) or leaves
// it empty is an ordinary read. The content scans (key-scan.ts) look for the file's own assignment.

export interface SecretSetting {
  /** The file names (matched against the base name) this row decides. */
  names: RegExp;
  /** A credential set to a literal value, in the file's own syntax. */
  assignment: RegExp;
}

/** A key naming a credential, inside a longer key (`signing.password`, `ossrhToken`, `ClientSecret`). */
const CREDENTIAL_KEY = "[\\w.-]*(?:password|passwd|secret|token|api[_.-]?key|credentials?)[\\w.-]*";
/** A URL with a password in it (`postgres://app:PASS@db`). */
const URL_PASSWORD = "[A-Za-z][A-Za-z0-9+.-]*://[^\\s/@:]+:[^\\s/@]+@";

export const SECRET_SETTINGS: readonly SecretSetting[] = [
  // Java properties (`key=value`, `key: value`); gradle.properties sets no value from the environment itself.
  {
    names: /^gradle\.properties$/i,
    assignment: new RegExp(`^[ \\t]*${CREDENTIAL_KEY}[ \\t]*[=:][ \\t]*\\S`, "im"),
  },
  // Maven's settings.xml (user, global or the project's `.mvn/settings.xml`): a literal password or passphrase.
  { names: /^settings\.xml$/i, assignment: /<(?:password|passphrase)>\s*(?!\$\{)[^<\s]/i },
  // Rails' database.yml: `password:` with a value that is not ERB, or a URL with a password.
  {
    names: /^database\.ya?ml$/i,
    assignment: new RegExp(`^[ \\t]*password:[ \\t]*(?!<%)[^\\s#]|${URL_PASSWORD}`, "im"),
  },
  // ASP.NET configuration, `appsettings.json` and per environment: a credential-named member with a string
  // value, or a connection string's `Password=`/`Pwd=`.
  {
    names: /^appsettings(?:\.[\w-]+)*\.json$/i,
    assignment: new RegExp(
      `"${CREDENTIAL_KEY}"\\s*:\\s*"(?!")|(?:password|pwd)\\s*=\\s*[^;"\\s]|${URL_PASSWORD}`,
      "i",
    ),
  },
  // WordPress: the database password and the authentication keys and salts, as literals.
  {
    names: /^wp-config\.php$/i,
    assignment:
      /define\s*\(\s*['"](?:DB_PASSWORD|(?:SECURE_)?AUTH_KEY|LOGGED_IN_KEY|NONCE_KEY)['"]\s*,\s*['"][^'"]/i,
  },
  // MediaWiki: the database password and the secret and upgrade keys.
  { names: /^LocalSettings\.php$/i, assignment: /\$wg(?:DBpassword|SecretKey|UpgradeKey)\s*=\s*['"][^'"]/i },
];

/** The row deciding a file of this base name, if any. */
export function secretSettingFor(name: string): SecretSetting | undefined {
  return SECRET_SETTINGS.find((s) => s.names.test(name));
}
