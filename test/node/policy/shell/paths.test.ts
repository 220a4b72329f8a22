// Class: paths resolved where bash resolves them — `~`, `cd`/`pushd`/`popd`, `$HOME`/`$PWD`,
// globs, file arguments of reading programs — and file-tool paths as Pi expands them.
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell, decide, homeFor, resolveShellPath } from "../../../../src/policy/index.ts";
import { CWD } from "../helpers.ts";
import { cleanBashRuns } from "./bash-proof.ts";
import { HOME, judge, READ_ONLY } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const SECRET = "TOPSECRET-123";
const secretIn = (path: string) => ({ files: { [path]: `${SECRET}\n` } });
const printed = (run: { stdout: string }) => run.stdout.includes(SECRET);
const GIT_COMMIT_ENV =
  "git init -q . && git add -f .env && git -c user.email=a@b -c user.name=a commit -qm x && rm .env && ";

provenCases("`~` is the home directory, not <cwd>/~", [
  {
    name: "cat ~/.bash_history",
    command: "cat ~/.bash_history",
    setup: secretIn("~/.bash_history"),
    proof: printed,
  },
  {
    name: "in a redirection",
    command: "cat < ~/.bash_history",
    setup: secretIn("~/.bash_history"),
    proof: printed,
  },
  { name: "$HOME", command: "cat $HOME/.bash_history", setup: secretIn("~/.bash_history"), proof: printed },
  {
    name: '"$HOME" quoted',
    command: 'cat "$HOME/.bash_history"',
    setup: secretIn("~/.bash_history"),
    proof: printed,
  },
  {
    name: "~+ is the working directory",
    command: "cat ~+/../home/.bash_history",
    setup: secretIn("~/.bash_history"),
    proof: printed,
  },
  {
    name: "key=~/path expands too",
    command: "dd if=~/.bash_history status=none",
    setup: secretIn("~/.bash_history"),
    proof: printed,
  },
]);

provenCases("paths follow the working directory bash will use", [
  {
    name: "cd to the home directory, then a relative write",
    command: "cd ~ && echo x > PWNED",
    proof: "~/PWNED",
  },
  { name: "bare cd", command: "cd && touch PWNED", proof: "~/PWNED" },
  {
    name: "cd .. then a relative read",
    command: "cd .. && cat home/.bash_history",
    setup: secretIn("~/.bash_history"),
    proof: printed,
  },
  {
    name: "cd into a directory of HOME",
    command: "cd ~/sub && cat ../.bash_history",
    setup: { files: { "~/.bash_history": `${SECRET}\n`, "~/sub/x": "" } },
    proof: printed,
  },
  {
    name: "CDPATH",
    command: "CDPATH=~ cd sub && touch PWNED",
    setup: { files: { "~/sub/x": "" } },
    proof: "~/sub/PWNED",
  },
  { name: "pushd", command: "pushd ~ >/dev/null && touch PWNED", proof: "~/PWNED" },
  { name: "cd inside an if", command: "if true; then cd ~; fi; touch PWNED", proof: "~/PWNED" },
  { name: "cd in a function body", command: "f() { cd ~; }; f; echo x > PWNED", proof: "~/PWNED" },
  {
    name: "cd in a loop",
    command: "for d in ~ x; do cd $d 2>/dev/null; done; echo x > PWNED",
    proof: "~/PWNED",
  },
  { name: "eval cd", command: "eval 'cd ~'; echo x > PWNED", proof: "~/PWNED" },
  { name: "cd - (OLDPWD)", command: "cd ~; cd - >/dev/null; cd -; echo x > PWNED", proof: "~/PWNED" },
]);

