// Class: "read-only" programs with options that write, run or escape, and the table that lists
// them; git's subcommands and options; find, sed, awk, tar.
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import { scanAwk } from "../../../../src/policy/shell/awk-program.ts";
import { FILE_PROGRAMS } from "../../../../src/policy/shell/file-programs.ts";
import { RISKY_OPTIONS } from "../../../../src/policy/shell/risky-options.ts";
import { scanSed } from "../../../../src/policy/shell/sed-script.ts";
import { cleanBashRuns } from "./bash-proof.ts";
import { judge, READ_ONLY } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const P = "touch PWNED";
const REPO = "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x && ";
const CHANGED = `${REPO}echo a > f && git add f && git -c user.email=a@b -c user.name=a commit -qm f && echo b > f && `;

provenCases("read-only git that writes or runs", [
  { name: "git log --output", command: `${REPO}git log --output=PWNED`, proof: "PWNED" },
  // git takes no abbreviation here, but other programs do: the engine treats a prefix as the option.
  { name: "git log --output abbreviated", command: `${REPO}git log --outp=PWNED` },
  { name: "git diff --output", command: `${CHANGED}git diff --output PWNED`, proof: "PWNED" },
  {
    name: "git diff --no-index reads any file",
    command: "git diff --no-index ~/.bash_history /dev/null",
    setup: { files: { "~/.bash_history": "TOPSECRET\n" } },
    proof: (run) => run.stdout.includes("TOPSECRET"),
  },
  {
    name: "--ext-diff",
    command: `${CHANGED}git -c diff.external='${P};:' log -p --ext-diff`,
    proof: "PWNED",
  },
  {
    name: "--textconv",
    command: `${CHANGED}echo 'f diff=t' > .gitattributes && git -c diff.t.textconv='${P};cat' diff --textconv`,
    proof: "PWNED",
  },
  {
    name: "-c core.pager (on a terminal)",
    command: `${REPO}git -c core.pager='${P};cat' log`,
    tty: true,
    needs: "script",
    proof: "PWNED",
  },
  {
    name: "-c core.fsmonitor",
    command: `${CHANGED}git -c core.fsmonitor='${P};false' status`,
    proof: "PWNED",
  },
  {
    name: "git grep --open-files-in-pager",
    command: `${CHANGED}git grep --open-files-in-pager='${P};:' b`,
    proof: "PWNED",
  },
  { name: "git grep -O", command: `${CHANGED}git grep -O'${P};:' b`, proof: "PWNED" },
  {
    name: "git -C another repository's config",
    command: `mkdir o && cd o && git init -q && git config core.fsmonitor '${P};false' && cd .. && git -C o status`,
    proof: "o/PWNED",
  },
]);

