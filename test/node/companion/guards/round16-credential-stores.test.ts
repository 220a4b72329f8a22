// Never (red team, round 16, r16b-01 and r16b-07): credential stores no family named. With the agent started
// in ~, Read, `cat` and `grep -r` printed Claude Code's primaryApiKey from `.claude.json`, Qwen's OAuth
// tokens, zsh and fish histories under their other names, aider's, llm's, dbt's, Snowflake's and Argo CD's
// keys; in a project, a WireGuard PrivateKey, keystore.properties' passwords, sentry.properties' token and a
// Maven settings.xml password. Each is a secret now (by name, or for ambiguous names by a literal credential
// in its text), while the everyday forms of the ambiguous files stay readable.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isDenylistedPath, secretFamilyOf } from "../../../../src/policy/secret-paths.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { homeWorkspace } from "./disk-fixture.ts";

/** r16b-01: each store where its tool's documentation puts it. */
const STORES: Record<string, string> = {
  ".claude.json": '{"primaryApiKey":"sk-ant-api03-FAKE"}\n',
  ".qwen/oauth_creds.json": '{"access_token":"FAKE","refresh_token":"FAKE"}\n',
  ".zhistory": "export OPENAI_API_KEY=sk-FAKEZSH\n",
  ".histfile": "export OPENAI_API_KEY=sk-FAKEZSH\n",
  ".local/share/fish/fish_history": "- cmd: git clone https://x:FAKE@github.com/o/r\n",
  ".zsh_sessions/ABC.history": "export OPENAI_API_KEY=sk-FAKEZSH\n",
  ".supabase/access-token": "sbp_FAKE\n",
  ".config/argocd/config": "users:\n- auth-token: FAKE\n",
  ".gitlab-runner/config.toml": '[[runners]]\n  token = "glrt-FAKE"\n',
  ".dbt/profiles.yml": "prod:\n  outputs:\n    dev:\n      password: FAKE\n",
  ".aider.conf.yml": "openai-api-key: sk-FAKE\n",
  ".config/io.datasette.llm/keys.json": '{"openai":"sk-FAKE"}\n',
  ".continue/config.json": '{"models":[{"apiKey":"sk-FAKE"}]}\n',
  ".config/aichat/config.yaml": "clients:\n- api_key: sk-FAKE\n",
  ".config/shell_gpt/.sgptrc": "OPENAI_API_KEY=sk-FAKE\n",
  ".wakatime.cfg": "[settings]\napi_key = waka_FAKE\n",
  ".doppler/.doppler.yaml": "scoped:\n  /:\n    token: dp.ct.FAKE\n",
  ".snowsql/config": "[connections]\npassword = FAKE\n",
  ".config/snowflake/connections.toml": '[default]\npassword = "FAKE"\n',
  ".pause": "user ME\npassword FAKE\n",
  ".config/dart/pub-credentials.json": '{"accessToken":"FAKE"}\n',
  ".talos/config": "contexts:\n  c:\n    key: FAKE\n",
  ".config/Bitwarden CLI/data.json": '{"accessToken":"FAKE"}\n',
  ".ovh.conf": "[ovh-eu]\napplication_secret=FAKE\n",
  ".travis/config.yml": "endpoints:\n  https://api.travis-ci.com/:\n    access_token: FAKE\n",
  ".railway/config.json": '{"user":{"token":"FAKE"}}\n',
  ".config/yandex-cloud/config.yaml": "profiles:\n  default:\n    token: FAKE\n",
  ".local/share/atuin/key": "FAKEKEY\n",
  ".config/google-chrome/Default/Cookies": "SQLite format 3\n",
  ".config/google-chrome/Default/Login Data": "SQLite format 3\n",
  ".local/share/keyrings/login.keyring": "GnomeKeyring\n",
  "vault.kdbx": "\x03\xd9\xa2\x9a",
  // r16b-07: project files that hold credentials by convention.
  "proj/keystore.properties": "storePassword=FAKEstorepass\nkeyPassword=FAKEkeypass\n",
  "proj/sentry.properties": "auth.token=sntrys_FAKETOKEN\n",
  "proj/.coveralls.yml": "repo_token: FAKE\n",
  "proj/token.pickle": "\x80\x04FAKE",
  "proj/talosconfig": "contexts:\n  c:\n    key: FAKE\n",
  "proj/functions/.runtimeconfig.json": '{"stripe":{"secret":"FAKE"}}\n',
};

/** r16b-07: ambiguous names whose text sets a credential to a literal value, and a WireGuard key. */
const BY_CONTENT: Record<string, string> = {
  "proj/wg0.conf":
    "[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\nAddress = 10.0.0.2/32\n",
  "proj/vpn/office.conf": "[Peer]\nPresharedKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n",
  "proj/gradle.properties": "org.gradle.jvmargs=-Xmx2g\nsigning.password=FAKEsign\nossrhToken=FAKE\n",
  "proj/.mvn/settings.xml":
    "<settings><servers><server><id>r</id><password>FAKE</password></server></servers></settings>\n",
  "proj/config/database.yml": "production:\n  adapter: postgresql\n  password: FAKEdbpass\n",
  "proj/rails2/config/database.yml": "production:\n  url: postgres://app:FAKE@db/app\n",
  "proj/api/appsettings.Development.json":
    '{"ConnectionStrings":{"Db":"Server=db;User Id=sa;Password=FAKE1;"}}\n',
  "proj/api/appsettings.json": '{"Stripe":{"ApiKey":"sk_test_FAKE"}}\n',
  "proj/wp/wp-config.php": "<?php\ndefine( 'DB_PASSWORD', 'FAKEwp' );\n",
  "proj/wiki/LocalSettings.php": '<?php\n$wgDBpassword = "FAKEwiki";\n',
};

