// Over-ask, round 13: `exec 3<README.md; cat <&3` asked: `<&3` was any descriptor the shell inherited. A
// descriptor the script's opening `exec` opens on a file is that file in every later `<&3`, while nothing
// else can make it another (exec-fds.ts); bash goes on after a redirection that fails, leaving fd 3 as
// inherited (proven below), so the file must be there to open. Attacks first.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "../../policy/shell/bash-proof.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { diskFixture, judgeOnDisk } from "./disk-fixture.ts";

const fx = diskFixture();
writeFileSync(join(fx.ws, "README.md"), "# readme\n");
afterAll(() => {
  fx.cleanup();
  cleanBashRuns();
});

const judge = (command: string) =>
  [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home }),
  );
const SECRET = { files: { "~/k": "FDSECRET13\n", "README.md": "# readme\n" } };

describe("a descriptor that may be another file (written first)", () => {
  it.each([
    [
      "a failed open keeps the inherited fd",
      "bash -c 'exec 3<missing; cat <&3' 3<~/k",
      "exec 3<missing; cat <&3",
    ],
    ["reopened", "exec 3<README.md; exec 3<~/k; cat <&3", null],
    [
      "not first: it may not run",
      "bash -c 'false && exec 3<README.md; cat <&3' 3<~/k",
      "false && exec 3<README.md; cat <&3",
    ],
    ["a function re-points it", "exec 3<README.md; f() { exec 3<~/k; }; f; cat <&3", null],
  ])("%s: bash reads the secret, and the judge never allows it", (_, proof, judged) => {
    for (const r of judge(judged ?? proof))
      expect(r.action, `${judged ?? proof}\n${r.why}`).not.toBe("allow");
    expect(runInBash(proof, SECRET).stdout).toContain("FDSECRET13");
  });

  it.each([
    "cat <&3",
    "exec 3<README.md; cat <&4",
    "exec 3<.env; cat <&3",
    "exec 3<src; cat <&3",
    "exec 3<README.md; eval 'exec 3<&5'; cat <&3",
    "exec 3<README.md; cat <&3-; cat <&3",
  ])("never allows %s", (command) => {
    for (const r of judge(command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });
});

describe("everyday", () => {
  it.each([
    "exec 3<README.md; cat <&3",
    "exec 3<README.md; cd src; cat <&3",
    "x=1; exec 3<README.md; wc -l <&3",
    "exec 3< README.md 4<package.json; cat <&3; cat <&4",
  ])("allows %s, and bash reads the file", (command) => {
    for (const r of judge(command))
      expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    const run = runInBash(command, {
      files: { "README.md": "# readme\n", "package.json": "{}\n", "src/a": "" },
    });
    expect(run.stdout, run.stderr).toMatch(/# readme|^1\b/);
  });
});