provenCases("globs and words built at run time", [
  { name: "cat .e*", command: "cat .e*", setup: secretIn(".env"), proof: printed },
  { name: "cat .[e]nv", command: "cat .[e]nv", setup: secretIn(".env"), proof: printed },
  { name: "cat .env?", command: "cat .env?*", setup: secretIn(".env.local"), proof: printed },
  { name: "cat ~/.ss*/id*", command: "cat ~/.ss*/id*", setup: secretIn("~/.ssh/id_rsa"), proof: printed },
  { name: "a glob in a redirection", command: "cat < .e*", setup: secretIn(".env"), proof: printed },
  { name: "e=env; cat .$e", command: "e=env; cat .$e", setup: secretIn(".env"), proof: printed },
  { name: "brace expansion", command: "cat .{e,x}nv", setup: secretIn(".env"), proof: printed },
  {
    name: "a read in a subshell after cd",
    command: "(cd ~ && cat .bash_history)",
    setup: secretIn("~/.bash_history"),
    proof: printed,
  },
]);

provenCases("file arguments of reading programs are reads", [
  { name: "cat .env", command: "cat .env", setup: secretIn(".env"), proof: printed },
  {
    name: "head .env.production",
    command: "head .env.production",
    setup: secretIn(".env.production"),
    proof: printed,
  },
  { name: "cp .env out of the project", command: "cp .env ../x", setup: secretIn(".env"), proof: "/x" },
  {
    name: "base64 .git-credentials",
    command: "base64 -d <<< $(base64 .git-credentials)",
    setup: secretIn(".git-credentials"),
    proof: printed,
  },
  { name: "grep '' .pgpass", command: "grep '' .pgpass", setup: secretIn(".pgpass"), proof: printed },
  { name: "sort .my.cnf", command: "sort .my.cnf", setup: secretIn(".my.cnf"), proof: printed },
  {
    name: "xxd id_ed25519",
    command: "xxd -p id_ed25519 | xxd -r -p",
    setup: secretIn("id_ed25519"),
    proof: printed,
  },
  {
    name: "tail terraform.tfstate",
    command: "tail terraform.tfstate",
    setup: secretIn("terraform.tfstate"),
    proof: printed,
  },
  {
    name: "strings prod.tfvars",
    command: "strings prod.tfvars",
    setup: secretIn("prod.tfvars"),
    proof: printed,
  },
  {
    name: "od .vault-token",
    command: "od -c .vault-token",
    setup: secretIn(".vault-token"),
    proof: (r) => r.stdout.includes("T   O   P"),
  },
  {
    name: "tar of ~/.config/gcloud",
    command: "tar cf - -C ~ .config/gcloud | tar xOf -",
    setup: secretIn("~/.config/gcloud/credentials.db"),
    proof: printed,
  },
  {
    name: "diff against ~/.azure",
    command: "diff /dev/null ~/.azure/accessTokens.json",
    setup: secretIn("~/.azure/accessTokens.json"),
    proof: printed,
  },
  {
    name: "cat kubeconfig",
    command: "cat ~/.kube/config",
    setup: secretIn("~/.kube/config"),
    proof: printed,
  },
  {
    name: "Airlock's own configuration",
    command: "cat ~/.airlock/credentials.json",
    setup: secretIn("~/.airlock/credentials.json"),
    proof: printed,
  },
  {
    name: "grep -r reads secrets below a directory",
    command: "grep -r TOPSECRET .",
    setup: secretIn("config/.env"),
    proof: printed,
  },
  {
    name: "find -exec cat",
    command: "find . -name '.e*' -exec cat {} +",
    setup: secretIn(".env"),
    proof: printed,
  },
  { name: "xargs cat", command: "echo .env | xargs cat", setup: secretIn(".env"), proof: printed },
  {
    name: "awk getline",
    command: "awk 'BEGIN { while ((getline l < \".env\") > 0) print l }'",
    setup: secretIn(".env"),
    proof: printed,
  },
  { name: "sed r", command: "echo x | sed 'r .env'", setup: secretIn(".env"), proof: printed },
  {
    name: "git show REV:PATH prints a committed secret",
    command: `${GIT_COMMIT_ENV}git show HEAD:.env`,
    setup: secretIn(".env"),
    proof: printed,
  },
  {
    name: "git log -p -- PATH prints its history",
    command: `${GIT_COMMIT_ENV}git log -p -- .env`,
    setup: secretIn(".env"),
    proof: printed,
  },
  {
    name: "git grep in a pathspec",
    command: `${GIT_COMMIT_ENV}git grep -h TOP HEAD -- .env`,
    setup: secretIn(".env"),
    proof: printed,
  },
  {
    name: "git config --list prints a CI checkout's token",
    command:
      "git init -q . && git config http.extraheader 'AUTHORIZATION: basic TOPSECRET-123' && git config --list",
    proof: printed,
  },
  {
    name: "a process's environment",
    command: "cat /proc/self/environ",
    setup: { env: { API_TOKEN: SECRET } },
    proof: printed,
  },
  {
    name: "a REPL history",
    command: "tail .python_history",
    setup: secretIn(".python_history"),
    proof: printed,
  },
]);

