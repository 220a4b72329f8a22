// Red team round 9, class E: the file filters of recursive readers (rg -g/--glob/--iglob, grep --include,
// the Grep tool's glob) let `*` match a leading dot, so `*.env` selects `.env`. Each attack is proven with
// the real program (it prints the secret), and the companion's walk, which used bash's leading-dot rule,
// now reaches the file and asks. A workspace whose only secret is a dotfile keeps the case sharp.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { has } from "../../policy/shell/proven-case.ts";
import { judgeOnDisk, readOnlyPolicy, write } from "./disk-fixture.ts";

const SECRET = "FAKEDOTENV9";
let base: string;
let ws: string;
const policy = readOnlyPolicy();

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-filter-")));
  ws = join(base, "ws");
  write(join(ws, "src", "a.js"), "export const a = 1;\n");
  write(join(ws, "src", "b.ts"), "export const b = 1;\n");
  write(join(ws, ".env"), `SECRET=${SECRET}\n`);
  write(join(ws, "src", ".env"), `SECRET=${SECRET}\n`);
  execFileSync("git", ["init", "-q", "."], { cwd: ws });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const judge = (tool: string, input: Record<string, unknown>) =>
  judgeOnDisk(policy, { tool, input, cwd: ws, home: join(base, "home") });
const bash = (command: string) => judge("bash", { command });

/** What the real program prints in the workspace. */
function run(command: string): string {
  return spawnSync("bash", ["-c", command], { cwd: ws, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    .stdout;
}

describe("a filter glob's * matches a leading dot", () => {
  it.runIf(has("rg"))("rg -g '*.env' (and --iglob, --hidden, braces) prints .env; never allowed", () => {
    for (const command of [
      "rg -g '*.env' SECRET src",
      "rg --hidden -g '*.env' SECRET src",
      "rg --iglob '*.ENV' SECRET src",
      "rg -g '*.{js,env}' SECRET src",
      "rg -g '*.e*' SECRET src",
      "rg -g '*[e]nv' SECRET src",
    ]) {
      expect(run(command), command).toContain(SECRET);
      const r = bash(command);
      expect(r.action, command).not.toBe("allow");
      expect(r.why, command).toMatch(/\.env/);
    }
  });
  it.runIf(has("rg"))("the Grep tool (rg --hidden --glob GLOB) with *.env or *.{js,env}", () => {
    for (const glob of ["*.env", "*.{js,env}"]) {
      expect(run(`rg --hidden --glob '${glob}' SECRET`)).toContain(SECRET);
      const r = judge("Grep", { pattern: "SECRET", path: ws, glob });
      expect(r.action, glob).not.toBe("allow");
      expect(r.why, glob).toMatch(/\.env/);
    }
  });
  it("grep -r --include='*.env' prints .env; never allowed", () => {
    expect(run("grep -r --include='*.env' SECRET src")).toContain(SECRET);
    expect(bash("grep -r --include='*.env' SECRET src").action).not.toBe("allow");
    expect(bash("grep -r --include='*.env' SECRET src").why).toMatch(/\.env/);
  });
  it("filters that cannot select the dotfile stay allowed", () => {
    expect(bash("rg -g '*.ts' export src").action).toBe("allow");
    expect(bash("rg -g '*.{ts,js}' export src").action).toBe("allow");
    expect(bash("grep -rn export src --include=*.ts").action).toBe("allow");
    expect(judge("Grep", { pattern: "export", path: ws, glob: "*.ts" }).action).toBe("allow");
    expect(judge("Grep", { pattern: "export", path: ws, glob: "src/*.{js,ts}" }).action).toBe("allow");
  });
});