provenCases("other read-only programs with writing or running options", [
  { name: "sort -o", command: "sort -o PWNED /dev/null", proof: "PWNED" },
  { name: "sort --output abbreviated", command: "sort --out=PWNED /dev/null", proof: "PWNED" },
  {
    name: "sort --compress-program",
    command: `sort --compress-program=./x -S 1 --batch-size=2 /dev/null`,
    proof: () => true,
  },
  { name: "uniq IN OUT", command: "uniq /dev/null PWNED", proof: "PWNED" },
  {
    name: "rg --pre",
    command: "rg --pre ./x foo",
    setup: { stubs: ["rg"] },
    proof: (r) => r.calls.includes("rg --pre ./x foo"),
  },
  {
    name: "tree -o",
    command: "tree -o PWNED",
    setup: { stubs: ["tree"] },
    proof: (r) => r.calls.includes("tree -o PWNED"),
  },
  {
    name: "date -s",
    command: "date -s 2000-01-01",
    setup: { stubs: ["date"] },
    proof: (r) => r.calls.includes("date -s 2000-01-01"),
  },
  {
    name: "date MMDDhhmm",
    command: "date 01010000",
    setup: { stubs: ["date"] },
    proof: (r) => r.calls.includes("date 01010000"),
  },
  { name: "find -exec", command: `find . -maxdepth 0 -exec ${P} \\;`, proof: "PWNED" },
  { name: "find -execdir", command: `find . -maxdepth 0 -execdir ${P} \\;`, proof: "PWNED" },
  { name: "find -fprint", command: "find . -maxdepth 0 -fprint PWNED", proof: "PWNED" },
  {
    name: "find -delete",
    command: "find . -name keep -delete",
    setup: { files: { keep: "" } },
    proof: (r) => !r.exists("keep"),
  },
  {
    name: "find -exec sh -c with {} spliced in",
    command: `find . -name 'x*' -exec sh -c 'echo {}' \\;`,
    setup: { files: { "x;touch PWNED": "" } },
    proof: "PWNED",
  },
  // A placed write in the workspace: `balanced` allows the edit, as it does `> f` (danger read-only).
  {
    name: "sed -i",
    command: "sed -i s/a/b/ f",
    setup: { files: { f: "a\n" } },
    proof: (r) => r.exists("f"),
    danger: "read-only",
  },
  { name: "sed e command", command: `echo x | sed '1e ${P}'`, proof: "PWNED" },
  { name: "sed s///e", command: `echo '${P}' | sed 's/P/P/e'`, proof: "PWNED" },
  { name: "sed w", command: "echo x | sed 'w PWNED'", proof: "PWNED", danger: "read-only" },
  { name: "awk system()", command: `awk 'BEGIN { system("${P}") }'`, proof: "PWNED" },
  { name: "awk print to a pipe", command: `awk 'BEGIN { print "" | "${P}" }'`, proof: "PWNED" },
  { name: "awk print > file", command: `awk 'BEGIN { print "x" > "PWNED" }'`, proof: "PWNED" },
  {
    name: "tar --to-command",
    command: `tar cf a.tar f && tar xf a.tar --to-command='${P}'`,
    setup: { files: { f: "x" } },
    proof: "PWNED",
  },
  { name: "tar -I", command: `tar -I '${P};cat' -cf a.tar f`, setup: { files: { f: "x" } }, proof: "PWNED" },
  {
    name: "tar --checkpoint-action",
    command: `tar cf a.tar --checkpoint=1 --checkpoint-action=exec='${P}' f`,
    setup: { files: { f: "x" } },
    proof: "PWNED",
  },
  {
    name: "tar extract writes files",
    command: "tar cf ../a.tar PWNED && rm PWNED && tar xf ../a.tar",
    setup: { files: { PWNED: "" } },
    proof: "PWNED",
  },
  {
    name: "tar with a glob that names an option",
    command: "tar cf a.tar *",
    setup: { files: { [`--checkpoint-action=exec=${P}`]: "", "--checkpoint=1": "", f: "x" } },
    proof: "PWNED",
  },
  {
    name: "rsync -e",
    command: `rsync -e './x' f host:/tmp`,
    setup: { stubs: ["rsync"] },
    proof: (r) => r.calls.length === 1,
  },
  { name: "ssh -o ProxyCommand", command: `ssh -o ProxyCommand='${P}' x`, needs: "ssh", proof: "PWNED" },
  {
    name: "less +!",
    command: "less '+!touch PWNED' f",
    setup: { stubs: ["less"] },
    proof: (r) => r.calls.length === 1,
  },
  {
    name: "zip -TT",
    command: `zip -T -TT '${P};:' a.zip f`,
    setup: { stubs: ["zip"] },
    proof: (r) => r.calls.length === 1,
  },
]);

