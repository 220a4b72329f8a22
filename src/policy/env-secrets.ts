// The environment variables whose value moves a credential store (red team, round 16, r16b-11: with
// KUBECONFIG=$WS/tools/kube.yaml, HF_HOME=$WS/tools/hf or XDG_CONFIG_HOME=$WS/xdg in the agent's
// environment, `cat tools/kube.yaml` printed a bearer token the families know only as `~/.kube/config`).
// Each row names where the store sits by default, spelled under HOME as the secret families know it: a
// file read at the variable's value is judged as that file, and one below a directory's value as the same
// path below the default directory. env-loads.ts is the write side (variables naming code that runs).
import { normalizePath } from "./paths.ts";
import { isDenylistedPath } from "./secret-paths.ts";

export interface CredentialVariable {
  name: string;
  /** The store by default, relative to HOME: a file, or a directory (a trailing `/`). */
  standsFor: string;
  /** A file below a directory store that holds the credential (tests, and the reason a person reads). */
  holds?: string;
  /** The value is a list of paths split at these characters (KUBECONFIG, at colons). */
  list?: RegExp;
  /** The program matches the name in any case (npm's `npm_config_userconfig`). */
  ignoreCase?: true;
}

export const CREDENTIAL_VARIABLES: readonly CredentialVariable[] = [
  // kubectl's kubeconfig (a colon list); the AWS CLI's and SDKs' two files (boto's too); gcloud's
  // configuration directory and the SDKs' application default credentials; the Azure CLI's directory.
  { name: "KUBECONFIG", standsFor: ".kube/config", list: /:/ },
  { name: "AWS_SHARED_CREDENTIALS_FILE", standsFor: ".aws/credentials" },
  { name: "AWS_CONFIG_FILE", standsFor: ".aws/config" },
  { name: "BOTO_CONFIG", standsFor: ".boto" },
  { name: "CLOUDSDK_CONFIG", standsFor: ".config/gcloud/", holds: "credentials.db" },
  {
    name: "GOOGLE_APPLICATION_CREDENTIALS",
    standsFor: ".config/gcloud/application_default_credentials.json",
  },
  { name: "AZURE_CONFIG_DIR", standsFor: ".azure/", holds: "msal_token_cache.json" },
  // gh's, docker's and Hugging Face's homes; HF_TOKEN_PATH names the token file itself.
  { name: "GH_CONFIG_DIR", standsFor: ".config/gh/", holds: "hosts.yml" },
  { name: "DOCKER_CONFIG", standsFor: ".docker/", holds: "config.json" },
  { name: "HF_HOME", standsFor: ".cache/huggingface/", holds: "token" },
  { name: "HF_TOKEN_PATH", standsFor: ".cache/huggingface/token" },
  // Terraform's CLI configuration (credentials blocks), npm's user configuration, pip's, rclone's, the
  // Databricks CLI's, Kaggle's, libpq's password file, GnuPG's and pass's homes, sops' age keys.
  { name: "TF_CLI_CONFIG_FILE", standsFor: ".terraformrc" },
  { name: "NPM_CONFIG_USERCONFIG", standsFor: ".npmrc", ignoreCase: true },
  { name: "PIP_CONFIG_FILE", standsFor: ".config/pip/pip.conf" },
  { name: "RCLONE_CONFIG", standsFor: ".config/rclone/rclone.conf" },
  { name: "DATABRICKS_CONFIG_FILE", standsFor: ".databrickscfg" },
  { name: "KAGGLE_CONFIG_DIR", standsFor: ".kaggle/", holds: "kaggle.json" },
  { name: "PGPASSFILE", standsFor: ".pgpass" },
  // Python requests (and pip through it) read the netrc file NETRC names instead of ~/.netrc.
  { name: "NETRC", standsFor: ".netrc" },
  { name: "GNUPGHOME", standsFor: ".gnupg/", holds: "private-keys-v1.d/key.key" },
  { name: "PASSWORD_STORE_DIR", standsFor: ".password-store/", holds: "email/work.gpg" },
  { name: "SOPS_AGE_KEY_FILE", standsFor: ".config/sops/age/keys.txt" },
  // cargo's registry token and gradle's user properties (publish credentials) in their homes.
  { name: "CARGO_HOME", standsFor: ".cargo/", holds: "credentials.toml" },
  { name: "GRADLE_USER_HOME", standsFor: ".gradle/", holds: "gradle.properties" },
  // The XDG base directories: every family spelled below `.config/` (gh, glab, hcloud, rclone, helm…),
  // `.local/share/` (keyrings, atuin) and `.cache/` (huggingface) moves with them.
  { name: "XDG_CONFIG_HOME", standsFor: ".config/", holds: "gh/hosts.yml" },
  { name: "XDG_DATA_HOME", standsFor: ".local/share/", holds: "keyrings/login.keyring" },
  { name: "XDG_CACHE_HOME", standsFor: ".cache/", holds: "huggingface/token" },
];

