// Never (red team, round 19: r19-15, -16, -18, -19, -20, -23, -24, -25, -26, s03 and r19-08's bashrc line):
// shell spellings the start-up-file and hook-file readers did not understand, so writing the project file
// they run was an ordinary edit, and the next shell start or `git commit` ran it (proven: ~/.netrc copied
// out). Each write asks now, under either starter; the same writes under a home naming nothing, and an
// everyday rc's ordinary project writes, stay allowed.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, it } from "vitest";
import { git, write } from "./disk-fixture.ts";
import { expectWritesAllowed, expectWritesAsk } from "./judge-write.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt19-shell-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, "home");
const ws = join(home, "proj");
mkdirSync(ws, { recursive: true });
write(join(ws, "README.md"), "# proj\n");
git(ws, "init", "-q");

const written: string[] = [];
afterEach(() => {
  for (const f of written.splice(0)) rmSync(f, { recursive: true, force: true });
});
/** Files of the home (or the workspace's .git / .husky) for one test, removed after it. */
function given(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    write(path, text);
    chmodSync(path, 0o755);
    written.push(path);
  }
}

const expectAsks = (rels: string[]) => expectWritesAsk(ws, home, rels);
const expectAllowed = (rels: string[]) => expectWritesAllowed(ws, home, rels);

const bashrc = (lines: string[]) => given({ [join(home, ".bashrc")]: `${lines.join("\n")}\n` });

