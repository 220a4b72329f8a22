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
  /** Where the store is now (absolute, tidied). */
  path: string;
}

const BY_NAME = new Map(CREDENTIAL_VARIABLES.map((v) => [v.name, v]));

function variableOf(name: string): CredentialVariable | undefined {
  const exact = BY_NAME.get(name);
  if (exact !== undefined) return exact;
  const folded = BY_NAME.get(name.toUpperCase());
  return folded?.ignoreCase === true ? folded : undefined;
}

/** Every store the environment moves to an absolute path (a relative value is left to the families). */
export function movedStores(env: NodeJS.ProcessEnv): MovedStore[] {
  const out: MovedStore[] = [];
  for (const [name, value] of Object.entries(env)) {
    const variable = value === undefined || value === "" ? undefined : variableOf(name);
    if (variable === undefined) continue;
    const entries = variable.list === undefined ? [value as string] : (value as string).split(variable.list);
    for (const entry of entries)
      if (entry.startsWith("/")) out.push({ variable, name, path: normalizePath(entry) });
  }
  return out;
}

/**
 * The default spelling (under HOME, as `~/…`) of `path` when it is a moved store or below a moved directory
 * store, and a secret there; null otherwise.
 */
export function movedSecret(store: MovedStore, path: string): string | null {
  const p = normalizePath(path);
  const { standsFor } = store.variable;
  let spelled: string;
  if (!standsFor.endsWith("/")) {
    if (p !== store.path) return null;
    spelled = standsFor;
  } else if (p.startsWith(`${store.path}/`)) spelled = standsFor + p.slice(store.path.length + 1);
  else return null;
  return isDenylistedPath(`~/${spelled}`) ? `~/${spelled}` : null;
}
