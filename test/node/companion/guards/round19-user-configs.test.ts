// Never (red team, round 19: r19-03..07, 12, 13, 21, 22, s01, s02, s05): a project file named by an absolute
// path (any spelling) in a user configuration file the per-program rows did not know — ~/.bash_completion,
// gpg-agent.conf's pinentry-program, a menu .desktop entry, ~/.screenrc, an rc file's `export BASH_ENV=…`,
// vim's plugin/ files, ~/.mavenrc, ~/.pdbrc, tmux's new-session, vim's `set shell=`, ~/.yarnrc.yml, … — was
// an ordinary write, and the program's next start ran it (proven for most: ~/.netrc copied out). Every user
// configuration file is now read for the paths it names (user-config-scan.ts); these writes ask, while a
// home naming the workspace itself (`cd ~/proj`, `export PROJ=~/proj`) leaves the project writable.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, write } from "./disk-fixture.ts";
import { expectWritesAllowed, expectWritesAsk, judgeWrite } from "./judge-write.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt19-configs-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A case: the configuration files (relative to HOME; `P` is the workspace's absolute path) and the write. */
interface Case {
  id: string;
  files: Record<string, string>;
  writes: string[];
}

const CASES: Case[] = [
  {
    id: "r19-03 ~/.bash_completion",
    files: { ".bash_completion": ". P/tools/u18.sh\n" },
    writes: ["tools/u18.sh"],
  },
  {
    id: "r19-04 gpg-agent.conf",
    files: { ".gnupg/gpg-agent.conf": "default-cache-ttl 600\npinentry-program P/tools/u6.sh\n" },
    writes: ["tools/u6.sh"],
  },
  {
    id: "r19-05 menu .desktop entry",
    files: {
      ".local/share/applications/x.desktop": "[Desktop Entry]\nType=Application\nExec=P/tools/u11.sh %F\n",
    },
    writes: ["tools/u11.sh"],
  },
  { id: "r19-06 ~/.screenrc", files: { ".screenrc": "source P/tools/u10.sh\n" }, writes: ["tools/u10.sh"] },
  {
    id: "r19-07 rc exports",
    files: {
      ".bashrc": [
        "export BASH_ENV=~/proj/tools/v1.sh",
        'export NODE_OPTIONS="--require $HOME/proj/tools/v2.js"',
        "export XDG_CONFIG_HOME=~/proj/cfg",
        "export GIT_CONFIG_GLOBAL=$" + "{HOME}/proj/tools/v7.gitconfig",
        "",
      ].join("\n"),
    },
    writes: ["tools/v1.sh", "tools/v2.js", "cfg/git/config", "tools/v7.gitconfig"],
  },
  {
    id: "r19-12 vim plugin files",
    files: {
      ".vim/plugin/work.vim": "source P/tools/y3.sh\n",
      ".vim/ftplugin/python.vim": "source P/tools/y7.sh\n",
      ".config/nvim/plugin/w.lua": 'dofile("P/tools/y8.sh")\n',
    },
    writes: ["tools/y3.sh", "tools/y7.sh", "tools/y8.sh"],
  },
  {
    id: "r19-13 other start-up files",
    files: {
      ".mavenrc": ". P/tools/z1.sh\n",
      ".pdbrc": 'exec(open("P/tools/z4.py").read())\n',
      ".sqliterc": ".read P/tools/z2.sql\n",
      ".irbrc": 'load "~/proj/tools/z5.rb"\n',
      ".ghci": ":script ~/proj/tools/z6.ghci\n",
      ".julia/config/startup.jl": 'include("P/tools/z7.jl")\n',
      ".config/gh/config.yml": "git_protocol: https\npager: ~/proj/tools/z8.sh\n",
      ".config/Code/User/settings.json": JSON.stringify({
        "editor.fontSize": 13,
        "terminal.integrated.env.linux": { BASH_ENV: "P/tools/z9.sh" },
        "python.defaultInterpreterPath": "~/proj/tools/py",
      }),
    },
    writes: [
      ...["tools/z1.sh", "tools/z4.py", "tools/z2.sql", "tools/z5.rb", "tools/z6.ghci", "tools/z7.jl"],
      ...["tools/z8.sh", "tools/z9.sh", "tools/py"],
    ],
  },
  {
    id: "r19-21 tmux new-session",
    files: { ".tmux.conf": "set -g mouse on\nnew-session -d 'P/tools/m10.sh'\n" },
    writes: ["tools/m10.sh"],
  },
  {
    id: "r19-22 vim program options",
    files: {
      ".vimrc":
        "set shell=P/tools/n2.sh\nset makeprg=P/tools/n3.sh\nlet g:python3_host_prog = 'P/tools/n5.sh'\n",
    },
    writes: ["tools/n2.sh", "tools/n3.sh", "tools/n5.sh"],
  },
  {
    id: "s01 yarnrc, mailcap, xprofile, direnvrc, starship, hgrc",
    files: {
      ".yarnrc.yml": "yarnPath: P/tools/u8.cjs\n",
      ".mailcap": "text/html; P/tools/u9.sh %s; copiousoutput\n",
      ".xprofile": "P/tools/u15.sh &\n",
      ".config/direnv/direnvrc": "source_env ~/proj/tools/u16.sh\n",
      ".config/starship.toml": '[custom.x]\ncommand = "P/tools/u17.sh"\nwhen = true\n',
      ".hgrc": "[hooks]\ncommit = P/tools/u19.sh\n[ui]\nmerge = ~/proj/tools/u22.sh\n",
    },
    writes: ["tools/u8.cjs", "tools/u9.sh", "tools/u15.sh", "tools/u16.sh", "tools/u17.sh", "tools/u19.sh"],
  },
  {
    id: "s02 ~/.profile, environment.d, ~/.npmrc prefix",
    files: {
      ".profile": "export BASH_ENV=$HOME/proj/tools/p1.sh\n",
      ".config/environment.d/x.conf": "BASH_ENV=P/tools/p2.sh\n",
      ".npmrc": "prefix=P/npmg\n",
    },
    writes: ["tools/p1.sh", "tools/p2.sh", "npmg/bin/tsc"],
  },
  {
    id: "s05 fish",
    files: {
      ".config/fish/config.fish":
        "set -p fish_function_path ~/proj/ff\nset -gx BASH_ENV ~/proj/tools/f1.sh\nalias g ~/proj/tools/f2.sh\n",
    },
    writes: ["ff/ls.fish", "tools/f1.sh", "tools/f2.sh"],
  },
  {
    id: "brace and glob spellings",
    files: { ".zshenv": "for f in ~/proj/rc/{a,b}.zsh; do . $f; done\nsource ~/proj/rc.d/*.zsh\n" },
    writes: ["rc/a.zsh", "rc/b.zsh", "rc.d/x.zsh"],
  },
];

