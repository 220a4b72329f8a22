// The class scan of user configuration files (round 19) as a property: any file in the scanned set (a dot
// file in HOME, a drop-in, anything under ~/.config, a menu entry, a vim file, a gpg or julia configuration),
// holding among ordinary lines any spelling of a project file's absolute path (`~/`, `$HOME/`, `${HOME}/`,
// quoted, `export X=`, `key = `, a JSON string, `--require `, a brace form), makes writing that file not
// allowed, while another project file stays writable.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-user-configs-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A name; the scan's documented exclusions (histories, logs, caches, plug-in and state directories) left out. */
const name = fc
  .stringMatching(/^[a-z][a-z0-9_-]{1,7}$/)
  .filter(
    (n) =>
      !/hist|hsts|cache|^logs?$|^pack$|bundle|plugged|undo|swap|backup|view|session|venv|lock|\.d$/.test(n),
  );

/** Where in the scanned set the configuration file is. */
const configFile = fc.oneof(
  name.map((n) => `.${n}rc`),
  fc.tuple(name, name).map(([a, b]) => `.${a}.d/${b}`),
  fc.tuple(name, name, name).map(([a, b, c]) => `.config/${a}/${b}/${c}.conf`),
  name.map((n) => `.config/${n}.toml`),
  name.map((n) => `.local/share/applications/${n}.desktop`),
  fc.tuple(name, name).map(([a, b]) => `.vim/${a}/${b}.vim`),
  name.map((n) => `.gnupg/${n}.conf`),
  name.map((n) => `.julia/config/${n}.jl`),
);

/** The project file, relative to the workspace `~/proj`. */
const target = fc.tuple(name, name).map(([d, f]) => `${d}/${f}.sh`);

/** One way of writing `~/proj/REL` in a configuration file. */
const spelling = fc.constantFrom(
  (rel: string, ws: string) => `${ws}/${rel}`,
  (rel: string) => `~/proj/${rel}`,
  (rel: string) => `$HOME/proj/${rel}`,
  (rel: string) => `\${HOME}/proj/${rel}`,
  (rel: string) => `"~/proj/${rel}"`,
  (rel: string, ws: string) => `'${ws}/${rel}'`,
  (rel: string) => `export TOOL=~/proj/${rel}`,
  (rel: string, ws: string) => `program = ${ws}/${rel}`,
  (rel: string, ws: string) => `{"cmd": "${ws}/${rel}"}`,
  (rel: string) => `NODE_OPTIONS="--require $HOME/proj/${rel}"`,
  (rel: string, ws: string) => `Exec=${ws}/${rel} %F`,
  (rel: string) => {
    const [dir, file] = rel.split("/");
    return `source ~/proj/${dir}/{${file},other.sh}`;
  },
);

const noise = fc.constantFrom(
  "set number",
  "alias ll='ls -l'",
  "export PATH=/usr/local/bin:$PATH",
  "[section]",
  'key = "value"',
  "# a comment naming /usr/share/doc",
  "alias w='cd ~/proj'",
  "",
);

let runs = 0;

describe("any user configuration file naming a project file", () => {
  it("makes writing that file not allowed, and leaves another writable", () => {
    fc.assert(
      fc.property(
        configFile,
        target,
        spelling,
        fc.array(noise, { maxLength: 4 }),
        fc.array(noise, { maxLength: 4 }),
        (file, rel, spell, before, after) => {
          const home = join(base, `h${runs++}`);
          const ws = join(home, "proj");
          mkdirSync(ws, { recursive: true });
          git(ws, "init", "-q");
          write(join(home, file), [...before, spell(rel, ws), ...after, ""].join("\n"));
          const judge = (p: string) =>
            judgeOnDisk(
              BALANCED,
              { tool: "write", input: { file_path: join(ws, p), content: "x\n" }, cwd: ws, workspace: ws },
              { disk: diskCheck({ env: { HOME: home } }) },
            ).action;
          expect(judge(rel), `${file}: ${spell(rel, ws)}`).not.toBe("allow");
          expect(judge("src/unnamed.ts"), `${file}: ${spell(rel, ws)}`).toBe("allow");
        },
      ),
      { numRuns: 40 },
    );
  });
});
