// The permissions.yaml `airlock init` writes: reads in the workspace and a few safe commands run at once, secrets
// are denied, and everything else asks a person, so the first real call already reaches the phone.

/** File names and folders that hold secrets (a subset of src/policy/secret-paths.ts, written out for people). */
const SECRET_FILE = String.raw`(^|/)(\.env(\.[^/]*)?|\.npmrc|\.netrc|\.pypirc|[^/]*\.(pem|key|p12|pfx)|credentials[^/]*|auth\.json|id_(rsa|ecdsa|ed25519)[^/]*)$`;
const SECRET_DIR = String.raw`(^|/)(\.ssh|\.aws|\.kube|\.gnupg|secrets)(/|$)`;
/** The same names anywhere in a shell command's words (quotes are already removed: `cat ".env"` is `cat .env`). */
const SECRET_WORD = String.raw`(^|[\s/=])(\.env(\.\S*)?|\.npmrc|\.netrc|\.pypirc|\S*\.(pem|key|p12|pfx)|credentials\S*|id_(rsa|ecdsa|ed25519)\S*|\.ssh|\.aws|\.kube|\.gnupg)([\s/]|$)`;
/** Commands that only look: they run at once. */
const SAFE_COMMAND =
  "^(pwd|ls|tree|wc|which|whoami|date|uname|git (status|diff|log|show|branch|rev-parse|remote -v))( |$)";

/** YAML single-quoted scalars need only `'` doubled; backslashes stay as they are. */
const yamlQuoted = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A CEL string literal in raw form (r"…"), so regular-expression backslashes need no escaping. */
const celRaw = (s: string) => `r"${s}"`;

export function starterPolicy(): string {
  return `# Airlock's starter policy, written by "airlock init". The first matching rule decides; edit freely.
# "airlock policy explain --tool bash --input '{"command":"git push"}'" shows how a call is decided.
version: 1
default_action: ask          # anything no rule covers waits for your phone
rules:
  - name: Secrets
    condition: ${yamlQuoted(`tool in ["read", "write", "edit", "grep", "find", "ls"] && (path.matches(${celRaw(SECRET_FILE)}) || path.matches(${celRaw(SECRET_DIR)}))`)}
    action: deny
    message: Secret files are off limits to agents.
  - name: Secrets in shell commands
    condition: ${yamlQuoted(`tool == "bash" && command.matches(${celRaw(SECRET_WORD)})`)}
    action: deny
    message: Secret files are off limits to agents.
  - name: Read the workspace
    condition: ${yamlQuoted(`tool in ["read", "grep", "find", "ls"] && (path == cwd || path.startsWith(cwd + "/"))`)}
    action: allow
  - name: Safe commands
    condition: ${yamlQuoted(`tool == "bash" && command.matches(${celRaw(SAFE_COMMAND)})`)}
    action: allow
`;
}
