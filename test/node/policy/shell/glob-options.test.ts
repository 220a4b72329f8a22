// Red team round 12: shell options that change what a glob expands to, which the engine (and the
// companion's disk expansion) reads with bash's defaults. `shopt -s nullglob` drops a glob that matches
// nothing, so `grep -r KEY [z]z` greps `.` recursively; `nocaseglob` matches `[d]eploykey.txt` to
// DeployKey.txt; `globstar` makes `**` walk every directory; `set -f` keeps `[z]z` as the file named so.
// Setting one in a script that holds a glob is never allowed; without a glob it changes nothing. (globstar is
// modelled since round 19, its `**` read as a recursive read: guards/overask20-globstar.test.ts.)
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, neverAllowed } from "./policies.ts";

afterAll(cleanBashRuns);

describe("glob options the engine does not expand with", () => {
  it("bash reads each attack as the red team said", () => {
    const files = {
      ".env": "API_KEY=FAKESECRET\n",
      "DeployKey.txt": "DEPLOYKEY\n",
      zz: "x\n",
      "[z]z": "LITERAL\n",
    };
    expect(runInBash("shopt -s nullglob; grep -r API_KEY [y]y", { files }).stdout).toContain("FAKESECRET");
    expect(runInBash("shopt -s nocaseglob; cat [d]eploykey.txt", { files }).stdout).toContain("DEPLOYKEY");
    expect(runInBash("set -f; cat [z]z", { files }).stdout).toContain("LITERAL");
    expect(runInBash("cat [z]z", { files }).stdout).not.toContain("LITERAL");
  });

  it("setting one where the script holds a glob is never allowed", () => {
    for (const command of [
      "shopt -s nullglob; grep -r API_KEY [z]z",
      "shopt -s nocaseglob; cat [l]ib/config.yml",
      "shopt -s globstar; wc -l **/config.yml",
      "shopt -u failglob -s nullglob; grep -r KEY ?zz",
      "set -f; cat [z]z",
      "set -euf; cat [z]z",
      "set -o noglob; cat [z]z",
      "shopt -s nullglob; eval 'grep -r KEY [z]z'",
    ])
      neverAllowed(command);
  });

  it("without a glob in the script, or for options the engine models, nothing changes", () => {
    for (const command of [
      "shopt -s nullglob; ls",
      "shopt -s extglob; ls",
      "set -euo pipefail; cat README.md",
      "set -- -f a; echo done",
    ]) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });
});
