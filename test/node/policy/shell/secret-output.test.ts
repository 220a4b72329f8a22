// Class: commands that print secrets without naming a secret file — the environment, variables
// whose names say they hold a secret, and tools that print their stored credentials.
import { afterAll, describe, expect, it } from "vitest";
import {
  CREDENTIAL_PRINTERS,
  ENVIRONMENT_DUMPS,
  expandedNames,
  isSecretVariable,
} from "../../../../src/policy/shell/secret-output.ts";
import { compile, user } from "../helpers.ts";
import { cleanBashRuns } from "./bash-proof.ts";
import { judge, READ_ONLY } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const SECRET = "TOPSECRET-ENV-7";
const env = { env: { GITHUB_TOKEN: SECRET } };
const printed = (run: { stdout: string }) => run.stdout.includes(SECRET);

provenCases("the environment and secret variables printed", [
  { name: "env", command: "env", setup: env, proof: printed },
  { name: "env -i A=1 (prints A only, still a dump)", command: "env -u HOME", setup: env, proof: printed },
  { name: "printenv", command: "printenv", setup: env, proof: printed },
  { name: "printenv NAME", command: "printenv GITHUB_TOKEN", setup: env, proof: printed },
  { name: "set", command: "set", setup: env, proof: printed },
  { name: "export -p", command: "export -p", setup: env, proof: printed },
  { name: "export", command: "export", setup: env, proof: printed },
  { name: "declare -p", command: "declare -p", setup: env, proof: printed },
  { name: "declare -p NAME", command: "declare -p GITHUB_TOKEN", setup: env, proof: printed },
  { name: "declare -x", command: "declare -x", setup: env, proof: printed },
  { name: "echo $NAME", command: "echo $GITHUB_TOKEN", setup: env, proof: printed },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  { name: "echo in double quotes", command: 'echo "token: ${GITHUB_TOKEN}"', setup: env, proof: printed },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  { name: "a default", command: "echo ${GITHUB_TOKEN:-none}", setup: env, proof: printed },
  { name: "printf", command: "printf '%s\\n' \"$GITHUB_TOKEN\"", setup: env, proof: printed },
  { name: "after a harmless command", command: "ls; echo $GITHUB_TOKEN", setup: env, proof: printed },
  { name: "in a substitution", command: "cat <<< $(echo $GITHUB_TOKEN)", setup: env, proof: printed },
  { name: "through a pipe", command: "env | grep -i token", setup: env, proof: printed },
  // `env | grep NODE` with a literal, harmless-looking pattern still prints secrets, so it keeps asking:
  // grep matches whole lines, names and values alike, and NODE_AUTH_TOKEN (actions/setup-node's npm
  // token) is named NODE…; any value holding the pattern prints its line too. `printenv NODE_ENV` or
  // `echo $NODE_ENV` print one harmless variable and run.
  {
    name: "env | grep NODE (NODE_AUTH_TOKEN)",
    command: "env | grep NODE",
    setup: { env: { NODE_AUTH_TOKEN: SECRET } },
    proof: printed,
  },
  {
    name: "printenv | grep NODE (a value holding the pattern)",
    command: "printenv | grep NODE",
    setup: { env: { DATABASE_URL: `postgres://u:${SECRET}@db/NODE` } },
    proof: printed,
  },
  {
    name: "env | grep -F NODE_ENV (a value holding it)",
    command: "env | grep -F NODE_ENV",
    setup: { env: { CI_NOTE: `NODE_ENV ${SECRET}` } },
    proof: printed,
  },
  { name: "a here-string", command: 'cat <<< "$GITHUB_TOKEN"', setup: env, proof: printed },
  { name: "a here-document", command: "cat <<EOF\n$GITHUB_TOKEN\nEOF", setup: env, proof: printed },
  {
    name: "single quotes in a here-document are text",
    command: "cat <<EOF\n'$GITHUB_TOKEN'\nEOF",
    setup: env,
    proof: printed,
  },
  {
    name: "ps e shows every process's environment",
    command: "sleep 2 & ps axeww",
    setup: env,
    proof: printed,
  },
]);

// Issue 20, open class a: a variable expands, or is printed, in places the first round did not look —
// what `[[ … ]]` and `case` test (its answer shows the value a bit at a time), the declaration builtins
// that print what they are given or everything (`readonly`, `local`, `export -p NAME`), and compgen's
// word list, which the builtin expands itself.
const said = (word: string) => (run: { stdout: string }) => run.stdout.includes(word);
provenCases("variables expanded by tests, case words and declaration builtins", [
  {
    name: "[[ tests a prefix",
    command: "[[ $GITHUB_TOKEN == TOP* ]] && echo PREFIX-YES",
    setup: env,
    proof: said("PREFIX-YES"),
  },
  { name: "[[ -n", command: "[[ -n $GITHUB_TOKEN ]] && echo SET-YES", setup: env, proof: said("SET-YES") },
  { name: "[[ =~", command: "[[ $GITHUB_TOKEN =~ ^T ]] && echo RE-YES", setup: env, proof: said("RE-YES") },
  {
    name: "[[ =~ copies it into BASH_REMATCH (red team, round 4, finding 6)",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    command: '[[ $GITHUB_TOKEN =~ (.*) ]] && echo "${BASH_REMATCH[1]}"',
    setup: env,
    proof: printed,
  },
  {
    name: "case word",
    command: "case $GITHUB_TOKEN in TOP*) echo CASE-YES;; esac",
    setup: env,
    proof: said("CASE-YES"),
  },
  {
    name: "case quoted",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    command: 'case "${GITHUB_TOKEN:0:1}" in T) echo CASE2-YES;; esac',
    setup: env,
    proof: said("CASE2-YES"),
  },
  {
    name: "readonly then readonly -p",
    command: "readonly GITHUB_TOKEN; readonly -p",
    setup: env,
    proof: printed,
  },
  { name: "readonly then readonly", command: "readonly GITHUB_TOKEN; readonly", setup: env, proof: printed },
  { name: "typeset -p NAME", command: "typeset -p GITHUB_TOKEN", setup: env, proof: printed },
  {
    name: "compgen -W expands the variable",
    command: "compgen -W '$GITHUB_TOKEN'",
    setup: env,
    proof: printed,
  },
  { name: "compgen -W in a cluster", command: "compgen -aW '$GITHUB_TOKEN'", setup: env, proof: printed },
]);

