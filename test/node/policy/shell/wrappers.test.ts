// Class: wrappers that run a command or a command string, builtins that run strings later or
// change what later lines run, and interpreters that run whatever they later read.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import { INTERPRETERS, interactiveSession } from "../../../../src/policy/shell/interpreters.ts";
import { type Arg, unwrap, WRAPPERS } from "../../../../src/policy/shell/wrappers.ts";
import { compile, user } from "../helpers.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { DENYLIST, judge, READ_ONLY } from "./policies.ts";
import { has, provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const P = "touch PWNED";

provenCases("wrappers that run a command string or a later command", [
  { name: "flock FILE CMD", command: `flock lock ${P}`, proof: "PWNED" },
  { name: "flock FILE -c STRING", command: `flock lock -c '${P}'`, proof: "PWNED" },
  {
    name: "chroot",
    command: `chroot / ${P}`,
    setup: { stubs: ["chroot"] },
    proof: (r) => r.calls.includes("chroot / touch PWNED"),
  },
  { name: "script -c", command: `script -qc '${P}' /dev/null`, needs: "script", proof: "PWNED" },
  { name: "sg GROUP -c", command: `sg $(id -gn) -c '${P}'`, needs: "sg", proof: "PWNED" },
  {
    name: "unbuffer",
    command: `unbuffer ${P}`,
    setup: { stubs: ["unbuffer"] },
    proof: (r) => r.calls.includes("unbuffer touch PWNED"),
  },
  { name: "trap … EXIT", command: `trap '${P}' EXIT; ls`, proof: "PWNED" },
  { name: "trap … DEBUG", command: `trap '${P}' DEBUG; true`, proof: "PWNED" },
  { name: "mapfile -C", command: `mapfile -C '${P} #' -c 1 <<< x`, proof: "PWNED" },
  { name: "readarray -C", command: `readarray -C '${P} #' -c 1 <<< x`, proof: "PWNED" },
  { name: "fc -e", command: `set -o history\ntrue\nfc -e "sed -i 's/true/${P}/'"`, proof: "PWNED" },
  {
    name: "hash -p",
    command: "hash -p ./evil ls; ls",
    setup: { files: { evil: `#!/bin/sh\n${P}\n` } },
    proof: "PWNED",
  },
  { name: "env -S", command: `env -S '${P}'`, proof: "PWNED" },
  { name: "timeout", command: `timeout 5 ${P}`, proof: "PWNED" },
  { name: "nice -n", command: `nice -n 5 ${P}`, proof: "PWNED" },
  { name: "xargs", command: `echo PWNED | xargs touch`, proof: "PWNED" },
  { name: "xargs -I sh -c", command: `echo PWNED | xargs -I{} sh -c 'touch {}'`, proof: "PWNED" },
  { name: "command", command: `command ${P}`, proof: "PWNED" },
  { name: "builtin eval", command: `builtin eval '${P}'`, proof: "PWNED" },
  { name: "eval of joined words", command: `eval touch PWNED`, proof: "PWNED" },
  { name: "bash -c", command: `bash -c '${P}'`, proof: "PWNED" },
  { name: "bash reading a here-document", command: `bash <<'EOF'\n${P}\nEOF`, proof: "PWNED" },
  { name: "time", command: `time ${P}`, proof: "PWNED" },
  {
    name: "enable -n then a planted test",
    command: "enable -n test; test",
    setup: { files: { test: `#!/bin/sh\n${P}\n` }, env: { PATH: ".:/usr/bin:/bin" } },
    proof: "PWNED",
  },
  {
    name: "set -k makes arguments assignments",
    command: "set -k; env x LD_PRELOAD=./evil.so",
    proof: () => true,
  },
]);

provenCases("interpreters that run what they later read", [
  {
    name: "python3 -i",
    command: "python3 -i",
    setup: { stdin: "import os; os.system('touch PWNED')\n" },
    needs: "python3",
    proof: "PWNED",
  },
  {
    name: "python3 with no script",
    command: "python3",
    setup: { stdin: "import os; os.system('touch PWNED')\n" },
    needs: "python3",
    proof: "PWNED",
  },
  {
    name: "python3 -",
    command: "python3 -",
    setup: { stdin: "import os; os.system('touch PWNED')\n" },
    needs: "python3",
    proof: "PWNED",
  },
  { name: "bash with no -c", command: "bash", setup: { stdin: `${P}\n` }, proof: "PWNED" },
  { name: "sh -s", command: "sh -s", setup: { stdin: `${P}\n` }, proof: "PWNED" },
  { name: "bash -i", command: "bash -i", setup: { stdin: `${P}\n` }, proof: "PWNED" },
  {
    name: "node with no script",
    command: "node",
    setup: { stdin: "require('fs').writeFileSync('PWNED', '')\n" },
    needs: "node",
    proof: "PWNED",
  },
  {
    name: "sqlite3",
    command: "sqlite3",
    setup: { stdin: ".shell touch PWNED\n" },
    needs: "sqlite3",
    proof: "PWNED",
  },
  { name: "psql", command: "psql", setup: { stubs: ["psql"] }, proof: (r) => r.calls.includes("psql") },
  {
    name: "ssh host",
    command: "ssh host",
    setup: { stubs: ["ssh"] },
    proof: (r) => r.calls.includes("ssh host"),
  },
  {
    name: "a pipe into python3",
    command: `echo "import os; os.system('${P}')" | python3`,
    needs: "python3",
    proof: "PWNED",
  },
]);

describe("Codex types into an interactive session; no hook sees it", () => {
  it("a python3 rule does not allow python3 -i, and typing into it deletes a file", () => {
    const python = compile(
      user(
        `default_action: ask\nrules:\n  - name: python\n    condition: 'tool == "bash" && command.startsWith("python3")'\n    action: allow\n  - name: reads\n    condition: 'tool == "read" && path.startsWith(cwd + "/")'\n    action: allow\n`,
      ),
    );
    expect(judge(python, "python3 -i").action).toBe("ask");
    expect(judge(python, "python3").action).toBe("ask");
    expect(judge(python, "python3 script.py").action).toBe("allow");
    // Inline code is program text the engine cannot read: a person sees it.
    expect(judge(python, "python3 -c 'import os; os.system(\"rm -rf ~\")'").action).toBe("ask");
    if (!has("python3")) return;
    const run = runInBash("python3 -i", {
      files: { "keep.txt": "x" },
      stdin: "import os; os.system('rm -f keep.txt')\n",
    });
    expect(run.exists("keep.txt")).toBe(false);
  });
  it("a rule that says `interactive` may allow a session", () => {
    const repl = compile(
      user(
        `default_action: ask\nrules:\n  - name: python repl\n    condition: 'tool == "bash" && program == "python3" && interactive'\n    action: allow\n`,
      ),
    );
    expect(judge(repl, "python3 -i").action).toBe("allow");
  });
});

describe("the wrapper table", () => {
  const arg = (value: string): Arg => ({ value, raw: value, glob: false, tilde: false });
  const inner = (command: string) => {
    const u = unwrap(command.split(" ").map(arg));
    return u.kind === "inner"
      ? u.argv.map((a) => a.value).join(" ")
      : u.kind === "script"
        ? `script:${u.script}`
        : u.kind;
  };
  it.each([
    ["sudo -u root rm x", "rm x"],
    ["sudo -uroot rm x", "rm x"],
    ["sudo VAR=1 rm x", "rm x"],
    ["sudo -s", "shell"],
    ["doas -u root rm x", "rm x"],
    ["env -i A=1 rm x", "rm x"],
    ["env -C /tmp rm x", "rm x"],
    ["nice -n 5 rm x", "rm x"],
    ["nice -5 rm x", "rm x"],
    ["timeout -s KILL 5 rm x", "rm x"],
    ["flock -w 5 lockfile rm x", "rm x"],
    ["flock lockfile -c rm_x", "script:rm_x"],
    ["flock 9", "none"],
    ["chroot /srv rm x", "rm x"],
    ["chroot /srv", "shell"],
    ["script -qc rm_x /dev/null", "script:rm_x"],
    ["script", "shell"],
    ["sg wheel -c rm_x", "script:rm_x"],
    ["su -c rm_x root", "script:rm_x"],
    ["su root", "shell"],
    ["unshare -r rm x", "rm x"],
    ["unshare", "shell"],
    ["xargs -n1 rm", "rm"],
    ["xargs", "echo"],
    ["watch -n 1 rm x", "script:rm x"],
    ["taskset 0x1 rm x", "rm x"],
    ["taskset -p 1234", "none"],
    ["command -v rm", "none"],
    ["stdbuf -oL rm x", "rm x"],
    ["setsid rm x", "rm x"],
    ["npx rm x", "rm x"],
    ["npm exec rm x", "rm x"],
    ["uv run rm x", "rm x"],
    ["bundle exec rm x", "rm x"],
    ["entr -s rm_x", "script:rm_x"],
    ["nix-shell --run rm_x", "script:rm_x"],
    ["eval rm x", "script:rm x"],
    ["systemd-run --user -p Nice=5 rm x", "rm x"],
    ["systemd-run --user --shell", "shell"],
    ["cpulimit -l 50 rm x", "rm x"],
    ["cpulimit -p 1234", "none"],
    ["trickle -d 100 rm x", "rm x"],
    ["eatmydata rm x", "rm x"],
    ["nocache rm x", "rm x"],
    ["firejail rm x", "rm x"],
    ["firejail", "shell"],
    ["parallel rm ::: x", "script:null"],
    ["sem rm x", "script:null"],
  ])("%s runs %s", (command, expected) => {
    expect(inner(command)).toBe(expected);
  });
  it("every wrapper is a command a policy can name, and shells and interpreters are known", () => {
    for (const name of Object.keys(WRAPPERS)) expect(name).toMatch(/^[a-z0-9.-]+( [a-z-]+)?$/);
    for (const name of Object.keys(INTERPRETERS)) expect(name).toMatch(/^[A-Za-z0-9-]+$/);
  });
  it.each([
    ["python3", true],
    ["python3 -i script.py", true],
    ["python3 script.py", false],
    ["python3 -c print(1)", false],
    ["python3 -m http.server", false],
    ["python3.12", true],
    ["node", true],
    ["node app.js", false],
    ["node -e 1", false],
    ["node --require ./x.js", true],
    ["psql -c select", true],
    ["sqlite3 db.sqlite", true],
    ["vim README.md", true],
    // less and more have grammars: with no terminal they copy their files as cat does (grammar/programs/).
    ["less README.md", false],
    ["more README.md", false],
    ["most README.md", true],
    ["deno repl", true],
    ["deno run x.ts", false],
    ["perl -e 1", false],
    ["php -a", true],
    ["ruby", true],
    ["irb", true],
    ["git", false],
  ])("%s opens an interactive session: %s", (command, expected) => {
    const argv = command.split(" ").map(arg);
    expect(interactiveSession(argv) !== null).toBe(expected);
  });
  it("wrapped commands are judged as well as the wrapper, under a denylist too", () => {
    for (const command of [
      "flock l rm -rf x",
      "chroot / rm -rf x",
      "script -qc 'rm -rf x' /dev/null",
      "trap 'rm -rf x' EXIT",
      "mapfile -C 'rm -rf x #' -c 1 < f",
      "unbuffer rm -rf x",
      "sg staff -c 'rm -rf x'",
    ]) {
      expect(judge(DENYLIST, command).action, command).toBe("deny");
    }
  });
  it("environment a wrapper sets by option is judged like a prefix", () => {
    const r = judge(DENYLIST, "systemd-run --user -E LD_PRELOAD=/tmp/x.so ls");
    expect(r.action, r.reasons.join("\n")).not.toBe("allow");
    expect(r.reasons.join("\n")).toContain("LD_PRELOAD");
  });
  it("a trap string runs later, from wherever the script then is: its paths are unknown", () => {
    const reads = analyzeShell("trap 'cat notes.txt' EXIT").units.filter((u) => u.kind === "read");
    expect(reads).toMatchObject([{ path: "notes.txt", cwd: null }]);
  });
  it("sudo is real", () => {
    expect(spawnSync("sh", ["-c", "true"]).status).toBe(0);
  });
});

describe("builtins that change what later lines run", () => {
  it.each([
    "hash -p ./evil ls",
    "enable -f ./evil.so x",
    "enable -n test",
    "fc -e vi",
    "shopt -s expand_aliases",
    "shopt -s lastpipe",
    "set -k",
    "set -o history",
    "set -H",
    "set -a",
    "alias ls='rm -rf x'",
    "bind -x '\"\\C-t\": rm x'",
    "complete -C ./x ls",
    "history -r evil",
  ])("%s needs a person", (command) => {
    expect(judge(READ_ONLY, command).action).toBe("ask");
  });
  it.each([
    "set -euo pipefail",
    "set -x",
    "shopt -s nullglob globstar",
    // dotglob changes what a later glob matches (that glob asks); a script with none reads the same (round 17).
    "shopt -s dotglob; ls",
    "hash",
    "alias",
    "shopt -q extglob",
    "set -- a b",
  ])("%s is fine", (command) => {
    expect(judge(READ_ONLY, command).action).toBe("allow");
  });
});

describe("a rule for a wrapper allows the inner command only if it names it", () => {
  const rule = (name: string, prefix: string) =>
    `  - name: ${name}\n    condition: 'tool == "bash" && (command == "${prefix}" || command.startsWith("${prefix} "))'\n    action: allow\n`;
  it("npx tsc:* allows npx tsc's tsc; npx:* and sudo:* never allow what they run", () => {
    const tsc = compile(user(`default_action: ask\nrules:\n${rule("tsc", "npx tsc")}`));
    expect(judge(tsc, "npx tsc --noEmit").action).toBe("allow");
    expect(judge(tsc, "npx evil").action).toBe("ask");
    expect(judge(tsc, "npx tsc-evil").action).toBe("ask");
    // The inner command's own concerns still need naming.
    expect(judge(tsc, "LD_PRELOAD=./e.so npx tsc").action).toBe("ask");
    const wrappers = compile(
      user(`default_action: ask\nrules:\n${rule("npx", "npx")}${rule("sudo", "sudo")}`),
    );
    for (const attack of ["npx evil", "sudo rm -rf x", "sudo ls"])
      expect(judge(wrappers, attack).action, attack).toBe("ask");
  });
});

describe("property: a command run in another filesystem root is never allowed (red team, round 5)", () => {
  it("any root-changing wrapper form, inner read-only command and prefix", () => {
    const wrapper = fc.constantFrom(
      "chroot .",
      "chroot --userspec=0:0 ./root",
      "chroot -- .",
      "sudo -R .",
      "sudo --chroot=.",
      "sudo --chr .",
      "unshare -R .",
      "unshare --root=.",
      "unshare --ro=.",
      "nsenter -m -t 1",
      "nsenter -at 1",
      "nsenter --mount=/proc/1/ns/mnt",
      "nsenter -r. -t 1",
    );
    const inner = fc.constantFrom("ls", "/bin/ls", "cat README.md", "./ls", "grep -n x f");
    fc.assert(
      fc.property(fc.constantFrom("", "env ", "nice ", "timeout 5 "), wrapper, inner, (pre, w, c) => {
        const command = `${pre}${w} ${c}`;
        expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
        const rooted = analyzeShell(command).units.some(
          (u) => u.kind === "exec" && u.notUnderstood?.reason.includes("another filesystem root") === true,
        );
        expect(rooted, command).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});
