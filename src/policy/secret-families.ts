// The secret denylist as one table of families: each family names the kind of secret, why its files
// are never read or served without a person, and the path patterns that find it. secret-paths.ts
// compiles the patterns; explain and the phone card name the family.

import { holdsCredentialShape } from "./credential-shapes.ts";
import { encodedPrivateKey } from "./key-encodings.ts";
import type { SecretSetting } from "./secret-settings.ts";
import { ROUND16_FAMILIES, ROUND16_HISTORIES } from "./secret-stores-r16.ts";

export interface SecretFamily {
  family: string;
  /** Why these files are secrets, in a few words a person reads on the phone card. */
  why: string;
  /**
   * A bare name matches that file name anywhere; `name*`/`*.ext` are file-name globs; a trailing `/`
   * matches a directory (or `a/b/` a directory path) anywhere in the path; a pattern with an inner
   * `/` matches that path suffix.
   */
  patterns: readonly string[];
}

export const SECRET_FAMILIES: readonly SecretFamily[] = [
  {
    family: "dotenv",
    why: "environment files hold API keys and database passwords",
    // `.env*` includes direnv's `.envrc`: it is a shell script that usually exports tokens, and
    // reading it asks (a rule naming `sensitive` can allow it). `.envs/` is cookiecutter's folder.
    patterns: [".env", ".env*", "*.env", "*.env.*", ".envs/", ".dev.vars", ".dev.vars.*"],
  },
  {
    family: "cloud CLI credentials",
    why: "cloud command-line tools keep long-lived account keys here",
    patterns: [
      ".aws/",
      ".azure/",
      ".config/gcloud/",
      ".config/doctl/",
      ".config/hcloud/",
      ".config/scw/",
      ".config/linode-cli",
      ".oci/",
      ".bluemix/",
      ".fly/",
      ".config/.wrangler/",
      ".wrangler/config/",
      ".terraform.d/credentials.tfrc.json",
      ".terraformrc",
      ".s3cfg",
      ".boto",
      ".vault-token",
    ],
  },
  {
    family: "infrastructure state and variables",
    why: "Terraform variables and state carry provider credentials in clear",
    patterns: ["*.tfvars", "*.tfvars.json", "terraform.tfstate*", "*.tfstate", "*.tfstate.backup"],
  },
  {
    family: "cluster and registry configuration",
    why: "kube, docker and forge CLIs store access tokens in their configuration",
    patterns: [
      ".kube/",
      "kubeconfig",
      "*.kubeconfig",
      ".docker/config.json",
      ".dockercfg",
      ".config/gh/hosts.yml",
      ".config/hub",
      ".config/glab-cli/",
    ],
  },
  {
    family: "package registry tokens",
    why: "registry configuration files hold publish tokens",
    patterns: [
      ".npmrc",
      ".pypirc",
      ".yarnrc",
      // yarn berry's npmAuthToken, bun's scope tokens, pip's index-url with a password, NuGet's
      // ClearTextPassword, poetry's store, conda's channel tokens, sentry-cli's auth token (red team,
      // round 12): by name, with or without a token, as .npmrc is.
      ".yarnrc.yml",
      "bunfig.toml",
      ".bunfig.toml",
      "pip.conf",
      "pip.ini",
      "nuget.config",
      ".config/pypoetry/auth.toml",
      ".condarc",
      ".sentryclirc",
      ".gem/credentials",
      ".cargo/credentials",
      ".cargo/credentials.toml",
    ],
  },
  {
    family: "SSH and signing keys",
    why: "private keys grant access to servers and signing identities",
    patterns: [
      ".ssh/",
      ".gnupg/",
      "id_rsa*",
      "id_dsa*",
      "id_ecdsa*",
      "id_ed25519*",
      "id_xmss*",
      "*.pem",
      "*.key",
      "*.p12",
      "*.pfx",
      "*.ppk",
      "*.jks",
      "*.keystore",
    ],
  },
  {
    family: "login credentials",
    why: "these files hold passwords or tokens for other services",
    patterns: [
      ".netrc",
      "_netrc",
      // Kerberos ticket caches (/tmp/krb5cc_UID): a ticket logs in as the user until it expires.
      "krb5cc*",
      ".pgpass",
      ".my.cnf",
      ".git-credentials",
      ".htpasswd",
      ".credentials*",
      "credentials*",
      "auth.json",
      "models.json",
      "secrets/",
      "secrets.*",
      // A name with `secret(s)` as a dotted part is a secret by convention (config.secret.js,
      // values.secrets.yaml, app.secret), as `.env` is for dotenv (red team, round 4).
      "secret.*",
      "*.secret",
      "*.secret.*",
      "*.secrets",
      "*.secrets.*",
      ".password-store/",
      ".airlock/",
      // Ansible's vault password file decrypts every vaulted value of the repository (red team, round 14).
      ".vault_pass*",
      "vault_pass*",
      ".vault-pass*",
      "vault-pass*",
      ".vault_password*",
      "vault_password*",
      ".vault-password*",
      "vault-password*",
      // Editors' deploy targets keep FTP/SFTP passwords in clear: VS Code's SFTP, Sublime SFTP, Atom's
      // remote-ftp and remote-sync, FileZilla's site manager.
      ".vscode/sftp.json",
      "sftp-config.json",
      ".ftpconfig",
      ".remote-sync.json",
      "filezilla/sitemanager.xml",
      "filezilla/recentservers.xml",
    ],
  },
  {
    family: "browser session state",
    // Playwright's `storageState` (its auth setup writes playwright/.auth/*.json): a logged-in session's
    // cookies and localStorage tokens, enough to act as the user (red team, round 14).
    why: "a saved browser login holds session cookies and tokens that act as you",
    patterns: [
      "playwright/.auth/",
      ".auth/",
      "storageState.json",
      "storage-state.json",
      "storage_state.json",
      "*.storageState.json",
    ],
  },
  {
    family: "repository configuration",
    // CI checkouts keep a token in the repository's configuration (http.*.extraheader, remote URLs).
    why: "a checkout's git configuration can carry a CI token",
    // A submodule's repository (.git/modules/NAME, NAME may hold slashes, submodules nest) and a
    // worktree's own configuration (extensions.worktreeConfig) hold the same; four levels of NAME.
    patterns: [
      ".git/config",
      ".git/modules/*/config",
      ".git/modules/*/*/config",
      ".git/modules/*/*/*/config",
      ".git/modules/*/*/*/*/config",
      "config.worktree",
      // Mercurial's and Sapling's repository configuration: remote URLs as cloned (`user:pass@`) and the
      // `[auth]` section's plain-text passwords (red team, round 14).
      ".hg/hgrc",
      ".hg/hgrc-not-shared",
      ".sl/config",
    ],
  },
  {
    family: "application and service tokens",
    // Well-known stores under innocent names (red team, round 3): OAuth token caches, client secrets,
    // Azure Functions settings, Copilot and Hugging Face logins, rclone, Maven, Gradle, Kaggle, ngrok,
    // Databricks, Stripe, age/sops keys, browser password stores.
    why: "these files hold OAuth, API or storage tokens for other services",
    patterns: [
      "token.json",
      "client_secret*.json",
      "local.settings.json",
      "service-account*.json",
      ".config/github-copilot/",
      ".cache/huggingface/token",
      ".huggingface/token",
      ".config/rclone/",
      "rclone.conf",
      ".m2/settings.xml",
      ".m2/settings-security.xml",
      ".gradle/gradle.properties",
      ".kaggle/",
      "kaggle.json",
      ".config/stripe/",
      "ngrok.yml",
      ".config/ngrok/",
      ".databrickscfg",
      ".config/sops/",
      "logins.json",
      "key4.db",
    ],
  },
  {
    family: "mail, file-share and CLI logins",
    // Red team, round 15 (r15b-01): stores under names no other family finds, each where its tool's docs
    // put it. Gemini CLI's OAuth tokens; Emacs auth-source's `.authinfo(.gpg)` (a netrc); Bundler's
    // `BUNDLE_<HOST>` registry credentials (the project's `.bundle/config` and ~/.bundle/config); msmtp's
    // and fetchmail's mail passwords; mount.cifs's `credentials=` file by its customary name; s3fs's key
    // pair; JFrog CLI's server tokens and master key; MinIO client's aliases (`mc`, packaged as `mcli`);
    // firebase-tools' refresh token (configstore); Helm's repository passwords and registry logins (XDG
    // and macOS homes); 1Password CLI's accounts; tea's Gitea tokens; CircleCI CLI's token (not the
    // project's `.circleci/config.yml`); Netlify CLI's tokens (old and XDG homes, not the project's
    // `.netlify/state.json`); Expo's session; lftp's bookmarks (passwords kept in the URL); irssi's server
    // and SASL passwords.
    why: "these files hold mail, file-share or command-line tool logins",
    patterns: [
      ".gemini/oauth_creds.json",
      ".authinfo",
      ".authinfo.gpg",
      ".bundle/config",
      ".msmtprc",
      "msmtp/config",
      ".fetchmailrc",
      ".smbcredentials",
      ".passwd-s3fs",
      "passwd-s3fs",
      ".jfrog/jfrog-cli.conf*",
      ".jfrog/security/",
      ".mc/config.json",
      ".mcli/config.json",
      "configstore/firebase-tools.json",
      "helm/repositories.yaml",
      "helm/registry/config.json",
      ".config/op/",
      ".op/",
      ".config/tea/",
      ".circleci/cli.yml",
      ".netlify/config.json",
      ".config/netlify/",
      ".expo/state.json",
      ".lftp/bookmarks",
      "lftp/bookmarks",
      ".irssi/config",
    ],
  },
  {
    family: "process environment and history",
    // /proc/<pid>/environ holds a process's tokens; histories hold what was typed, passwords included.
    why: "process environments and shell histories hold typed or exported secrets",
    patterns: ["environ", ".*_history", ...ROUND16_HISTORIES],
  },
  ...ROUND16_FAMILIES,
];