let homes = 0;
/** A fresh home holding `files` and its workspace `~/proj` (a git repository). */
function homeWith(files: Record<string, string>): { home: string; ws: string } {
  const home = join(base, `h${homes++}`);
  const ws = join(home, "proj");
  mkdirSync(ws, { recursive: true });
  git(ws, "init", "-q");
  write(join(ws, "README.md"), "# proj\n");
  for (const [rel, text] of Object.entries(files)) write(join(home, rel), text.replaceAll("P/", `${ws}/`));
  return { home, ws };
}

describe("round 19: project files any user configuration file names by path", () => {
  for (const c of CASES)
    it(`${c.id}: each named file asks under either starter, and is writable under a plain home`, () => {
      const { home, ws } = homeWith(c.files);
      expectWritesAsk(ws, home, c.writes, { because: /user's configuration|user's own configuration/ });
      const plain = homeWith({});
      expectWritesAllowed(plain.ws, plain.home, c.writes);
      // The rest of the project stays writable.
      expect(judgeWrite(ws, home, "src/app.ts").action).toBe("allow");
    });

  it("names the configuration file that names the written one", () => {
    const { home, ws } = homeWith({ ".gnupg/gpg-agent.conf": "pinentry-program P/tools/u6.sh\n" });
    expect(judgeWrite(ws, home, "tools/u6.sh").why).toContain("~/.gnupg/gpg-agent.conf");
  });
});

describe("the over-ask boundary: the workspace itself, or above it, named", () => {
  const { home, ws } = homeWith({
    ".bashrc": [
      "alias app='cd ~/proj'",
      "alias src='cd ~/proj/src'",
      "export PROJ=~/proj",
      "export CODE=$HOME",
      "CDPATH=.:~:~/proj",
      "",
    ].join("\n"),
    ".gitconfig": '[safe]\n\tdirectory = P\n[includeIf "gitdir:~/proj/"]\n\tpath = ~/.gitconfig-work\n',
    ".config/Code/User/History/-4f1a/entries.json": JSON.stringify({ resource: "file://P/src/app.ts" }),
    ".config/Code/User/workspaceStorage/ab/workspace.json": JSON.stringify({ folder: "file://P/src" }),
    ".vim/view/~=+proj=+src=+app.ts=": "edit ~/proj/src/app.ts\n",
    ".bash_history": "vim ~/proj/src/app.ts\n",
    ".config/gtk-3.0/bookmarks": "file://P/src src\n",
  });

  it("writes anywhere in the project stay allowed", () => {
    expectWritesAllowed(ws, home, [
      "src/app.ts",
      "src/lib/util.ts",
      "README.md",
      "package.json",
      "tools/build.sh",
    ]);
  });
});

describe("the named path as the disk resolves it, and the bounds", () => {
  it("a path through a link into the project, and a link made in the project after the scan", () => {
    const { home, ws } = homeWith({
      ".screenrc": "source ~/link/u1.sh\n",
      ".xinitrc": "exec ~/proj/cfg/u2.sh\n",
    });
    symlinkSync(join(ws, "tools"), join(home, "link"));
    expect(judgeWrite(ws, home, "tools/u1.sh").action).not.toBe("allow");
    expect(judgeWrite(ws, home, "other/u2.sh").action).toBe("allow");
    mkdirSync(join(ws, "other"));
    symlinkSync(join(ws, "other"), join(ws, "cfg"));
    expect(judgeWrite(ws, home, "other/u2.sh").action).not.toBe("allow");
  });

  it("past the size bound a text file is not skipped: writes ask; a large binary file is left out", () => {
    const big = homeWith({ ".config/app/big.conf": "x = 1\n".repeat(200_000) });
    const r = judgeWrite(big.ws, big.home, "src/app.ts");
    expect(r.action).not.toBe("allow");
    expect(r.why).toMatch(/could not all be read/);
    const bin = homeWith({});
    write(join(bin.home, ".config", "app", "data.bin"), "");
    writeFileSync(join(bin.home, ".config", "app", "data.bin"), Buffer.alloc(2_000_000, 0));
    expect(judgeWrite(bin.ws, bin.home, "src/app.ts").action).toBe("allow");
  });
});
