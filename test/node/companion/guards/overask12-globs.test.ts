// Issue 20, over-asks round 12: `wc -l src/*` was denied by the starter's Secrets rule because `*` could
// match a secret's name, though the companion expands the glob on the disk anyway. A glob a read-only
// command reads is now judged by its matches there. The attacks (each nearest dangerous variant) were written
// first; the relaxed forms are proven in real bash under strace to read only the matches the judge placed.
import { execFileSync, spawnSync } from "node:child_process";
import { linkSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expandGlob } from "../../../../src/companion/guards/bash-glob.ts";
import { isDenylistedPath } from "../../../../src/policy/secret-paths.ts";
import { straceAvailable, trace } from "../../policy/shell/effects-oracle.ts";
import { AUTONOMOUS, BALANCED, READ_ONLY } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk, KEY, write } from "./disk-fixture.ts";

let base: string;
let ws: string;
let home: string;

const put = (rel: string, text: string, root = ws) => write(join(root, rel), text);

beforeEach(() => {
  ({ base, ws, home } = gitWorkspace(
    "airlock-oa12-",
    {
      "src/a.py": "print(1)\n",
      "src/b.py": "print(2)\n",
      "README.md": "# sample\n",
      ".env": "API_KEY=K-SECRET\n",
      ".gitignore": ".env\n",
    },
    { ".ssh/id_rsa": KEY, ".aws/credentials": "aws_secret_access_key = AKIA-HOME\n" },
  ));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const judge = (command: string, policy = BALANCED, hasUI = true) =>
  judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: ws, home }, { hasUI });

function allowed(command: string, policy = BALANCED): void {
  const r = judge(command, policy);
  expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
}
function notAllowed(command: string, policy = BALANCED): string {
  const r = judge(command, policy);
  expect(r.action, `${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
  expect(judge(command, policy, false).action, command).toBe("deny");
  return `${r.why}\n${r.reasons.join("\n")}`;
}

const EVERYDAY = [
  "wc -l src/*",
  'for f in src/*; do head -1 "$f"; done',
  "cat src/*",
  "head -5 src/*",
  "grep -n print src/*",
];

describe("a glob a read-only command reads: the nearest dangerous variants (written first)", () => {
  it("still denies when a match is a secret by name (the Secrets rule decides, not a question)", () => {
    put("src/prod.env", "DB_PASSWORD=x\n");
    for (const c of EVERYDAY) {
      expect(judge(c).action, c).toBe("deny");
      expect(judge(c).reasons.join("\n"), c).toMatch(/prod\.env|Secrets/);
    }
  });

  it("does not allow a secret a dotglob or nocaseglob in the agent's shell would match", () => {
    put("src/.env", "K=1\n");
    expect(notAllowed("wc -l src/*")).toMatch(/\.env/);
    rmSync(join(ws, "src", ".env"));
    put("src/ID_RSA", KEY);
    notAllowed("cat src/*");
    notAllowed("cat src/id_*");
  });

  it("does not allow a link to a secret, a hard link, or a file holding a private key among the matches", () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "src", "k.py"));
    expect(notAllowed("wc -l src/*")).toMatch(/k\.py/);
    rmSync(join(ws, "src", "k.py"));
    linkSync(join(home, ".aws", "credentials"), join(ws, "src", "h.py"));
    expect(notAllowed("cat src/*")).toMatch(/hard link/);
    rmSync(join(ws, "src", "h.py"));
    put("src/deploy.txt", `notes\n${KEY}`);
    expect(notAllowed("head -5 src/*")).toMatch(/private key/);
  });

  it("is not trusted when the command changes files before it reads them", () => {
    // A tarball holding a link to a secret, extracted by an allowed write (autonomous), then read by a glob.
    mkdirSync(join(base, "t"));
    symlinkSync(join(home, ".aws", "credentials"), join(base, "t", "k"));
    execFileSync("tar", ["-cf", join(ws, "a.tar"), "-C", join(base, "t"), "k"]);
    expect(notAllowed("tar -xf a.tar -C src; cat src/*", AUTONOMOUS)).toMatch(/src\/\*/);
    for (const policy of [BALANCED, AUTONOMOUS]) {
      notAllowed(`ln -s ${home}/.aws/credentials src/k; cat src/*`, policy);
      notAllowed(`ln -s ${home}/.aws/credentials src/k && wc -l src/*`, policy);
      notAllowed("cp .env src/x; cat src/*", policy);
    }
  });

  it("keeps every glob setting, recursive read, quoted glob and glob out of the workspace a question", () => {
    put("src/deep/prod.env", "X=1\n");
    for (const c of [
      "shopt -s dotglob; cat src/*",
      "shopt -s globstar; cat src/**",
      "cat src/**",
      "cat src/*/*",
      "grep -r print src/*",
      'cat "src/"*',
      `cat ${home}/.ssh/*`,
      `cat ${home}/.aws/*`,
      "cat ~/.ssh/*",
      "cat .e*",
      "cat *",
    ])
      notAllowed(c);
  });

  it("asks when the glob matches more than the companion expands", () => {
    for (let i = 0; i < 1001; i++) put(`many/f${i}.txt`, "");
    expect(notAllowed("wc -l many/*")).toMatch(/more than 1000/);
  });

  it("without the disk the words alone still judge the glob by every name it could match", () => {
    const r = judgeOnDisk(
      BALANCED,
      { tool: "bash", input: { command: "wc -l src/*" }, cwd: ws, home },
      { disk: false },
    );
    expect(r.action).toBe("deny");
  });
});