describe("round 19: shell spellings in start-up files and hook files", () => {
  // Asks on main already (r19-01's cd-relative paths); kept beside the rest of round 19's spellings.
  it("r19-15: PROMPT_COMMAND's `cd DIR && ./x` runs DIR's x before every prompt", () => {
    bashrc(['PROMPT_COMMAND="cd ~/proj/tools && ./a3.sh; cd - >/dev/null"']);
    expectAsks(["tools/a3.sh"]);
  });

  it("r19-16: a build runner given the project directory runs its build file", () => {
    bashrc(["make -s -C ~/proj motd", "npm --prefix ~/proj run -s motd", "go run ~/proj/cmd/motd"]);
    expectAsks(["Makefile", "package.json", "cmd/motd/main.go"]);
  });

  it("r19-16: a runner without a directory, on a start-up file's own line, runs the build file of wherever the shell starts", () => {
    bashrc(["make -s motd"]);
    expectAsks(["Makefile", "sub/Makefile"]);
  });

  it("r19-18: a project file fed to a shell as text, or a directory whose files all run", () => {
    bashrc([
      "run-parts ~/proj/startup.d",
      'eval "$(cat ~/proj/k/e1.sh)"',
      "bash < ~/proj/k/e2.sh",
      "cat ~/proj/k/e6.sh | bash",
      "source /dev/stdin < ~/proj/k/e3.sh",
      "sh -s < ~/proj/k/e4.sh",
      ". /dev/fd/0 < ~/proj/k/e5.sh",
      "source <(cat ~/proj/k/e7.sh)",
      "find ~/proj/init -name '*.sh' -exec sh {} \\;",
      "xargs -a ~/proj/k/list -n1 sh",
    ]);
    expectAsks([
      "startup.d/x",
      "init/a.sh",
      ...["e1", "e2", "e3", "e4", "e5", "e6", "e7"].map((e) => `k/${e}.sh`),
    ]);
  });

  it("r19-19: brace expansion in a sourced, looped or run path", () => {
    bashrc([
      'for f in ~/proj/tools/{q9,q10}.sh; do . "$f"; done',
      ". ~/proj/tools/{q11,q12}.sh",
      "source ~/proj/tools/q1{3,4}.sh",
      "~/proj/tools/{q15,q16}.sh",
    ]);
    expectAsks(["q10", "q11", "q13", "q15"].map((q) => `tools/${q}.sh`));
  });

  it("r19-20: `source -- F`, a here-document given to a shell, a file opened on a descriptor and sourced", () => {
    bashrc([
      "source -- ~/proj/tools/h8.sh",
      "bash <<EOF",
      "~/proj/tools/h1.sh",
      "EOF",
      "exec 3< ~/proj/tools/h14.sh; . /dev/fd/3",
    ]);
    expectAsks(["tools/h8.sh", "tools/h1.sh", "tools/h14.sh"]);
  });

  it("r19-23: `command source F` and `builtin . F`", () => {
    bashrc(["command source ~/proj/tools/o7.sh", "builtin . ~/proj/tools/o10.sh"]);
    expectAsks(["tools/o7.sh", "tools/o10.sh"]);
  });

  it("r19-24: zsh's `fpath=(DIR …)`, `path=(DIR $path)` and a glob qualifier on a sourced name", () => {
    given({
      [join(home, ".zshrc")]:
        "fpath=(~/proj/zfunc $fpath)\nautoload -Uz myfn\npath=(~/proj/bin $path)\nsource ~/proj/tools/z1.zsh(N)\n",
    });
    expectAsks(["zfunc/myfn", "bin/ls", "tools/z1.zsh"]);
  });

  it("r19-25: a global core.hooksPath hook running a script relative to the work tree's top", () => {
    given({
      [join(home, ".gitconfig")]: "[core]\n\thooksPath = ~/.githooks\n",
      [join(home, ".githooks", "pre-commit")]:
        '#!/bin/sh\n[ -x ./scripts/pre-commit.sh ] && exec ./scripts/pre-commit.sh "$@"\n',
    });
    expectAsks(["scripts/pre-commit.sh"]);
  });

  it("r19-26: a repository hook naming scripts from the top, a variable, its own directory, or after a cd", () => {
    given({
      [join(ws, ".git", "hooks", "pre-commit")]: [
        "#!/bin/sh",
        "(cd scripts && ./hk1.sh)",
        'ROOT=$(git rev-parse --show-toplevel); "$ROOT/scripts/hk3.sh"',
        'exec "$(git rev-parse --show-toplevel)/scripts/hk2.sh"',
        "",
      ].join("\n"),
      [join(ws, ".husky", "pre-commit")]:
        '"$(dirname -- "$0")/../scripts/hz1.sh"\n"$(git rev-parse --show-toplevel)/scripts/hz2.sh"\n',
    });
    expectAsks(["hk1", "hk2", "hk3", "hz1", "hz2"].map((h) => `scripts/${h}.sh`));
  });

  it("s03: a program run from the shell's own directory by `$(pwd)/…`", () => {
    bashrc(['[ -x "$(pwd)/bin/pw" ] && "$(pwd)/bin/pw"']);
    expectAsks(["bin/pw"]);
  });

  // r19-08's bashrc line asks on main already (r19-01); its vim and tmux parts are fix20c's.
  it("r19-08: a program run from the shell's own directory by `./…`", () => {
    bashrc(["[ -x ./bin/hello ] && ./bin/hello"]);
    expectAsks(["bin/hello"]);
  });

  it("the same writes stay allowed under a home that names none of them", () => {
    bashrc(["alias ll='ls -la'"]);
    expectAllowed([
      "tools/a3.sh",
      "Makefile",
      "package.json",
      "k/e1.sh",
      "tools/q10.sh",
      "scripts/hk1.sh",
      "bin/pw",
    ]);
  });

  it("an everyday rc (nvm, oh-my-zsh, conda, pyenv, starship, direnv, fzf, aliases of runners) asks for no project write", () => {
    bashrc([
      'export NVM_DIR="$HOME/.nvm"',
      '[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"',
      '[ -s "$NVM_DIR/bash_completion" ] && \\. "$NVM_DIR/bash_completion"',
      "__conda_setup=\"$('/home/u/miniconda3/bin/conda' 'shell.bash' 'hook' 2> /dev/null)\"",
      'if [ $? -eq 0 ]; then eval "$__conda_setup"; fi',
      'eval "$(pyenv init -)"',
      'eval "$(starship init bash)"',
      'eval "$(direnv hook bash)"',
      "[ -f ~/.fzf.bash ] && source ~/.fzf.bash",
      'eval "$(fzf --bash)"',
      "source <(kubectl completion bash)",
      "alias m='make -j8' nr='npm run' t='npm test'",
      'export PATH="$HOME/.local/bin:$PATH"',
    ]);
    // nvm.sh's functions build node with `make` and `npm install` only when `nvm install` is called.
    given({
      [join(home, ".nvm", "nvm.sh")]:
        'nvm_install_source() {\n  command make -j2 "$MAKE_CXX"\n  (cd "$dir" && make install)\n  npm install -g npm\n}\nnvm() { nvm_install_source; }\n',
      [join(home, ".zshrc")]:
        'export ZSH="$HOME/.oh-my-zsh"\nplugins=(git)\nsource $ZSH/oh-my-zsh.sh\nfpath=($ZSH/custom/completions $fpath)\nautoload -Uz compinit && compinit\n',
    });
    expectAllowed(["README.md", "src/app.ts", "package.json", "Makefile", "tools/other.sh", "bin/tool"]);
  });
});
