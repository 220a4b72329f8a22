// Issue 20, over-asks round 11: `find . -name '*.py' -exec wc -l {} +` asked where `find … | xargs wc -l`
// was allowed: `{}` was left "known only at run time". It is now judged as `find … -print0 | xargs -0 CMD`
// (found-paths.ts): CMD reads every file find could find, a walk the disk looks at. The nearest dangerous
// variants were written first; the allowed forms run in real bash under strace and open only files of
// that walk.
import { linkSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/shell/analysis.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";
import { straceAvailable, trace } from "../../policy/shell/effects-oracle.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk, KEY, write } from "./disk-fixture.ts";

const STARTER = BALANCED;

let base: string;
let ws: string;
let home: string;

const put = (rel: string, text: string, root = ws) => write(join(root, rel), text);

beforeEach(() => {
  ({ base, ws, home } = gitWorkspace(
    "airlock-oa12x-",
    {
      "src/a.py": "x = 1\n",
      "src/b.py": "y = 2\n",
      "src/notes.txt": "x\n",
      "README.md": "# sample\n",
      ".env": "API_KEY=K-SECRET\n",
      ".gitignore": ".env\n",
    },
    { ".ssh/id_rsa": KEY },
  ));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const judge = (command: string, disk = true, hasUI = true) =>
  judgeOnDisk(
    STARTER,
    { tool: "bash", input: { command }, cwd: ws, home },
    disk ? { hasUI } : { disk: false },
  );

function allowed(command: string): void {
  const r = judge(command);
  expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
}
function notAllowed(command: string): string {
  const r = judge(command);
  expect(r.action, `${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
  expect(judge(command, true, false).action, command).toBe("deny");
  return `${r.why}\n${r.reasons.join("\n")}`;
}

const EVERYDAY = [
  "find . -name '*.py' -exec wc -l {} +",
  'find src -name "*.py" -exec grep -n x {} \\;',
  "find src -type f -exec cat {} +",
  "find . -name '*.py' -exec grep -l x {} +",
  "find src -name '*.py' -exec head -n 1 {} \\;",
];

describe("find … -exec CMD {}: the nearest dangerous variants (written first)", () => {
  it("asks when find could find a secret (no -name, an -o, a name that matches one)", () => {
    expect(notAllowed("find . -exec cat {} +")).toMatch(/\.env/);
    notAllowed("find . -type f -exec grep -l x {} +");
    notAllowed("find . -name '*.py' -o -name '.env' -exec cat {} +");
    notAllowed("find . ! -name '*.py' -exec cat {} +");
    notAllowed("find . -name '.e*' -exec cat {} \\;");
    notAllowed("find . -name '*' -exec cat {} +");
  });

  it("never allows a command that writes, runs, walks or reads another file", () => {
    for (const c of [
      "find . -name '*.py' -exec rm {} +",
      "find . -name '*.py' -exec sort -o out.txt {} +",
      "find . -name '*.py' -exec sh -c 'cat {}' \\;",
      "find . -name '*.py' -exec sh -c 'cat \"$1\"' _ {} \\;",
      "find . -name '*.py' -exec grep -r x {} +",
      "find . -name '*.py' -exec cat {} .env \\;",
      "find . -name '*.py' -exec cat {}.env \\;",
      "find . -name '*.py' -exec cat {} ~/.ssh/id_rsa \\;",
      "find . -name '*.py' -exec node {} \\;",
      "find . -name '*.py' -exec python3 {} \\;",
      "find . -name '*.py' -exec xargs cat {} \\;",
      "find . -name '*.py' -exec {} \\;",
      "find . -name '*.py' -exec sed -i s/a/b/ {} +",
    ])
      notAllowed(c);
  });

  it("never allows more than one command, or one run elsewhere or on a question", () => {
    for (const c of [
      "find . -name '*.py' -exec cat {} \\; -exec cat .env \\;",
      "find . -name '*.py' -exec cat {} + -o -name .env -print",
      "find . -name '*.py' -execdir cat {} +",
      "find . -name '*.py' -ok cat {} \\;",
      "find . -name '*.py' -okdir cat {} \\;",
      "find . -name '*.py' -delete -exec cat {} +",
      "find . -name '*.py' -fprint out.txt -exec cat {} +",
      "find . -name -exec cat {} +",
    ])
      notAllowed(c);
  });

  it("asks for a link out of the workspace or a hard link among what it finds", () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "src", "k.py"));
    expect(notAllowed("find . -name '*.py' -exec cat {} +")).toMatch(/k\.py|id_rsa|out of the workspace/);
    rmSync(join(ws, "src", "k.py"));
    linkSync(join(home, ".ssh", "id_rsa"), join(ws, "src", "h.py"));
    expect(notAllowed("find . -name '*.py' -exec wc -l {} +")).toMatch(/hard link/);
  });

  it("is not trusted when the command changes files first, and never without the disk", () => {
    notAllowed("echo x > src/c.py; find . -name '*.py' -exec cat {} +");
    for (const c of EVERYDAY) expect(judge(c, false).action, c).not.toBe("allow");
  });
});

describe("find … -exec CMD {}", () => {
  it("allows the everyday forms when nothing find could find is a secret", () => {
    for (const c of EVERYDAY) allowed(c);
  });

  it("judges CMD with the found names in the place of {}", () => {
    const texts = analyzeShell("find . -name '*.py' -exec wc -l {} +")
      .units.filter((u): u is ExecUnit => u.kind === "exec")
      .map((u) => u.text);
    expect(texts).toEqual(["find . -name *.py -exec wc -l {} +", "wc -l <find .>"]);
  });
});

describe.skipIf(!straceAvailable())("the allowed forms in real bash (strace)", () => {
  it("open only files of the walk the judge placed (below the roots, by the -name)", () => {
    put("src/.hidden.txt", "h\n");
    for (const command of EVERYDAY) {
      const { accesses } = trace(command, ws);
      const reads = accesses.filter((a) => !a.write && !a.directory).map((a) => a.path);
      expect(reads.length, command).toBeGreaterThan(0);
      const root = command.startsWith("find src") ? "src/" : "";
      const py = command.includes("*.py");
      for (const r of reads) {
        expect(r.startsWith(root), `${command} read ${r}`).toBe(true);
        if (py) expect(r, command).toMatch(/\.py$/);
      }
      expect(reads, command).not.toContain(".env");
      expect(
        accesses.some((a) => a.write),
        command,
      ).toBe(false);
    }
  });
});
