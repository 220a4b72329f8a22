// Names relative to the directory a program starts in, as a property (red team round 19, r19-08..r19-10,
// r19-22): any followed program configuration with a random relative name in a position that runs,
// sources or reads it as configuration, among everyday lines, makes a write of that name in a random
// workspace not allowed; and the references name it below any directory before the judge sees them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { type Reference, referencePattern, sshReferences } from "../../../../src/policy/path-references.ts";
import { type ProgramFormat, programReferences } from "../../../../src/policy/program-configs.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { judgeOnDisk, write } from "./disk-fixture.ts";

type Format = ProgramFormat | "ssh";

/** Per program: where its user file lives, the positions (N: the name), and everyday lines to mix in. */
const PROGRAMS: Record<string, { file: string; positions: string[]; everyday: string[] }> = {
  vim: {
    file: ".vimrc",
    positions: [
      "source N",
      "silent! so N",
      "luafile N",
      "py3file N",
      "autocmd BufWritePost * silent !./N",
      "nnoremap <F5> :!./N<CR>",
      "set shell=./N",
      "set makeprg=./N",
      "let g:python3_host_prog = './N'",
      "call system('./N')",
    ],
    everyday: ["set number", "Plug 'tpope/vim-fugitive'", "set undodir=~/.vim/undo", "source ~/.vim/x.vim"],
  },
  tmux: {
    file: ".tmux.conf",
    positions: [
      "source-file -q N",
      "source N",
      "run-shell ./N",
      'if-shell true "run-shell ./N"',
      "set -g default-command ./N",
    ],
    everyday: ["set -g mouse on", "set -g @plugin 'tmux-plugins/tpm'", "run '~/.tmux/plugins/tpm/tpm'"],
  },
  npm: {
    file: ".npmrc",
    positions: ["script-shell=./N", "node-options=--require ./N", "init-module=N"],
    everyday: ["registry=https://registry.npmjs.org/", "save-exact=true"],
  },
  emacs: {
    file: ".emacs.d/init.el",
    positions: ['(load-file "N")', '(shell-command "./N")'],
    everyday: ["(setq inhibit-startup-screen t)", '(load "~/.emacs.d/x")'],
  },
  psql: { file: ".psqlrc", positions: ["\\i N", "\\! ./N"], everyday: ["\\set QUIET 1", "\\timing on"] },
  gdb: { file: ".gdbinit", positions: ["source N", "shell ./N"], everyday: ["set pagination off"] },
  r: {
    file: ".Rprofile",
    positions: ['source("N")', 'system("./N")'],
    everyday: ['options(repos = c(CRAN = "https://cloud.r-project.org"))'],
  },
  ipython: {
    file: ".ipython/profile_default/ipython_config.py",
    positions: ["c.InteractiveShellApp.exec_files = ['N']", "c.InteractiveShellApp.exec_lines = ['%run N']"],
    everyday: ["c.TerminalIPythonApp.display_banner = False"],
  },
  kitty: { file: ".config/kitty/kitty.conf", positions: ["shell ./N"], everyday: ["font_size 12.0"] },
  inputrc: { file: ".inputrc", positions: ["$include N"], everyday: ["set editing-mode vi"] },
  ssh: {
    file: ".ssh/config",
    positions: ["  ProxyCommand ./N %h %p", "  LocalCommand ./N", 'Match exec "./N"'],
    everyday: ["Host *", "  ServerAliveInterval 60", "  IdentityFile ~/.ssh/id_ed25519"],
  },
};

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,7}$/).filter((s) => s !== "." && s !== "..");
const relName = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));

/** A configuration: one program, a position naming a random relative name, everyday lines around it. */
const config = fc
  .constantFrom(...Object.keys(PROGRAMS))
  .chain((format) => {
    const p = PROGRAMS[format] as (typeof PROGRAMS)[string];
    return fc.record({
      format: fc.constant(format as Format),
      name: relName,
      position: fc.constantFrom(...p.positions),
      before: fc.array(fc.constantFrom(...p.everyday), { maxLength: 3 }),
      after: fc.array(fc.constantFrom(...p.everyday), { maxLength: 3 }),
    });
  })
  .map((c) => ({ ...c, text: [...c.before, c.position.replace("N", c.name), ...c.after, ""].join("\n") }));

const workspace = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));

const refsOf = (format: Format, text: string, home: string): Reference[] =>
  format === "ssh"
    ? sshReferences(text, { home, base: `${home}/.ssh` })
    : programReferences(format, text, { home, base: home });

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-cwd-prop-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("a relative name in a run or source position of any followed configuration", () => {
  it("is named below every directory", () => {
    fc.assert(
      fc.property(config, workspace, ({ format, text, name }, ws) => {
        const refs = refsOf(format, text, "/home/u");
        expect(refs.some((r) => referencePattern(r.parts, r.below).test(`/${ws}/${name}`))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("makes a write of that name in a random workspace not allowed", () => {
    let run = 0;
    fc.assert(
      fc.property(config, workspace, ({ format, text, name }, rel) => {
        const home = join(base, `home-${run}`);
        const ws = join(base, `ws-${run++}`, rel);
        write(join(home, (PROGRAMS[format] as (typeof PROGRAMS)[string]).file), text);
        mkdirSync(ws, { recursive: true });
        const r = judgeOnDisk(
          BALANCED,
          { tool: "write", input: { file_path: join(ws, name), content: "x" }, cwd: ws, workspace: ws },
          { disk: diskCheck({ env: { HOME: home } }) },
        );
        expect(r.action, `${text}\n${r.why}`).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });
});