/** The family a pattern belongs to (first wins). */
export function familyOfPattern(pattern: string): SecretFamily | undefined {
  return SECRET_FAMILIES.find((f) => f.patterns.includes(pattern));
}

// A private key in PEM or OpenSSH form, or an armored PGP secret key, whatever the file is named; a
// PuTTY key file (`PuTTY-User-Key-File-2:`/`-3:`, its private lines in the same file); a JSON Web Key
// with a private member (`"d"` of RSA/EC/OKP keys, `"k"` of a symmetric one) beside its `"kty"`; an age
// (and sops) identity, `AGE-SECRET-KEY-1…`.
const PRIVATE_KEY_HEADER =
  /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----|PuTTY-User-Key-File-\d+:|AGE-SECRET-KEY-1[0-9A-Z]/;
// A WireGuard configuration's own key (wg(8) CONFIGURATION FILE FORMAT: `PrivateKey` and `PresharedKey`, a
// base64 32-byte key): `wg0.conf` under any name, in the project or /etc/wireguard (red team, round 16).
const WIREGUARD_KEY = /^[ \t]*(?:PrivateKey|PresharedKey)[ \t]*=[ \t]*[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=/im;
const JWK_TYPE = /"kty"\s*:\s*"/;
const JWK_PRIVATE = /"(d|k|p|q|dp|dq|qi)"\s*:\s*"[A-Za-z0-9_-]/;

/**
 * A file a call reads by name is scanned for a private key up to this size (in chunks, so a key after a
 * long preamble is found); a bigger one asks, as nothing below the bound says what it holds.
 */
export const KEY_SCAN_MAX_BYTES = 16 * 1024 * 1024;
/** Consecutive chunks of a scan share this many bytes, so a key header split between two is seen whole. */
export const KEY_SCAN_OVERLAP = 4 * 1024;

const pemHeader = (t: string) => PRIVATE_KEY_HEADER.test(t);

/**
 * True when text holds a private key (a PEM/OpenSSH/PGP header, a PuTTY key file, a private JWK), also
 * in UTF-16, in base64 or as DER (key-encodings.ts).
 */
export function holdsPrivateKey(text: string): boolean {
  if (PRIVATE_KEY_HEADER.test(text) || WIREGUARD_KEY.test(text) || encodedPrivateKey(text, true, pemHeader))
    return true;
  return JWK_TYPE.test(text) && JWK_PRIVATE.test(text);
}

/**
 * A URL with a password, or any user-info on http(s). Git writes the URL a fetch or pull was given into
 * the reflog as typed (it strips it only from merge messages), and keeps remote URLs as written in its
 * configuration and in the legacy `.git/remotes/*` and `.git/branches/*` files. Elsewhere (docs,
 * examples) such URLs are common and not looked for; in git's own files they are the credential.
 */
export const URL_CREDENTIAL = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/@:]+:[^\s/@]+@|https?:\/\/[^\s/@]+@/i;