describe("the risky-option table", () => {
  it("every option says what it does and is a write, a run or an escape", () => {
    for (const [program, options] of Object.entries(RISKY_OPTIONS))
      for (const [option, o] of Object.entries(options)) {
        expect(["write", "exec", "escape"], `${program} ${option}`).toContain(o.risk);
        expect(o.why.length, `${program} ${option}`).toBeGreaterThan(8);
        if (o.file) expect(o.value, `${program} ${option}`).toBe(true);
      }
  });
  it.each([
    ["sort -o out.txt in.txt", "write", "out.txt"],
    ["sort --output=out.txt in.txt", "write", "out.txt"],
    ["sort -oout.txt in.txt", "write", "out.txt"],
    ["shuf -o out.txt in.txt", "write", "out.txt"],
    ["tree -o out.txt", "write", "out.txt"],
    ["iconv -f a -t b -o out.txt in.txt", "write", "out.txt"],
    ["curl -o out.txt https://x.test", "write", "out.txt"],
    ["wget -O out.txt https://x.test", "write", "out.txt"],
    ["uniq in.txt out.txt", "write", "out.txt"],
    ["xxd in.bin out.hex", "write", "out.hex"],
    ["tee out.txt", "write", "out.txt"],
    ["sed -i s/a/b/ f.txt", "write", "f.txt"],
    ["git log --output=out.txt", "write", "out.txt"],
    ["git format-patch -o patches HEAD~1", "write", "patches"],
    ["find . -fprint out.txt", "write", "out.txt"],
    ["dd if=in.bin of=out.bin", "write", "out.bin"],
  ])("%s writes %s", (command, kind, path) => {
    expect(analyzeShell(command).units).toContainEqual(expect.objectContaining({ kind, path }));
    expect(judge(READ_ONLY, command).action).not.toBe("allow");
  });
  it.each([
    "rg --pre=./x foo",
    "rg --hostname-bin ./x foo",
    "sort --compress-program=gzip x",
    "date -s 2000-01-01",
    "date --set=2000-01-01",
    "ag --pager ./x foo",
    "bat --pager ./x f",
    "ack --pager=./x foo",
    "split --filter='./x' f",
    "ssh -o ProxyCommand=./x host",
    "scp -S ./x f host:/tmp",
    "rsync --rsh=./x f host:/tmp",
    "tar --to-command=./x -xf a.tar",
    "tar --use-compress-program=./x -cf a.tar f",
    "zip -TT ./x a.zip f",
    "man -P ./x ls",
    "less -k keys f",
    "git -c core.pager=./x log",
    "git --config-env=core.pager=X log",
    "git --git-dir=/tmp/evil/.git status",
    "git --exec-path=/tmp/evil status",
    "git log -p --ext-diff",
    "git show --textconv HEAD",
    "git cat-file --filters HEAD:f",
    "git grep -O./x foo",
    "git clone -u ./x repo",
    "git fetch --upload-pack=./x origin",
    "git rebase -x ./x main",
    "git rebase --exec=./x main",
    "git bisect run ./x",
    "git submodule foreach ./x",
    "git clone --config core.fsmonitor=./x repo",
    "git init --template=/tmp/hooks",
    "git credential fill",
    "git config core.pager ./x",
    "gawk -l ./evil 'BEGIN{}'",
    "awk -f prog.awk f",
    "sed -f prog.sed f",
    "hostname evil",
  ])("%s needs a person under the read-only policy", (command) => {
    const r = judge(READ_ONLY, command);
    expect(r.action, r.reasons.join("\n")).not.toBe("allow");
  });
  it("options after the operands count too (GNU argument order)", () => {
    expect(judge(READ_ONLY, "sort in.txt -o out.txt").action).toBe("ask");
    expect(judge(READ_ONLY, "git log HEAD --output=x").action).toBe("ask");
  });
  it("a dynamic or glob word where an option could be needs a person", () => {
    expect(judge(READ_ONLY, "sort $OPTS in.txt").action).toBe("ask");
    expect(judge(READ_ONLY, "git log $ARG").action).toBe("ask");
    expect(judge(READ_ONLY, "tar cf a.tar *").action).toBe("ask");
    // After `--` no word is an option; `*.md` only names documents.
    expect(judge(READ_ONLY, "sort -- *.md").action).toBe("allow");
  });
  it("the plain uses stay allowed", () => {
    for (const command of [
      "git status",
      "git log --oneline -5",
      "git diff HEAD~1 -- src/a.ts",
      "git show HEAD:README.md",
      "git branch -a",
      "sort README.md",
      "uniq README.md",
      "grep -n foo src/a.ts",
      "sed -n 1,5p README.md",
      "awk '{ print $1 }' README.md",
      "awk -F: '$3 > 100 { print $1 }' README.md",
      "find src -name '*.ts'",
      "head -n 20 README.md",
      "tail -f -n 5 README.md",
      "date +%s",
      "cut -d: -f1 README.md",
      "jq .name package.json",
      "xxd README.md",
      "tar tf archive.tar",
    ]) {
      const r = judge(READ_ONLY, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });
  it("file programs list their value options exactly (a wrong one would hide a file operand)", () => {
    // `-n 5` takes a value; `-r` does not: `grep -r x f` still reads f.
    expect(analyzeShell("head -n 5 f").units).toContainEqual(
      expect.objectContaining({ kind: "read", path: "f" }),
    );
    expect(analyzeShell("grep -r x f").units).toContainEqual(
      expect.objectContaining({ kind: "read", path: "f", recursive: true }),
    );
    for (const [name, spec] of Object.entries(FILE_PROGRAMS))
      for (const key of Object.keys(spec.values ?? {})) expect(key, name).toMatch(/^-{1,2}[A-Za-z0-9-]+$/);
  });
});

describe("sed and awk scripts", () => {
  it.each([
    ["s/a/b/", []],
    ["1,5p", []],
    ["/x/d; s/a/b/g", []],
    ["s/a/b/e", ["exec"]],
    ["1e ls", ["exec"]],
    ["w out", ["write"]],
    ["s/a/b/w out", ["write"]],
    ["r /etc/passwd", ["read"]],
    ["$!N; s/\\n/ /", []],
    ["y/abc/xyz/", []],
    ["/start/,/end/{ s/a/b/; p }", []],
    ["a\\\nappended text with e and w", []],
  ])("sed %j finds %j", (script, risks) => {
    expect((scanSed(script) ?? [{ risk: "unknown" }]).map((f) => f.risk)).toEqual(risks);
  });
  it.each([
    ["{ print $1 }", []],
    ['$3 > 100 { print "a|b" }', []],
    ['BEGIN { system("ls") }', ["exec"]],
    ['{ print | "sort" }', ["exec"]],
    ['"date" | getline d', ["exec"]],
    ['{ print > "out" }', ["write"]],
    ['BEGIN { getline l < "/etc/passwd" }', ["read"]],
    ['BEGIN { print ENVIRON["HOME"] }', ["read"]],
    ["/a|b/ { print }", []],
  ])("awk %j finds %j", (program, risks) => {
    expect((scanAwk(program) ?? [{ risk: "unknown" }]).map((f) => f.risk)).toEqual(risks);
  });
});
