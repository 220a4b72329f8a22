// Red team round 11, open classes B and C. B: a variable under a version manager's prefix steers any
// program that is one of its shims — `PYENV_HOOK_PATH=hooks python3 --version` sources the project's
// hooks/exec/*.bash, `PYENV_VERSION=../../proj/tc python3 --version` runs the project's tc/bin/python3.
// C: npm takes `npm_config_*` in any case (`Npm_Config_Userconfig=FILE npm ls` prints FILE's lines), and
// yarn `yarn_*`; git, node, python, pip and cargo read their names as written. Each attack is shown in
// real bash first (with the real pyenv and npm when this machine has them), then never allowed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { dangerousVariable } from "../../../../src/policy/shell/env-vars.ts";
import { BALANCED, judge, neverAllowed } from "./policies.ts";

const base = mkdtempSync(join(tmpdir(), "airlock-rt12-env-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const PYENV = "/root/.pyenv";
const hasPyenv = existsSync(join(PYENV, "shims", "python3"));

function pyenvBash(command: string, cwd: string) {
  return spawnSync("bash", ["-c", command], {
    cwd,
    encoding: "utf8",
    env: { HOME: base, PYENV_ROOT: PYENV, PATH: `${PYENV}/shims:${PYENV}/bin:/usr/bin:/bin` },
  });
}

describe("variables that steer a version manager's shims (class B)", () => {
  const proj = join(base, "proj");
  mkdirSync(join(proj, "hooks", "exec"), { recursive: true });
  mkdirSync(join(proj, "tc", "bin"), { recursive: true });
  writeFileSync(join(proj, "hooks", "exec", "x.bash"), "echo PWNED-hook >&2\n");
  writeFileSync(join(proj, "tc", "bin", "python3"), "#!/bin/sh\necho PWNED-python3\n", { mode: 0o755 });

  it.skipIf(!hasPyenv)("real pyenv runs the project's hook and the project's python3", () => {
    expect(pyenvBash("PYENV_HOOK_PATH=hooks python3 --version", proj).stderr).toContain("PWNED-hook");
    const up = `${"../".repeat(PYENV.split("/").length)}${proj.slice(1)}/tc`;
    expect(pyenvBash(`PYENV_VERSION=${up} python3 --version`, proj).stdout).toContain("PWNED-python3");
    // A plain version name stays in pyenv's own versions directory.
    expect(pyenvBash("PYENV_VERSION=system python3 --version", proj).stdout).toMatch(/^Python 3/);
  });

  it("never allows them, in any assignment form", () => {
    for (const command of [
      "PYENV_HOOK_PATH=hooks python3 --version",
      "PYENV_VERSION=../../../tmp/proj/tc python3 --version",
      "env PYENV_VERSION=../x python3 -V",
      "export PYENV_ROOT=/tmp/x; python3 -V",
      "PYENV_DIR=/tmp python3 -V",
      "PYENV_DEBUG=1 python3 -V",
      "RBENV_HOOK_PATH=hooks ruby -v",
      "NODENV_VERSION=../../x node --version",
      "ASDF_DATA_DIR=x node --version",
      "ASDF_PYTHON_VERSION=ref:main python3 -V",
      "MISE_DATA_DIR=x node --version",
      "NVM_DIR=x node --version",
      "VOLTA_HOME=x node --version",
      "FNM_DIR=x node --version",
    ])
      neverAllowed(command);
  });

  it("a plain version name for a *env shim is no danger", () => {
    for (const command of ["PYENV_VERSION=3.12.1 python3 --version", "PYENV_VERSION=system python3 -V"])
      expect(judge(BALANCED, command).action, command).toBe("allow");
  });

  it("property: every name under a manager's prefix is dangerous unless it is *ENV_VERSION with a plain name", () => {
    const prefix = fc.constantFrom(
      ..."PYENV RBENV NODENV JENV PLENV PHPENV ASDF MISE RTX NVM FNM VOLTA SDKMAN".split(" "),
    );
    const suffix = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,12}$/);
    const value = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._/:+-]{1,16}$/), fc.constant(null));
    fc.assert(
      fc.property(prefix, suffix, value, (p, s, v) => {
        const name = `${p}_${s}`;
        const why = dangerousVariable(name, v);
        const plain = v !== null && /^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(v);
        if (s === "VERSION" && p.endsWith("ENV") && plain) expect(why, name).toBeNull();
        else expect(why, `${name}=${v}`).not.toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});

describe("npm's and yarn's variables in any case (class C)", () => {
  const proj = join(base, "npmproj");
  mkdirSync(proj, { recursive: true });
  writeFileSync(join(proj, "package.json"), '{"name":"p","version":"1.0.0"}\n');
  const cred = join(base, "cred");
  writeFileSync(cred, "https://u:GITCREDSECRET@github.com\n");
  const hasNpm = spawnSync("npm", ["--version"], { encoding: "utf8" }).status === 0;

  it.skipIf(!hasNpm)("real npm reads Npm_Config_Userconfig and prints the named file's lines", () => {
    const r = spawnSync("bash", ["-c", `Npm_Config_Userconfig=${cred} npm ls`], {
      cwd: proj,
      encoding: "utf8",
      env: { HOME: base, PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    expect(r.stderr + r.stdout).toContain("GITCREDSECRET");
  });

  it("never allows npm_config_* or yarn_* in any case; other programs' prefixes stay as written", () => {
    for (const command of [
      "Npm_Config_Userconfig=/tmp/x npm ls",
      "NPM_config_logs_dir=/tmp/x npm ls",
      "env nPm_CoNfIg_script_shell=/tmp/x npm --version",
      "export Yarn_Cache_Folder=/tmp/x; yarn --version",
    ])
      neverAllowed(command);
    fc.assert(
      fc.property(
        fc.constantFrom("npm_config_", "yarn_"),
        fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
        (p, ups) => {
          const name = [...`${p}userconfig`].map((c, i) => (ups[i] ? c.toUpperCase() : c)).join("");
          expect(dangerousVariable(name, "/tmp/x"), name).not.toBeNull();
        },
      ),
    );
  });

  it("node and git read their variables as written: a name in another case is an ordinary variable", () => {
    const hook = join(base, "hook.cjs");
    writeFileSync(hook, 'console.log("PWNED-require")\n');
    const node = (name: string) =>
      spawnSync(process.execPath, ["-e", "1"], { encoding: "utf8", env: { [name]: `--require=${hook}` } })
        .stdout;
    expect(node("NODE_OPTIONS")).toContain("PWNED-require");
    expect(node("Node_Options")).not.toContain("PWNED-require");
    const git = (name: string) =>
      spawnSync("git", ["rev-parse", "--git-dir"], {
        cwd: proj,
        encoding: "utf8",
        env: { [name]: "/nonexistent" },
      });
    expect(git("GIT_DIR").stderr).toContain("/nonexistent");
    expect(git("Git_Dir").stderr).not.toContain("/nonexistent");
    expect(dangerousVariable("Git_Dir", "/tmp/x")).toBeNull();
    expect(dangerousVariable("Node_Options", "--require=x")).toBeNull();
  });
});