describe("what stays allowed", () => {
  it.each([
    "[[ -n $HOME ]] && echo home",
    "x=1; [[ $x == 1 ]] && echo one",
    "case $PWD in /*) echo abs;; esac",
  ])("%s", (command) => {
    expect(judge(READ_ONLY, command).action).toBe("allow");
  });
});

describe("secret variables", () => {
  it.each([
    ["GITHUB_TOKEN", true],
    ["GH_TOKEN", true],
    ["NPM_TOKEN", true],
    ["AWS_SECRET_ACCESS_KEY", true],
    ["AWS_ACCESS_KEY_ID", true],
    ["AWS_SESSION_TOKEN", true],
    ["OPENAI_API_KEY", true],
    ["ANTHROPIC_API_KEY", true],
    ["STRIPE_SECRET_KEY", true],
    ["DB_PASSWORD", true],
    ["PGPASSWORD", true],
    ["MYSQL_PWD", true],
    ["DATABASE_URL", true],
    ["CLIENT_SECRET", true],
    ["github_token", true],
    ["SIGNING_KEY", true],
    ["HOME", false],
    ["PATH", false],
    ["PWD", false],
    ["KEYBOARD", false],
    ["AUTHOR", false],
    ["TOKENIZER_PATH", false],
    ["SSH_AUTH_SOCK", false],
    ["NODE_ENV", false],
  ])("%s holds a secret: %s", (name, secret) => {
    expect(isSecretVariable(name)).toBe(secret);
  });
  it.each([
    ["$A", ["A"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    ["${A:-x}", ["A"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    ["${#A}", ["A"]],
    ['"$A and $B"', ["A", "B"]],
    ["'$A'", []],
    ["\\$A", []],
    ['"it\'s $A"', ["A"]],
    ["x", []],
  ])("%s expands %j", (raw, names) => {
    expect(expandedNames(raw)).toEqual(names);
  });
});

describe("the environment-dump and credential tables", () => {
  it("every entry is a program a policy can name", () => {
    for (const name of [...Object.keys(ENVIRONMENT_DUMPS), ...Object.keys(CREDENTIAL_PRINTERS)])
      expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
  });
  const ANY = compile(
    user(`
default_action: ask
rules:
  - name: these tools
    condition: tool == "bash" && program in ["gh", "aws", "gcloud", "az", "kubectl", "npm", "security", "vault", "op", "ps", "printenv", "env", "echo"]
    action: allow
`),
  );
  it.each([
    "gh auth token",
    "gh auth status -t",
    "gh auth status --show-token",
    "aws configure get aws_secret_access_key",
    "aws configure export-credentials",
    "aws ecr get-login-password",
    "gcloud auth print-access-token",
    "gcloud auth application-default print-access-token",
    "az account get-access-token",
    "kubectl config view --raw",
    "kubectl create token default",
    "npm config list",
    "npm token list",
    "security find-generic-password -s x -w",
    "vault kv get secret/x",
    "op read op://vault/item/field",
    "ps auxe",
    "ps eww",
    "printenv",
    "env",
    "env -u HOME",
    "echo $NPM_TOKEN",
  ])("%s prints a credential: a rule must say `sensitive`", (command) => {
    const r = judge(ANY, command);
    expect(r.action, r.reasons.join("\n")).toBe("ask");
    expect(r.reasons.join("\n")).toMatch(/secret|credential/);
  });
  it.each(["gh pr view 1", "gh auth status", "aws s3 ls", "gcloud config list", "kubectl config view"])(
    "%s has no grammar here: not understood, so it asks without a credential concern",
    (command) => {
      const r = judge(ANY, command);
      expect(r.action, r.reasons.join("\n")).toBe("ask");
      expect(r.reasons.join("\n")).toMatch(/is not understood/);
      expect(r.reasons.join("\n")).not.toMatch(/credential/);
    },
  );
  // ps has a grammar since round 13 (grammar/programs/ps.ts): its command lines are no credential concern.
  it.each(["printenv HOME", "env FOO=1 echo hi", "echo $HOME", "echo '$NPM_TOKEN'", "ps aux", "ps -ef"])(
    "%s stays allowed",
    (command) => {
      const r = judge(ANY, command);
      expect(r.action, r.reasons.join("\n")).toBe("allow");
    },
  );
  it("a quoted here-document delimiter expands nothing", () => {
    expect(judge(READ_ONLY, "cat <<'EOF'\n$GITHUB_TOKEN\nEOF").action).toBe("allow");
    expect(judge(READ_ONLY, "cat <<< '$GITHUB_TOKEN'").action).toBe("allow");
  });
  it("a rule that says `sensitive` allows it", () => {
    const p = compile(
      user(`
default_action: ask
rules:
  - name: tokens are fine here
    condition: tool == "bash" && program == "printenv" && (sensitive || !sensitive)
    action: allow
`),
    );
    expect(judge(p, "printenv GITHUB_TOKEN").action).toBe("allow");
    expect(judge(READ_ONLY, "echo $GITHUB_TOKEN").action).toBe("ask");
  });
});
