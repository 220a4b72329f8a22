// Red team round 16 (r16b-03, -06, -08): a relative symlink copied as a link (cp -P, -d, -a, -R, mv, and
// cp -l/-s which make links) resolves from its new directory. `cp -P a/rc rc && echo X >> rc`, with the
// committed link a/rc → ../.bashrc (the project's own, absent), appends to the .bashrc one level up. What
// the same command reads or writes at or below such a destination afterwards asks. Real bash is the oracle.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { AUTONOMOUS, BALANCED, judge } from "./policies.ts";

afterAll(cleanBashRuns);

/** Committed relative links that resolve inside the project from where they are (to names that are absent). */
const LINKS =
  "mkdir -p a/deep sub/deep && ln -s ../.bashrc a/rc && ln -s ../../.bashrc a/deep/rc && ln -s ../.git sub/deep/g";
const FILES = { "/.bashrc": "", ".git/config": "[core]\n" };

/** Whether the command, run after the links are made, changed a file outside the project or its .git/config. */
function escapes(command: string): boolean {
  const run = runInBash(`${LINKS} && { ${command}; }`, { files: FILES });
  const root = join(run.dir, "..");
  return (
    readFileSync(join(root, ".bashrc"), "utf8") !== "" ||
    readFileSync(join(run.dir, ".git/config"), "utf8") !== "[core]\n"
  );
}

describe("a link copied or moved in the command resolves from its new place", () => {
  it("bash appends to the file above the project (the red team's proof)", () => {
    expect(escapes("cp -P a/rc rc && echo X >> rc")).toBe(true);
    expect(escapes("cp -P sub/deep/g sub/g && printf X >> sub/g/config")).toBe(true);
    expect(escapes("cp -R a/rc rc && echo X >> rc")).toBe(true);
    // Copied without the link (it follows a/rc to the project's own absent .bashrc): nothing escapes.
    expect(escapes("cp a/rc rc 2>/dev/null; echo X >> rc")).toBe(false);
  });

  const attacks = [
    "cp -P a/cfg cfg && cat cfg/hosts.yml",
    "cp -P a/rc rc && echo 'cat ~/.netrc' >> rc",
    "cp -d a/rc rc; printf x >> rc",
    "cp --no-dereference a/rc rc && sed -i '$a x' rc",
    "cp -P sub/deep/g sub/g && printf '[core]\\nfsmonitor=x\\n' >> sub/g/config",
    "cp -a a/rc . && echo x >> rc",
    "cp -R a/rc rc && echo x >> rc",
    "cp -rP a/rc rc && echo x >> rc",
    "cp -t . -P a/rc && echo x >> rc",
    "cp -l a/rc rc && echo x >> rc",
    "mv a/rc rc && echo x >> rc",
    "mv sub/deep/g sub/g && cat sub/g/config",
  ];
  it.each(attacks)("never allows %s", (command) => {
    expect(judge(AUTONOMOUS, command).action, command).not.toBe("allow");
    expect(judge(BALANCED, command).action, command).not.toBe("allow");
  });

  it("a copy that follows links, and reads and writes elsewhere, stay allowed", () => {
    expect(judge(AUTONOMOUS, "cp a/rc rc && echo x >> rc").action).toBe("allow");
    expect(judge(AUTONOMOUS, "cp a.txt b.txt && cat b.txt").action).toBe("allow");
    expect(judge(AUTONOMOUS, "cp -P a/rc rc && echo x >> notes.txt").action).toBe("allow");
    expect(judge(AUTONOMOUS, "cp -P a/rc rc && cat README.md").action).toBe("allow");
  });
});

const SOURCES = [
  { src: "a/rc", name: "rc", write: "" },
  { src: "a/deep/rc", name: "rc", write: "" },
  { src: "sub/deep/g", name: "g", write: "/config" },
];
const DIRS = [".", "a", "sub", "sub/deep"];
const FLAGS = [
  "",
  "-P",
  "-d",
  "-a",
  "-R",
  "-r",
  "-rP",
  "-RL",
  "-L",
  "-H",
  "--no-dereference",
  "-l",
  "--preserve=links",
];
const FORMS = [
  (flags: string, src: string, dir: string, name: string) => ({
    cmd: `cp ${flags} ${src} ${dir}/${name}`,
    at: `${dir}/${name}`,
  }),
  (flags: string, src: string, dir: string, name: string) => ({
    cmd: `cp ${flags} ${src} ${dir}/`,
    at: `${dir}/${name}`,
  }),
  (flags: string, src: string, dir: string, name: string) => ({
    cmd: `cp ${flags} -t ${dir} ${src}`,
    at: `${dir}/${name}`,
  }),
  (_flags: string, src: string, dir: string, name: string) => ({
    cmd: `mv ${src} ${dir}/${name}2`,
    at: `${dir}/${name}2`,
  }),
];

describe("property: whenever the relocated link writes outside, the judge does not allow", () => {
  it("random link layouts × cp spellings × destinations against a real run", () => {
    let escaped = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...SOURCES),
        fc.constantFrom(...DIRS),
        fc.constantFrom(...FLAGS),
        fc.constantFrom(...FORMS),
        fc.constantFrom("&&", ";"),
        (source, dir, flags, form, sep) => {
          const copy = form(flags, source.src, dir, source.name);
          const command = `${copy.cmd} 2>/dev/null ${sep} printf X >> ${copy.at}${source.write}`;
          if (!escapes(command)) return;
          escaped++;
          expect(judge(AUTONOMOUS, command).action, command).not.toBe("allow");
        },
      ),
      { numRuns: 80 },
    );
    expect(escaped).toBeGreaterThan(0);
  });
});