/** One store the agent's environment moves: where it is now, and the spelling the families judge. */
export interface MovedStore {
  variable: CredentialVariable;
  /** The environment's own spelling of the name (npm's any case). */
  name: string;
  /** Where the store is now (absolute, tidied), or, `relative`, its path below wherever a program runs. */
  path: string;
  /**
   * The value is relative: programs open it from the directory they run in, so it is any path ending in it
   * (a leading `..` climbs to some directory above, so only the rest is kept).
   */
  relative?: true;
}

const BY_NAME = new Map(CREDENTIAL_VARIABLES.map((v) => [v.name, v]));

function variableOf(name: string): CredentialVariable | undefined {
  const exact = BY_NAME.get(name);
  if (exact !== undefined) return exact;
  const folded = BY_NAME.get(name.toUpperCase());
  return folded?.ignoreCase === true ? folded : undefined;
}

/** Every store the environment moves: to an absolute path, or one relative to where a program runs. */
export function movedStores(env: NodeJS.ProcessEnv): MovedStore[] {
  const out: MovedStore[] = [];
  for (const [name, value] of Object.entries(env)) {
    const variable = value === undefined || value === "" ? undefined : variableOf(name);
    if (variable === undefined) continue;
    const entries = variable.list === undefined ? [value as string] : (value as string).split(variable.list);
    for (const entry of entries) {
      if (entry === "") continue;
      if (entry.startsWith("/")) out.push({ variable, name, path: normalizePath(entry) });
      else {
        const below = normalizePath(entry).replace(/^(\.\.(\/|$))+/, "");
        out.push({ variable, name, path: below === "." ? "" : below, relative: true });
      }
    }
  }
  return out;
}

/** The parts of `path` below where the store would be, for each place it may be: `[]` is the store itself. */
function belowStore(store: MovedStore, path: string): string[][] {
  const p = normalizePath(path);
  if (!store.relative) {
    if (p === store.path) return [[]];
    return p.startsWith(`${store.path}/`) ? [p.slice(store.path.length + 1).split("/")] : [];
  }
  // Relative: the store is `DIR/<path>` for any directory DIR the program may run in.
  const segments = p.split("/").filter((x) => x !== "");
  const rel = store.path === "" ? [] : store.path.split("/");
  const out: string[][] = [];
  for (let i = 0; i + rel.length <= segments.length; i++)
    if (rel.every((r, k) => segments[i + k] === r)) out.push(segments.slice(i + rel.length));
  return out;
}

/**
 * The default spelling (under HOME, as `~/…`) of `path` when it is a moved store or below a moved directory
 * store, and a secret there; null otherwise.
 */
export function movedSecret(store: MovedStore, path: string): string | null {
  const { standsFor } = store.variable;
  for (const rest of belowStore(store, path)) {
    // A file store is the file itself; a directory store holds its secrets below it.
    if (standsFor.endsWith("/") ? rest.length === 0 : rest.length > 0) continue;
    const spelled = `~/${standsFor}${rest.join("/")}`;
    if (isDenylistedPath(spelled)) return spelled;
  }
  return null;
}