/** The everyday forms of the same names, which stay readable. */
const PLAIN: Record<string, string> = {
  "proj2/gradle.properties":
    "org.gradle.jvmargs=-Xmx2048m\nandroid.useAndroidX=true\nkotlin.code.style=official\n",
  "proj2/.mvn/settings.xml":
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Maven's property syntax, not a template
    "<settings><servers><server><id>r</id><password>${env.REPO_PASS}</password></server></servers></settings>\n",
  "proj2/config/database.yml":
    "default: &default\n  adapter: postgresql\n  password: <%= ENV['DB_PASSWORD'] %>\ndevelopment:\n  <<: *default\n  database: app_dev\n",
  "proj2/api/appsettings.json":
    '{"Logging":{"LogLevel":{"Default":"Information"}},"AllowedHosts":"*","ConnectionStrings":{"Db":"Server=(localdb)\\\\mssqllocaldb;Database=app;Trusted_Connection=True"}}\n',
  "proj2/api/appsettings.Development.json": '{"Logging":{"LogLevel":{"Default":"Debug"}}}\n',
  "proj2/wp/wp-config.php": "<?php\ndefine( 'DB_PASSWORD', getenv('WP_DB_PASSWORD') );\n",
  "proj2/wp/wp-config-sample.php": "<?php\ndefine( 'DB_PASSWORD', 'password_here' );\n",
  "proj2/nginx/site.conf": "server {\n  listen 80;\n}\n",
  "proj2/profiles.yml": "prod:\n  outputs:\n    dev:\n      password: \"{{ env_var('DBT_PASSWORD') }}\"\n",
  "proj2/.continue/rules/style.md": "Use tabs.\n",
};
// The agent started in ~: the home directory is the workspace.
const { base, home, judge } = homeWorkspace("airlock-rt16-creds-", { ...STORES, ...BY_CONTENT, ...PLAIN });
afterAll(() => rmSync(base, { recursive: true, force: true }));

const q = (rel: string) => `'${rel}'`;

describe("round 16: credential stores known by their names", () => {
  it("each is a secret by name, in a family the phone card can name", () => {
    for (const rel of Object.keys(STORES)) {
      expect(isDenylistedPath(rel), rel).toBe(true);
      expect(secretFamilyOf(rel)?.family, rel).toBeTruthy();
    }
  });

  it("cat, tail and the Read tool never print one unasked, under either starter", () => {
    for (const policy of [BALANCED, AUTONOMOUS])
      for (const rel of Object.keys(STORES)) {
        expect(judge("bash", { command: `cat ${q(rel)}` }, policy).action, rel).not.toBe("allow");
        expect(judge("bash", { command: `tail -n 5 ${q(rel)}` }, policy).action, rel).not.toBe("allow");
        expect(judge("read", { file_path: join(home, rel) }, policy).action, rel).not.toBe("allow");
      }
  });

  it("a grep walk over their directories asks", () => {
    for (const policy of [BALANCED, AUTONOMOUS]) {
      const walk = judge("bash", { command: "grep -r token .config/argocd .gitlab-runner .dbt" }, policy);
      expect(walk.action, walk.why).not.toBe("allow");
    }
  });
});

describe("round 16: ambiguous settings files decided by their text", () => {
  it("one that sets a credential to a literal value (or holds a WireGuard key) asks, read or walked", () => {
    for (const policy of [BALANCED, AUTONOMOUS])
      for (const rel of Object.keys(BY_CONTENT)) {
        expect(isDenylistedPath(rel), rel).toBe(false);
        const cat = judge("bash", { command: `cat ${q(rel)}` }, policy);
        expect(cat.action, `${rel}\n${cat.why}`).not.toBe("allow");
        expect(judge("read", { file_path: join(home, rel) }, policy).action, rel).not.toBe("allow");
        const walk = judge("bash", { command: `grep -r -i password ${q(dirname(rel))}` }, policy);
        expect(walk.action, rel).not.toBe("allow");
      }
  });

  it("the everyday forms, which read their credentials from the environment or hold none, stay readable", () => {
    for (const rel of Object.keys(PLAIN)) {
      for (const call of [
        judge("bash", { command: `cat ${q(rel)}` }),
        judge("read", { file_path: join(home, rel) }),
      ])
        expect(call.action, `${rel}\n${call.why}\n${call.reasons.join("\n")}`).toBe("allow");
    }
    const walk = judge("bash", { command: "grep -r -i password proj2" });
    expect(walk.action, `${walk.why}\n${walk.reasons.join("\n")}`).toBe("allow");
  });
});