/**
 * A file of a git directory whose text git writes from what it was given (reflogs, FETCH_HEAD, the
 * legacy remote files, messages being edited, lost-found): any `.git/` path but the object database,
 * whose files are compressed. Such a file is scanned for URL_CREDENTIAL too (red team, round 10).
 */
export function isGitMetadataPath(path: string): boolean {
  return /(^|\/)\.git\/(?!objects\/)/.test(path);
}

/**
 * True when text holds a credential by its shape (credential-shapes.ts: a vendor's published token
 * format, or a signed JWT), found by content wherever it sits (a key committed in config.js), like a
 * private key.
 */
export function holdsCredential(text: string): boolean {
  return holdsCredentialShape(text);
}

/**
 * The same test over a file read in chunks (private keys and credential shapes): a header is found within a chunk (chunks overlap), and a
 * JWK's `"kty"` and its private member count wherever in the file each sits, so a big key object split
 * between two chunks is still found (at the price of asking for a file with both in unrelated places).
 */
export class PrivateKeyScan {
  private kty = false;
  private member = false;
  private started = false;
  private readonly urls: boolean;
  private readonly setting: SecretSetting | undefined;
  /**
   * `urls`: a URL with a password counts too (git's own files, see URL_CREDENTIAL); `setting`: the file's
   * name makes a literal credential assignment count (secret-settings.ts).
   */
  constructor(urls = false, setting?: SecretSetting) {
    this.urls = urls;
    this.setting = setting;
  }
  /** Feeds the next chunk (the first one starts the file); true once the file is known to hold a private key. */
  feed(text: string): boolean {
    const atStart = !this.started;
    this.started = true;
    if (PRIVATE_KEY_HEADER.test(text) || WIREGUARD_KEY.test(text) || holdsCredentialShape(text)) return true;
    if (this.urls && URL_CREDENTIAL.test(text)) return true;
    if (this.setting?.assignment.test(text) === true) return true;
    if (encodedPrivateKey(text, atStart, pemHeader)) return true;
    this.kty ||= JWK_TYPE.test(text);
    this.member ||= JWK_PRIVATE.test(text);
    return this.kty && this.member;
  }
}
