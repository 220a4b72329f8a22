// Class: a script run by `sh` (dash on Debian and Ubuntu, bash as sh on macOS) or another shell,
// judged as if bash read it (red team, round 8). Each attack runs in real bash, whose `sh` here is
// dash 0.5.12; a script for sh is judged only when dash and bash read it alike, which generated
// scripts check against dash and bash themselves.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { dialectConcern } from "../../../../src/policy/shell/dialect.ts";
import { cleanBashRuns } from "./bash-proof.ts";
import { judge, READ_ONLY } from "./policies.ts";
import { has, provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const P = "touch PWNED";
/** bash reads `$'\'…'` as one ANSI-C string; dash reads `$`, then `'\'`, so the payload runs. */
const HIDDEN = `echo \\$'\\\\' ; ${P} ; # '`;
const KEY = { files: { ".env": "SECRET=hunter2\n", "~/.ssh/id_ed25519": "PRIVATE-KEY\n" } };

provenCases("scripts sh runs, read as bash", [
  { name: "sh -c with $'…' (the red team's)", command: `sh -c "${HIDDEN}"`, proof: "PWNED" },
  { name: "/bin/sh -c", command: `/bin/sh -c "${HIDDEN}"`, proof: "PWNED" },
  { name: "dash -c", command: `dash -c "${HIDDEN}"`, proof: "PWNED" },
  { name: "env sh -c", command: `env sh -c "${HIDDEN}"`, proof: "PWNED" },
  { name: "timeout sh -c", command: `timeout 5 sh -c "${HIDDEN}"`, proof: "PWNED" },
  { name: "xargs sh -c", command: `echo x | xargs sh -c "${HIDDEN}"`, proof: "PWNED" },
  { name: "find -exec sh -c", command: `find . -maxdepth 0 -exec sh -c "${HIDDEN}" \\;`, proof: "PWNED" },
  {
    name: "a quoted here-document fed to sh",
    command: `sh <<'EOF'\necho $'\\' ; ${P} ; # '\nEOF`,
    proof: "PWNED",
  },
  { name: "(( )) is two subshells to dash", command: `sh -c '((${P}))'`, proof: "PWNED" },
  {
    name: "[^n] matches n in dash",
    command: "sh -c 'cat .e[^n]v'",
    setup: KEY,
    proof: (r) => r.stdout.includes("hunter2"),
  },
  {
    name: "an assignment before a special builtin stays set in dash",
    command: "sh -c 'PATH=./bin:/usr/bin:/bin set -e; ls'",
    setup: { files: { "bin/ls": `#!/bin/sh\n${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "flock -c runs its string in $SHELL",
    command: `flock lock -c "${HIDDEN}"`,
    setup: { env: { SHELL: "/bin/sh" } },
    proof: "PWNED",
  },
  { name: "sg -c runs /bin/sh", command: `sg $(id -gn) -c "${HIDDEN}"`, needs: "sg", proof: "PWNED" },
  { name: "npx -c runs sh", command: `npx -c "${HIDDEN}"`, needs: "npx" },
  { name: "a brace expansion is a file name to dash", command: "sh -c 'cat {x,y}'" },
  { name: "~+ is a directory to bash only", command: "sh -c 'cat ~+/x'" },
  { name: "zsh -c with more than plain words", command: "zsh -c 'cat **/id_rsa'" },
  {
    name: "fish -c reads single quotes its own way",
    command: `fish -c "echo 'a\\\\'' ; cat ~/.netrc ; echo '\\\\''"`,
  },
  { name: "su -c runs the login shell", command: `su -c "${HIDDEN}" me` },
  { name: "env -S splits by its own rules", command: "env -S 'cat\\_.env'" },
]);

// bash in POSIX mode expands aliases in a script and keeps an assignment before a special builtin:
// every way into it asks (the option or the variable is a concern of its own).
provenCases("bash in POSIX mode", [
  { name: "bash --posix", command: `bash --posix -c $'alias t="${P}"\nt'`, proof: "PWNED" },
  { name: "bash -o posix", command: `bash -o posix -c $'alias t="${P}"\nt'`, proof: "PWNED" },
  { name: "set -o posix", command: `set -o posix; alias t="${P}"\nt`, proof: "PWNED" },
  { name: "POSIXLY_CORRECT", command: `POSIXLY_CORRECT=1 bash -c $'alias t="${P}"\nt'`, proof: "PWNED" },
]);

describe("what a script for sh may hold", () => {
  it.each([
    "ls -la",
    "npm test && echo ok",
    'for f in *.md; do wc -l "$f"; done',
    "cd src && grep -rn TODO .",
    'echo "$(date)" `pwd`',
    "test -f x || exit 1",
    "export A=1 B; ls",
    "f() { ls; }; f",
    "cat <<'EOF'\nhello\nEOF",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    "x=1; echo ${x:-2} ${#x}",
    "find . -name '*.ts' -exec wc -l {} +",
    // A declaration of a substitution's output reads alike (dash 0.5.11 on); quoted, commands may follow.
    "export A=$(id)",
    "ls && readonly A=$(git rev-parse HEAD)",
    'export A="$(id -u)"; echo "$A"',
  ])("understood: %j", (script) => {
    expect(dialectConcern(script, "sh")).toBeNull();
  });
  it.each([
    ["echo $'\\x41'", "bash-only"],
    ['echo $"x"', "bash-only"],
    ["[[ -f x ]]", "bash-only"],
    ["((x = 1))", "bash-only"],
    ["ls &> out", "bash-only"],
    ["let x=1", "bash-only"],
    ["declare -x A=1", "bash-only"],
    ["time ls", "bash-only"],
    ["x+=1", "bash-only"],
    ["export A=$(echo $'x')", "bash-only"],
    ["export A=$(id)$(id)", "bash-only"],
    ["export A=$(id); ls", "splits"],
    ["trap ls EXIT; export A=$(id)", "splits"],
    ["f() { export A=$(id); }; f; ls", "splits"],
    ["a=(1 2)", "POSIX"],
    ["cat <<< x", "POSIX"],
    ["diff <(ls) x", "POSIX"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    ["echo ${x//a/b}", "POSIX"],
    ["echo {a,b}", "brace"],
    ["echo x{1..3}", "brace"],
    ["ls .e[^n]v", "bash-only"],
    ["ls .[[=e=]]nv", "bash-only"],
    ["cat x=~/.netrc", "=~"],
    ["case x in [^a]) ls;; esac", "glob bracket"],
    ["cat ~+/x", "~+"],
    ["PATH=/tmp :", "special builtin"],
    ["IFS=/ export x", "special builtin"],
  ])("not understood: %j (%s)", (script, why) => {
    expect(dialectConcern(script, "sh")).toContain(why);
  });
  it("reads another shell's script only when it is a command of plain words", () => {
    const zsh = { other: "zsh reads its script in a language other than bash's" };
    expect(dialectConcern("ls -la src", zsh)).toBeNull();
    expect(dialectConcern("git status", zsh)).toBeNull();
    for (const script of ["ls *", "cat =ls", "ls; id", "echo 'a'", "ls | wc", "ls ~"])
      expect(dialectConcern(script, zsh), script).toContain("plain words");
  });
});

describe("the judge on scripts for sh", () => {
  it("allows everyday sh -c scripts, and never the red team's", () => {
    for (const command of ["sh -c 'ls -la'", "sh -c 'ls -la && echo ok'", "bash -c \"echo $'x'\""])
      expect(judge(READ_ONLY, command).action, command).toBe("allow");
    for (const command of [
      `sh -c "echo \\$'\\\\' ; cat ~/.ssh/id_ed25519 ; # '"`,
      `sh <<'EOF'\necho $'\\' ; cat ~/.netrc ; # '\nEOF`,
      `env sh -c "echo \\$'\\\\' ; cat ~/.netrc ; # '"`,
      `timeout 5 sh -c "echo \\$'\\\\' ; cat ~/.netrc ; # '"`,
    ]) {
      const r = judge(READ_ONLY, command);
      expect(r.action, command).not.toBe("allow");
      expect(r.reasons.join("\n")).toMatch(/sh \(dash/);
    }
  });
});

/** Runs a script in a shell with `t` on PATH, a program that prints its arguments; returns what was printed. */
function traced(shell: string, script: string, dir: string): string {
  const r = spawnSync(shell, ["-c", script], {
    cwd: dir,
    timeout: 5000,
    encoding: "utf8",
    env: { PATH: `${dir}/bin:/usr/bin:/bin`, HOME: dir, LANG: "C" },
  });
  // The output only: the two exit with different statuses on the same failure (a failed cd: 2 and 1).
  return r.stdout;
}

describe("scripts judged for sh read alike in dash and bash", () => {
  it.skipIf(!has("dash"))(
    "a generated script the judge reads for sh does the same in dash and in bash",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "airlock-dialect-"));
      try {
        spawnSync("mkdir", ["-p", `${dir}/bin`, `${dir}/sub`]);
        writeFileSync(`${dir}/bin/t`, "#!/bin/sh\nprintf '<%s>' \"$@\"; echo\n");
        chmodSync(`${dir}/bin/t`, 0o755);
        for (const f of [".env", "a.md", "b.md", "n"]) writeFileSync(`${dir}/${f}`, "");
        const command = fc.constantFrom(
          "t a",
          "t $'x\\ty'",
          't $"y"',
          "t {a,b}",
          't "q r"',
          "t 'q'",
          "[[ -n x ]] && t b",
          "((1)) && t c",
          "t c &>/dev/null",
          "x=1; t $x",
          "t .e[^n]v",
          "t *.md",
          "t ~+",
          "if true; then t d; fi",
          "case k in [^k]) t e;; *) t f;; esac",
          't "$(t g)"',
          "f() { t h; }; f",
          "t `t i`",
          "PATH=/x :",
          "x+=2; t $x",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
          "t ${#x}",
          "export y=1; t $y",
          "time t j",
          "let z=1; t $z",
          "t <<<k",
          "t .[[=e=]]nv",
          "cd sub && t $PWD",
          "t \"$'z'\"",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
          "t ${x:-'w'}",
          "t a\\ b",
          "t x=~/y",
          "t ~/z",
          "echo ok",
        );
        const sep = fc.constantFrom("; ", "\n", " && ", " || ");
        let compared = 0;
        fc.assert(
          fc.property(fc.array(fc.tuple(command, sep), { minLength: 1, maxLength: 4 }), (parts) => {
            const script = parts.map(([c, s], i) => (i === parts.length - 1 ? c : c + s)).join("");
            if (dialectConcern(script, "sh") !== null) return;
            compared++;
            expect(traced("dash", script, dir), script).toBe(traced("bash", script, dir));
          }),
          { numRuns: Number(process.env.DIALECT_RUNS ?? 300) },
        );
        expect(compared).toBeGreaterThan(30);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
