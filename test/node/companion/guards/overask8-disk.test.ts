// Issue 20, over-asks round 8, judged with the disk as the companion judges them under the starter policy:
// `find … | xargs CMD` (found-paths.ts), a leading glob settled by its matches (`ls -d */`, `du -sh *`),
// and a `for` loop over a project glob. Each attack was written first; each harmless form is allowed only
// when the disk shows nothing it could reach.
import { linkSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BALANCED } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk, KEY, write } from "./disk-fixture.ts";

const STARTER = BALANCED;

let base: string;
let ws: string;
let home: string;

const put = (rel: string, text: string, root = ws) => write(join(root, rel), text);

beforeEach(() => {
  ({ base, ws, home } = gitWorkspace(
    "airlock-oa8-",
    {
      "src/a.js": "console.log(1);\n",
      "src/b.js": "export const b = 2;\n",
      "docs/guide.md": "# guide\n",
      "README.md": "# sample\n",
    },
    { ".ssh/id_rsa": KEY },
  ));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const judge = (command: string, disk = true) =>
  judgeOnDisk(STARTER, { tool: "bash", input: { command }, cwd: ws, home }, disk ? {} : { disk: false });

function allowed(command: string): void {
  const r = judge(command);
  expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
}
function notAllowed(command: string): string {
  const r = judge(command);
  expect(r.action, `${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
  expect(
    judgeOnDisk(STARTER, { tool: "bash", input: { command }, cwd: ws, home }, { hasUI: false }).action,
  ).toBe("deny");
  return `${r.why}\n${r.reasons.join("\n")}`;
}

describe("find … | xargs CMD", () => {
  const everyday = [
    'find . -name "*.js" | xargs grep -l console',
    "find . -name '*.js' | xargs grep -n TODO",
    'find src -name "*.js" | xargs wc -l',
    'find . -name "*.js" -print0 | xargs -0 grep -l console',
    'find . -type f -name "*.md" | xargs -n 1 head -n 3',
    'find . -name "*.js" | xargs -I{} grep -l console {}',
    'find . -name "*.js" 2>/dev/null | xargs -r grep -c console',
  ];

  it("allows the everyday search when every file find could print is harmless", () => {
    for (const c of everyday) allowed(c);
  });

  it("is understood only with the disk: the words alone never allow it", () => {
    for (const c of everyday) expect(judge(c, false).action, c).not.toBe("allow");
  });

  it("asks when find could print a secret (no -name: every file, .git/config and .env included)", () => {
    put(".env", "API_KEY=x\n");
    expect(notAllowed("find . | xargs grep -l console")).toMatch(/\.env|\.git\/config/);
    expect(notAllowed("find . -type f | xargs cat")).toMatch(/secret/);
    // `-newer -name` names a file; the test that narrows is `-name .env`.
    put("-name", "");
    expect(notAllowed("find . -newer -name -name .env | xargs cat")).toMatch(/\.env/);
  });

  it("asks for a secret the -name matches as find does (`*` matches a leading dot)", () => {
    put(".npmrc", "//registry.npmjs.org/:_authToken=x\n");
    expect(notAllowed('find . -name "*rc" | xargs cat')).toMatch(/\.npmrc/);
  });

  it("asks when -name is not the whole expression (or, not, a print before it)", () => {
    put("config/prod.env", "X=1\n");
    for (const c of [
      'find . -name "*.js" -o -name "*.env" | xargs cat',
      'find . ! -name "*.js" | xargs cat',
      'find . -print -name "*.js" | xargs cat',
    ])
      notAllowed(c);
  });

  it("asks when a name has a blank, quote or backslash (xargs splits it into other paths or options)", () => {
    put("src/x --file=.env.js", "");
    expect(notAllowed('find . -name "*.js" | xargs grep -l console')).toMatch(/blank, a quote/);
    notAllowed('find . -name "*.js" | xargs -I{} grep -l console {}');
    // Whole names with -print0 | xargs -0.
    allowed('find . -name "*.js" -print0 | xargs -0 grep -l console');
  });

  it("asks for a link out of the workspace or a hard link among the files", () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "src", "k.js"));
    expect(notAllowed('find . -name "*.js" | xargs grep -l console')).toMatch(/link out of the workspace/);
  });

  it("asks for a hard link among the files", () => {
    linkSync(join(home, ".ssh", "id_rsa"), join(ws, "src", "h.js"));
    expect(notAllowed('find . -name "*.js" | xargs cat')).toMatch(/hard link/);
  });

  it("is not trusted when the command changes files before find prints them", () => {
    // A name made in the same command is split by xargs into `-o.envrc`: sort would write .envrc.
    notAllowed("echo > './x -o.envrc .js'; find . -name '*.js' | xargs sort");
    notAllowed("echo x > src/c.js; find . -name '*.js' | xargs cat");
  });

  it("never allows the red team's attacks", () => {
    for (const c of [
      "find / | xargs cat",
      "find ~ -name id_rsa | xargs cat",
      "find . -name '*.js' -print0 | xargs -0 -I{} sh -c 'cat {}'",
      "find . -name '*.js' | xargs -a list.txt cat",
      "find . -name '*.js' | xargs --arg-file=list.txt cat",
      "find . -name '*.js' | xargs --process-slot-var=LD_PRELOAD cat",
      "find . -name '*.js' | xargs -d x cat",
      "find . -name '*.js' | xargs -E x cat",
      "find . -name '*.js' | xargs -p cat",
      "find . -name '*.js' | xargs -o cat",
      "find . -name '*.js' | xargs rm",
      "find . -name '*.js' | xargs cp -t /tmp",
      "find . -name '*.js' | xargs xxd",
      "find . -name '*.js' | xargs grep",
      "find . -name '*.js' | xargs grep -r x",
      "find . -name '*.js' | xargs sed -i s/a/b/",
      "find . -name '*.js' | xargs node",
      "find . -name '*.js' | xargs -I{} cat {}.bak",
      "find . -name '*.js' -printf '%p ~/.ssh/id_rsa\\n' | xargs cat",
      "find . -name '*.js' -ls | xargs cat",
      "find . -name '*.js' -print0 | xargs cat",
      "find . -name '*.js' | xargs -0 cat",
      "find . -name '*.js' 2>&1 | xargs cat",
      "find . -name '*.js' |& xargs cat",
      "find . -name '*.js' | xargs cat < list.txt",
      "find . -name '*.js' -exec cat {} + | xargs cat",
      "find -L . -name '*.js' | xargs cat ~/.ssh/id_rsa",
      "echo ~/.ssh/id_rsa | xargs cat",
      "cat list.txt | xargs cat",
    ])
      notAllowed(c);
  });
});

describe("a glob at the start of a word, settled by its matches", () => {
  it("allows ls -d */ and du -sh * when no match is named like an option", () => {
    allowed("ls -d */");
    allowed("du -sh *");
    allowed("ls *");
    allowed("ls -d .*/");
  });

  it("keeps a symlinked directory's listing a listing (names only)", () => {
    symlinkSync(join(home, ".ssh"), join(ws, "keys"));
    allowed("ls -d */");
  });

  it("asks when a match starts with `-` (an option to the program)", () => {
    put("--files0-from=.env", "");
    expect(notAllowed("du -sh *")).toMatch(/--files0-from=\.env/);
    mkdirSync(join(ws, "-R"));
    notAllowed("ls -d */");
  });

  it("stays not understood without the disk, and when the command changes files first", () => {
    expect(judge("ls -d */", false).action).not.toBe("allow");
    notAllowed("touch ./--files0-from=.env; du -sh *");
    notAllowed("du -sh * > sizes.txt");
  });
});

describe("grep -r with exclusions (grep -r reads .env and .git/config: asking for it is right)", () => {
  beforeEach(() => put(".env", "API_KEY=K-SECRET\n"));

  it("asks for a whole-tree grep -r, which reads the ignored .env and .git/config", () => {
    expect(notAllowed("grep -rn console .")).toMatch(/\.env|\.git\/config/);
    notAllowed("grep -rn TODO --exclude-dir=node_modules .");
  });

  it("allows it when --exclude and --exclude-dir keep every secret out of the walk", () => {
    allowed("grep -rn console --exclude=.env --exclude-dir=.git .");
    allowed("grep -rn console --exclude .env --exclude-dir .git .");
  });

  it("places grep's words by its grammar: an option's value is no exclusion (main allowed these)", () => {
    // `-e --include=*.ts` is a pattern; the second -e prints .env's lines (proven: `./.env:K=…`).
    expect(notAllowed("grep -r -e --include=*.ts -e K= .")).toMatch(/\.env/);
    notAllowed("grep -rn -e --exclude=.env --exclude-dir=.git .");
    notAllowed("grep -rn console --exclude=.env --exclude-dir=.git --include=.env .");
    notAllowed("grep -rn K= --exclude-dir=.git --exclude='*.js' .");
  });
});

describe("a for loop over a project glob, on the disk", () => {
  it("allows the red team's loop and judges each match as the glob's", () => {
    allowed('for f in src/*.js; do wc -l "$f"; done');
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "src", "k.js"));
    expect(notAllowed('for f in src/*.js; do wc -l "$f"; done')).toMatch(/k\.js|id_rsa/);
  });
});
