// Over-ask, round 13: `git ls-files | xargs wc -l` asked, xargs's words only known at run time. They are
// the paths git's index names below the directory, which the disk reads (guards/tracked-reads.ts): each is
// judged as a file named in the command. Without -z xargs splits names at blanks and reads quotes, and a
// name starting with `-` is an option: real git and xargs show each below. Attacks first.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, KEY } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa13x-")));
const home = join(base, "home");
mkdirSync(home);
writeFileSync(join(home, "k"), "XARGSSECRET13\n");
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A repository with README.md and src/a.ts tracked, an ignored .env, and what `extra` makes, tracked too. */
function repo(extra: (ws: string) => string[] = () => []): string {
  const ws = join(base, `ws${n++}`);
  mkdirSync(join(ws, "src"), { recursive: true });
  writeFileSync(join(ws, "README.md"), "# readme\nline\n");
  writeFileSync(join(ws, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(ws, ".gitignore"), ".env\n");
  writeFileSync(join(ws, ".env"), "API_KEY=x\n");
  git(ws, "init", "-q");
  git(ws, "add", "README.md", "src/a.ts", ".gitignore");
  const more = extra(ws);
  if (more.length > 0) git(ws, "add", "-f", "--", ...more);
  return ws;
}

const disk = diskCheck({ env: {} });
function actions(command: string, ws: string) {
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
}
const asks = (command: string, ws: string) => {
  for (const r of actions(command, ws)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
};
/** The command run by real bash in `ws`. */
const run = (command: string, ws: string) =>
  spawnSync("bash", ["-c", command], { cwd: ws, encoding: "utf8" });

describe("tracked names that are not plain reads (written first)", () => {
  it("a secret tracked by force", () => {
    const ws = repo(() => [".env"]);
    asks("git ls-files | xargs cat", ws);
    expect(run("git ls-files | xargs cat", ws).stdout).toContain("API_KEY");
  });

  it("a tracked link to a secret outside", () => {
    const ws = repo((w) => {
      symlinkSync(join(home, "k"), join(w, "docs.txt"));
      return ["docs.txt"];
    });
    asks("git ls-files -z | xargs -0 cat", ws);
    expect(run("git ls-files -z | xargs -0 cat", ws).stdout).toContain("XARGSSECRET13");
  });

  it("a tracked file holding a private key", () => {
    const ws = repo((w) => {
      writeFileSync(join(w, "deploy.txt"), KEY);
      return ["deploy.txt"];
    });
    asks("git ls-files | xargs cat", ws);
  });

  it("a name with a blank: xargs splits it into another path", () => {
    const ws = repo((w) => {
      writeFileSync(join(w, "notes k"), "x\n");
      symlinkSync(join(home, "k"), join(w, "k"));
      return ["notes k"];
    });
    asks("git ls-files | xargs cat", ws);
    expect(run("git ls-files | xargs cat", ws).stdout).toContain("XARGSSECRET13");
  });

  it("a name that starts with -: an option to the command", () => {
    const ws = repo((w) => {
      writeFileSync(join(w, "--version"), "");
      return ["--version"];
    });
    asks("git ls-files -z | xargs -0 wc -l", ws);
    expect(run("git ls-files -z | xargs -0 wc -l", ws).stdout).toContain("GNU coreutils");
  });

  it.each([
    "git ls-files | xargs rm",
    "git ls-files -z | xargs wc -l",
    "git ls-files | xargs -0 wc -l",
    "git ls-files --others | xargs wc -l",
    "git ls-files -o -i --exclude-standard | xargs cat",
    "git ls-files | xargs sh -c 'cat \"$@\"'",
  ])("never allows %s", (command) => asks(command, repo()));

  it("asks where git would read another index", () => {
    const ws = repo();
    const r = judgeOnDisk(
      BALANCED,
      { tool: "bash", input: { command: "git ls-files | xargs wc -l" }, cwd: ws, home },
      { disk: diskCheck({ env: { GIT_INDEX_FILE: "/tmp/other" } }) },
    );
    expect(r.action, r.why).not.toBe("allow");
  });
});

describe("everyday", () => {
  it.each(["git ls-files | xargs wc -l", "git ls-files -z | xargs -0 wc -l", "git ls-files | xargs cat"])(
    "allows %s over plain tracked files, and xargs reads only them",
    (command) => {
      const ws = repo();
      for (const r of actions(command, ws))
        expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
      const out = run(command, ws);
      expect(out.stdout, out.stderr).not.toContain("API_KEY");
      expect(out.stdout).toMatch(/readme|README\.md/);
    },
  );

  it("allows it from a subdirectory, where git names the files below it", () => {
    const ws = repo(() => [".env"]);
    for (const r of actions("cd src && git ls-files | xargs wc -l", ws))
      expect(r.action, r.why).toBe("allow");
    expect(run("cd src && git ls-files", ws).stdout.trim()).toBe("a.ts");
  });
});
