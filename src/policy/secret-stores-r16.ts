// Secret families added in round 16 (r16b-01, r16b-07): the long tail of AI-tool, data-tool and cloud CLI
// stores, shell-history names other than `.NAME_history`, desktop secret stores, and project files that hold
// deploy or signing credentials by convention. Kept apart from secret-families.ts only for its size; the
// families are spread into SECRET_FAMILIES and behave as every other family does (SecretFamily's shape,
// spelled here so that this file imports nothing from the one that imports it).

export const ROUND16_FAMILIES: readonly { family: string; why: string; patterns: readonly string[] }[] = [
  {
    family: "AI and developer tool keys",
    // Each where its tool's docs put it: Claude Code's `~/.claude.json` (primaryApiKey, OAuth account);
    // Qwen Code's OAuth cache (`~/.qwen/oauth_creds.json`, the Gemini CLI form); aider's `.aider.conf.yml`
    // (openai-api-key, anthropic-api-key); llm's keys.json (`~/.config/io.datasette.llm/`, macOS
    // Application Support); Continue's config (apiKey per model); aichat's config.yaml; shell_gpt's
    // `.sgptrc` (OPENAI_API_KEY); WakaTime's api_key; Supabase CLI's access token; Doppler's tokens.
    why: "AI assistants and developer tools keep API keys and OAuth tokens here",
    patterns: [
      ".claude.json",
      "oauth_creds.json",
      ".aider.conf.yml",
      "io.datasette.llm/keys.json",
      ".continue/config.json",
      ".continue/config.yaml",
      "aichat/config.yaml",
      ".sgptrc",
      ".wakatime.cfg",
      ".supabase/access-token",
      ".doppler/",
    ],
  },
  {
    family: "data and cloud CLI logins",
    // dbt's profiles (warehouse passwords; the project's own `profiles.yml` may hold only env_var()),
    // SnowSQL's and Snowflake CLI's connections (`password =`), Argo CD's and Talos's contexts (bearer
    // tokens, client keys), a gitlab-runner's registration tokens, Railway's and Travis CLI's tokens, the
    // Yandex Cloud, Alibaba Cloud and Cloud Foundry CLIs' keys, OpenStack's clouds.yaml and secure.yaml,
    // Twilio CLI's API keys, Hex's (Elixir) API key, CPAN's `.pause` upload password, Dart pub's tokens,
    // OVH's application secret, MySQL's login-path file (obfuscated, not encrypted).
    why: "data, cloud and deploy command-line tools keep passwords and tokens here",
    patterns: [
      ".dbt/profiles.yml",
      ".snowsql/config",
      ".snowflake/connections.toml",
      ".snowflake/config.toml",
      "snowflake/connections.toml",
      "snowflake/config.toml",
      ".config/argocd/",
      ".argocd/",
      ".talos/config",
      "talosconfig",
      "gitlab-runner/config.toml",
      ".gitlab-runner/config.toml",
      ".railway/config.json",
      ".travis/config.yml",
      ".config/yandex-cloud/",
      ".aliyun/",
      ".cf/config.json",
      "clouds.yaml",
      "openstack/secure.yaml",
      ".twilio-cli/",
      "hex/hex.config",
      ".hex/hex.config",
      ".pause",
      "pub-credentials.json",
      "pub-tokens.json",
      ".ovh.conf",
      "ovh.conf",
      ".mylogin.cnf",
    ],
  },
  {
    family: "desktop secret stores",
    // Chromium browsers' cookie and password databases (Chrome, Chromium, Brave, Edge share the names),
    // Firefox's cookies, GNOME Keyring's files, Bitwarden CLI's vault and session, KeePass databases.
    why: "browser, keyring and password-manager files hold your logins",
    patterns: [
      "Cookies",
      "Login Data",
      "Login Data For Account",
      "cookies.sqlite",
      ".local/share/keyrings/",
      "Bitwarden CLI/",
      "*.kdbx",
    ],
  },
  {
    family: "project deploy and signing settings",
    // Files a project keeps out of version control because they hold credentials by convention: Android's
    // keystore.properties (storePassword, keyPassword), sentry.properties (auth.token), Coveralls'
    // repo_token, the Google API quickstarts' token.pickle (OAuth refresh token), Firebase functions'
    // `.runtimeconfig.json`. Ambiguous names (gradle.properties, settings.xml, database.yml,
    // appsettings*.json, wp-config.php) are decided by content (secret-settings.ts).
    why: "a project's deploy and signing settings hold passwords and tokens",
    patterns: [
      "keystore.properties",
      "sentry.properties",
      ".coveralls.yml",
      "token.pickle",
      ".runtimeconfig.json",
    ],
  },
];

/**
 * Shell-history names besides `.NAME_history` (red team, round 16): zsh's HISTFILE as prezto and
 * zsh-newuser-install set it (`.zhistory`, `.histfile`), fish's `fish_history`, macOS Terminal's
 * per-session history directories, and atuin's directory (its history database, session token and the
 * key that decrypts its synced history).
 */
export const ROUND16_HISTORIES: readonly string[] = [
  ".zhistory",
  ".histfile",
  "fish_history",
  ".zsh_sessions/",
  ".bash_sessions/",
  ".local/share/atuin/",
];