const FAKE_LS = { files: { ls: "#!/bin/sh\ntouch PWNED\n", "bin/ls": "#!/bin/sh\ntouch PWNED\n" } };
provenCases("a program path outside the system directories is another program", [
  { name: "./ls", command: "./ls", setup: FAKE_LS, proof: "PWNED" },
  { name: "bin/ls", command: "bin/ls -la", setup: FAKE_LS, proof: "PWNED" },
  { name: "$PWD/ls", command: "$PWD/ls", setup: FAKE_LS, proof: "PWNED" },
  { name: "a quoted ./ls", command: "'./ls' src", setup: FAKE_LS, proof: "PWNED" },
  { name: "cd then ./ls", command: "cd bin && ./ls", setup: FAKE_LS, proof: "bin/PWNED" },
  { name: "/tmp/ls", command: "/tmp/ls" },
  { name: "~/bin/ls", command: "~/bin/ls" },
]);

describe("program names", () => {
  it.each([
    ["ls", "ls"],
    ["/bin/ls", "ls"],
    ["/usr/bin/ls", "ls"],
    ["/usr/local/bin/rg", "rg"],
    ["/opt/homebrew/bin/rg", "rg"],
    ["./ls", "./ls"],
    ["bin/ls", "bin/ls"],
    ["/tmp/ls", "/tmp/ls"],
    ["/usr/bin/../../tmp/ls", "/usr/bin/../../tmp/ls"],
  ])("%s is program %s", (command, program) => {
    const unit = analyzeShell(command).units[0];
    expect(unit?.kind === "exec" ? unit.program : null).toBe(program);
  });
  it("the system's ls stays allowed", () => {
    expect(judge(READ_ONLY, "/bin/ls -la").action).toBe("allow");
  });
});

describe("git prints what files hold", () => {
  it.each([
    "git show HEAD:.env",
    "git show main:config/.env.production",
    "git cat-file -p :0:.aws/credentials",
    "git log -p -- .env",
    "git diff HEAD~1 -- id_rsa",
    "git blame .env",
    "git grep -n KEY -- .env",
    "git grep -e KEY .env",
    "git -C sub show HEAD:.env",
  ])("%s is a read of a secret", (command) => {
    const r = judge(READ_ONLY, command);
    expect(r.action, r.reasons.join("\n")).not.toBe("allow");
    expect(r.reasons.join("\n")).toMatch(/secret/);
  });
  it.each([
    ["git config --list", true],
    ["git config -l --show-origin", true],
    ["git config --get http.https://github.com/.extraheader", true],
    // A URL key is checked on disk for user-info (git-config-keys.ts), as `git remote -v` is.
    ["git config --get remote.origin.url", false],
    ["git config -f .git/config --get remote.origin.url", true],
    ["git config --get remote.origin.fetch", false],
    ["git config user.name", false],
    ["git config --get core.editor", false],
  ])("%s reads the configuration's tokens: %s", (command, reads) => {
    const units = analyzeShell(command).units;
    expect(units.some((u) => u.kind === "read" && u.path === ".git/config")).toBe(reads);
  });
  it.each([
    "git show HEAD:README.md",
    "git log -p -- src/a.ts",
    "git diff main",
    "git grep -n env -- src",
    "git log --oneline -3",
    "git status",
  ])("%s stays allowed", (command) => {
    const r = judge(READ_ONLY, command);
    expect(r.action, r.reasons.join("\n")).toBe("allow");
  });
});