describe("a read below a tree the same command writes first (found while testing the above)", () => {
  it("asks for `tar -xf a.tar -C src; cat src/k` (the archive holds a link to a secret: autonomous allowed it)", () => {
    mkdirSync(join(base, "t"));
    symlinkSync(join(home, ".aws", "credentials"), join(base, "t", "k"));
    execFileSync("tar", ["-cf", join(ws, "a.tar"), "-C", join(base, "t"), "k"]);
    const command = "tar -xf a.tar -C src; cat src/k";
    expect(notAllowed(command, AUTONOMOUS)).toMatch(/first writes `src`/);
    notAllowed("tar -xf a.tar -C src && head src/k", AUTONOMOUS);
    // A read elsewhere is judged as before.
    allowed("tar -xf a.tar -C src && cat README.md", AUTONOMOUS);
    const run = spawnSync("bash", ["-c", command], { cwd: ws, encoding: "utf8" });
    expect(run.stdout).toContain("AKIA-HOME");
  });
});

describe("a glob as the root of a recursive read (red team, round 12: it was taken as a literal name)", () => {
  it("walks every directory the glob matches: a secret below one asks", () => {
    put("sub/.env", "TOKEN=K-SECRET\n");
    const run = spawnSync("bash", ["-c", "grep -r TOKEN su?"], { cwd: ws, encoding: "utf8" });
    expect(run.stdout).toContain("K-SECRET");
    for (const c of ["grep -r TOKEN su?", "grep -r TOKEN [s]ub", "grep -rn TOKEN s?b", "diff -r su? src"])
      expect(notAllowed(c)).toMatch(/sub\/\.env|reaches|secret/);
  });

  it("asks when the glob matches nothing (with nullglob the program reads its default, the whole directory)", () => {
    const run = spawnSync("bash", ["-c", "shopt -s nullglob; grep -r API_KEY [z]z"], {
      cwd: ws,
      encoding: "utf8",
    });
    expect(run.stdout).toContain("K-SECRET");
    expect(notAllowed("grep -r API_KEY [z]z")).toMatch(/matches nothing/);
    notAllowed("shopt -s nullglob; grep -r API_KEY [z]z");
  });

  it("allows it when nothing below any match is a secret", () => {
    allowed("grep -rn print sr?");
    allowed("grep -rn print [s]rc");
  });
});

describe("a glob a read-only command reads, judged by its matches on the disk", () => {
  it("allows the everyday forms when no match is a secret", () => {
    for (const c of EVERYDAY) allowed(c);
    // A strict read-only allowlist that asked for `src/*` (could match a secret) allows it now too.
    for (const c of EVERYDAY) allowed(c, READ_ONLY);
  });

  it("allows a glob that matches nothing (bash passes the word, which names no file)", () => {
    allowed("wc -l docs/*");
  });
});

describe.skipIf(!straceAvailable())("the relaxed forms in real bash (strace)", () => {
  /** The files the judge placed: each glob read's matches as the companion expands them (the widest). */
  function placed(command: string): Set<string> {
    const out = new Set<string>();
    for (const m of command.matchAll(/src\/\*/g)) {
      const e = expandGlob(join(ws, m[0]), 1000, true);
      if ("paths" in e) for (const p of e.paths) out.add(p.slice(ws.length + 1));
    }
    return out;
  }

  it("reads only the matches the judge placed, never a dotfile or a secret", () => {
    put("src/.hidden", "x\n");
    put("src/sub/c.py", "print(3)\n");
    for (const command of EVERYDAY) {
      const { accesses } = trace(command, ws);
      const reads = accesses.filter((a) => !a.write && !a.directory).map((a) => a.path);
      expect(reads.length, command).toBeGreaterThan(0);
      const where = placed(command);
      for (const r of reads) {
        expect(where.has(r), `${command} read ${r}, not placed: ${[...where].join(", ")}`).toBe(true);
        expect(isDenylistedPath(r), `${command} read ${r}`).toBe(false);
      }
      expect(
        accesses.some((a) => a.write),
        command,
      ).toBe(false);
      expect(reads).not.toContain("src/.hidden");
      expect(reads).not.toContain(".env");
    }
    // The oracle sees a read the judge did not place.
    const { accesses } = trace("cat src/* .env", ws);
    expect(accesses.map((a) => a.path)).toContain(".env");
    expect(placed("cat src/* .env").has(".env")).toBe(false);
  });
});
