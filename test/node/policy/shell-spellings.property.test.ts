// Round 19's shell spellings as a property (fix20b): a start-up file line built from any of the spellings
// the red team found (wrappers before `source`, `--`, braces, a file fed to a shell as text, a here-document,
// a descriptor, `$(pwd)`, a `cd` first, a runner given the directory), around a workspace script, always
// names that script; and on disk, a write of it is never allowed.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../src/companion/guards/disk-view.ts";
import { type Reference, referencePattern } from "../../../src/policy/path-references.ts";
import { shellSources } from "../../../src/policy/shell-sources.ts";
import { git, judgeOnDisk, write } from "../companion/guards/disk-fixture.ts";
import { AUTONOMOUS, BALANCED } from "./shell/policies.ts";

const names = (refs: readonly Reference[], path: string) =>
  refs.some((r) => referencePattern(r.parts, r.below).test(path));

const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);

/** A script at `~/proj/DIR/NAME.sh`: each spelling, given its directory and name as the rc writes them. */
type Spelling = (dir: string, name: string) => string;
const SPELLINGS: Spelling[] = [
  (d, n) => `source ${d}/${n}.sh`,
  (d, n) => `. -- ${d}/${n}.sh`,
  (d, n) => `command source ${d}/${n}.sh`,
  (d, n) => `builtin . ${d}/${n}.sh`,
  (d, n) => `command builtin source -- ${d}/${n}.sh`,
  (d, n) => `${d}/${n}.sh`,
  (d, n) => `exec nohup env A=1 ${d}/${n}.sh`,
  (d, n) => `[ -x ${d}/${n}.sh ] && ${d}/${n}.sh`,
  (d, n) => `if [ -f ${d}/${n}.sh ]; then . ${d}/${n}.sh; fi`,
  (d, n) => `eval "$(cat ${d}/${n}.sh)"`,
  (d, n) => `eval "\`cat ${d}/${n}.sh\`"`,
  (d, n) => `source <(cat ${d}/${n}.sh)`,
  (d, n) => `bash <(sed 's/x/y/' ${d}/${n}.sh)`,
  (d, n) => `bash < ${d}/${n}.sh`,
  (d, n) => `cat ${d}/${n}.sh | sh`,
  (d, n) => `source /dev/stdin < ${d}/${n}.sh`,
  (d, n) => `sh -s < ${d}/${n}.sh`,
  (d, n) => `exec 4< ${d}/${n}.sh; . /dev/fd/4`,
  (d, n) => `bash <<'EOF'\n${d}/${n}.sh\nEOF`,
  (d, n) => `cat <<EOF | bash\n${d}/${n}.sh\nEOF`,
  (d, n) => `bash -c '${d}/${n}.sh'`,
  (d, n) => `PROMPT_COMMAND="cd ${d} && ./${n}.sh"`,
  (d, n) => `trap '(cd ${d}; ./${n}.sh)' EXIT`,
  (d, n) => `alias go2='cd ${d} && ./${n}.sh'`,
  (d, n) => `source ${d}/{${n},zz}.sh`,
  (d, n) => `for f in ${d}/{zz,${n}}.sh; do . "$f"; done`,
  (d, n) => `D=${d}; . "$D/${n}.sh"`,
  (d) => `run-parts ${d}`,
  (d, n) => `find ${d} -name '${n}.sh' -exec sh {} \\;`,
];

/** The same script from the shell's own directory (it starts in the project): `$(pwd)/…`, `./…`. */
const RELATIVE: ((rel: string) => string)[] = [
  (r) => `[ -x "$(pwd)/${r}" ] && "$(pwd)/${r}"`,
  (r) => `[ -x ./${r} ] && ./${r}`,
  (r) => `. "$PWD/${r}"`,
];

const spelled = fc.record({
  dirs: fc.array(segment, { minLength: 1, maxLength: 3 }),
  name: segment,
  at: fc.nat(),
  rel: fc.boolean(),
  before: fc.constantFrom(
    "",
    "alias ll='ls -la'\n",
    'eval "$(starship init bash)"\n',
    "[[ $- == *i* ]] || true\n",
  ),
});

function rcLine(s: { dirs: string[]; name: string; at: number; rel: boolean }): string {
  const rel = `${s.dirs.join("/")}/${s.name}.sh`;
  if (s.rel) return (RELATIVE[s.at % RELATIVE.length] as (r: string) => string)(rel);
  return (SPELLINGS[s.at % SPELLINGS.length] as Spelling)(`~/proj/${s.dirs.join("/")}`, s.name);
}

describe("round 19's spellings around a workspace script", () => {
  it("the reader names the script, whatever the spelling", () => {
    fc.assert(
      fc.property(spelled, (s) => {
        const line = `${s.before}${rcLine(s)}\n`;
        const path = `/home/u/proj/${s.dirs.join("/")}/${s.name}.sh`;
        expect(names(shellSources(line, "/home/u"), path), line).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt19-prop-")));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const home = join(base, "home");
  const ws = join(home, "proj");
  mkdirSync(ws, { recursive: true });
  git(ws, "init", "-q");

  it("on disk, a write of that script is never allowed", () => {
    fc.assert(
      fc.property(spelled, fc.boolean(), (s, autonomous) => {
        const rc = join(home, ".bashrc");
        write(rc, `${s.before}${rcLine(s)}\n`);
        chmodSync(rc, 0o644);
        const file = join(ws, ...s.dirs, `${s.name}.sh`);
        const r = judgeOnDisk(
          autonomous ? AUTONOMOUS : BALANCED,
          { tool: "write", input: { file_path: file, content: "cat ~/.netrc\n" }, cwd: ws, workspace: ws },
          { disk: diskCheck({ env: { HOME: home } }) },
        );
        expect(r.action, `${rcLine(s)}\n${r.why}`).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });
});