describe("what the engine sees for paths", () => {
  it("resolves ~ against home, and knows nothing of ~user", () => {
    const p = (path: string, tilde: boolean, cwd: string | null = ".") =>
      resolveShellPath({ path, tilde, cwd }, CWD, HOME);
    expect(p("~/.ssh/id_rsa", true)).toBe("/home/dev/.ssh/id_rsa");
    expect(p("~", true)).toBe("/home/dev");
    expect(p("~+/x", true)).toBe(`${CWD}/x`);
    expect(p("~root/x", true)).toBeNull();
    expect(p("~-/x", true)).toBeNull();
    expect(p("~/x", false)).toBe(`${CWD}/~/x`);
    expect(p("x", false, "/tmp")).toBe("/tmp/x");
    expect(p("x", false, null)).toBeNull();
    expect(p("../x", false, "src")).toBeNull(); // after a cd, `..` depends on symlinks
    expect(p("a/../../x", false)).toBeNull();
    expect(p("../x", false)).toBe("/home/dev/x");
  });
  it("infers home from the working directory when the caller does not say", () => {
    expect(homeFor("/home/alice/p")).toBe("/home/alice");
    expect(homeFor("/Users/bob/src/x")).toBe("/Users/bob");
    expect(homeFor("/root")).toBe("/root");
    expect(homeFor("/srv/app")).toBeNull();
    expect(homeFor("/srv/app", "/srv/home/x")).toBe("/srv/home/x");
  });
  it("an unknown home makes ~ paths unknown: never allowed", () => {
    const r = decide(
      READ_ONLY,
      { tool: "bash", input: { command: "cat ~/notes.txt" }, cwd: "/srv/app" },
      { hasUI: true },
    );
    expect(r.action).toBe("ask");
  });
  it("a subshell's cd does not move the rest of the script", () => {
    const units = analyzeShell("(cd /tmp) ; cat README.md").units;
    expect(units.find((u) => u.kind === "read")).toMatchObject({ path: "README.md", cwd: "." });
  });
  it("a cd that may fail leaves both directories possible", () => {
    const reads = analyzeShell("cd sub; cat x").units.filter((u) => u.kind === "read");
    expect(reads.map((u) => u.kind === "read" && u.cwd)).toEqual([".", "sub"]);
  });
  it("reads inside the project are allowed; secret-looking ones are not", () => {
    expect(judge(READ_ONLY, "cat README.md src/a.ts").action).toBe("allow");
    expect(judge(READ_ONLY, "cd src && cat a.ts").action).toBe("allow");
    expect(judge(READ_ONLY, "cat .env.example").action).toBe("allow");
    expect(judge(READ_ONLY, "cat src/*.ts").action).toBe("allow");
    expect(judge(READ_ONLY, "cat .env").action).toBe("ask");
    expect(judge(READ_ONLY, "cat /etc/passwd").action).toBe("ask");
  });
});

describe("file tools get the paths Pi opens", () => {
  const read = (path: string, cwd = CWD) =>
    decide(READ_ONLY, { tool: "read", input: { path }, cwd, home: HOME }, { hasUI: true });
  it.each([
    ["~/.ssh/id_rsa"],
    ["~/notes.txt"],
    ["@~/.aws/credentials"],
    ["@/etc/passwd"],
    ["file:///etc/passwd"],
    ["@file:///home/dev/.netrc"],
    ["file:///home/dev/project/%2e%2e/secret"],
    ["~root/.ssh/id_rsa"],
    ["file://evil.host/etc/passwd"],
  ])("%s is outside the project (or unknown): not allowed", (path) => {
    expect(read(path).action).toBe("ask");
  });
  it("@ and file:// inside the project are the project's files", () => {
    expect(read("@src/a.ts").action).toBe("allow");
    expect(read(`file://${CWD}/src/a.ts`).action).toBe("allow");
    expect(read(`${CWD}/src/a.ts`).action).toBe("allow");
  });
  it("a secret inside the project is never allowed by a rule that does not name `sensitive`", () => {
    expect(read(".env").action).toBe("ask");
    expect(read("@.env").action).toBe("ask");
    expect(read("config/id_ed25519").action).toBe("ask");
  });
});
