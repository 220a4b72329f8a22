// Red team s04 (issue 20): a glob a read-only command reads is judged by its matches on the disk, but the risk
// the card shows was computed from every name it could match: `base64 .git/objects/*/*` in a repository with no
// loose object, or `head .env*` where there is no .env, ran allowed and was shown HIGH. The risk now reads what
// the verdict reads; what the disk does not settle still asks. Property: judged with the disk, under every
// starter, an allowed call is never high risk (only high asks a second confirmation, docs/policy.md).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BALANCED, EVERY_STARTER } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, KEY, write } from "./disk-fixture.ts";

let base: string;
let ws: string;
let home: string;

beforeAll(() => {
  // A repository with nothing committed: `.git/objects/*/*` matches no file (its two directories are empty).
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-risk-disk-")));
  ws = join(base, "ws");
  home = join(base, "home");
  mkdirSync(ws);
  git(ws, "init", "-q", ".");
  write(join(ws, "src", "a.ts"), "export const a = 1;\n");
  write(join(ws, "README.md"), "# project\n");
  write(join(home, ".ssh", "id_rsa"), KEY);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const bash = (policy: typeof BALANCED, command: string, disk = true) =>
  judgeOnDisk(
    policy,
    { tool: "bash", input: { command }, cwd: ws, workspace: ws, home },
    disk ? {} : { disk: false },
  );

describe("a glob the disk settles: the risk drops with the verdict", () => {
  it("s04: matches nothing secret there → allowed and not high", () => {
    for (const command of ["base64 .git/objects/*/*", "head .env*", "cat *.pem", "wc -l src/*"]) {
      const r = bash(BALANCED, command);
      expect(r.action, command).toBe("allow");
      expect(r.risk, command).toBe("low");
    }
  });

  it("the words alone (the edge, --no-disk) still ask, shown high", () => {
    for (const command of ["base64 .git/objects/*/*", "head .env*"]) {
      const r = bash(BALANCED, command, false);
      expect(r.action, command).not.toBe("allow");
      expect(r.risk, command).toBe("high");
    }
  });

  it("a match that is a secret, or a command that changes the disk first, asks and stays high", () => {
    write(join(ws, "deploy.pem"), KEY);
    try {
      for (const command of ["cat *.pem", "cat .git/*", "touch x.pem; cat *.pem"]) {
        const r = bash(BALANCED, command);
        expect(r.action, command).not.toBe("allow");
        expect(r.risk, command).toBe("high");
      }
    } finally {
      rmSync(join(ws, "deploy.pem"));
    }
  });
});

const PROGRAMS = ["cat", "head", "wc -l", "base64", "ls", "grep a", "du -sh", "sort", "rm", "cp -r", "touch"];
const WORDS = [
  ...["*", "src/*", "*.pem", ".env*", ".git/*", ".git/objects/*/*", "*/*", "docs/*.md", "s?c/*"],
  ...["src/a.ts", "README.md", ".env", "~/.ssh/*", "../*", "/tmp/x", "/etc/*"],
];
const JOINS = [" && ", "; ", " | "];
const REDIRECTS = ["", "", "", " > out.txt", " 2>/dev/null", " > /tmp/o"];

const part = fc
  .tuple(
    fc.constantFrom(...PROGRAMS),
    fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    fc.constantFrom(...REDIRECTS),
  )
  .map(([program, words, redirect]) => `${program} ${words.join(" ")}${redirect}`);
const command = fc
  .tuple(part, fc.array(fc.tuple(fc.constantFrom(...JOINS), part), { maxLength: 2 }))
  .map(([first, rest]) => first + rest.map(([j, p]) => j + p).join(""));

describe("property: judged with the disk, allowed ⇒ not high risk", () => {
  it("under every starter", () => {
    write(join(ws, ".env"), "API_KEY=x\n");
    write(join(ws, "docs", "guide.md"), "# guide\n");
    fc.assert(
      fc.property(command, (c) => {
        for (const [name, policy] of EVERY_STARTER) {
          const r = bash(policy, c);
          if (r.action === "allow") expect(r.risk, `${name}: ${c}`).not.toBe("high");
        }
      }),
      { numRuns: 150 },
    );
  });
});
