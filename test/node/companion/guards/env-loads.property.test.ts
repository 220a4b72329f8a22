// The table of variables that make a program load code or configuration from a named path
// (policy/env-loads.ts), as a property: every variable, naming a path in the workspace (alone or among
// other entries of its list), makes a write at or below that path ask, by the Write tool and by a shell
// redirection alike; a write beside it is judged as with a clean environment. And setting any of them in a
// command is a dangerous variable already (shell/env-vars.ts), so the two tables agree.

import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { LOADING_VARIABLES, type LoadingVariable, loadedPaths } from "../../../../src/policy/env-loads.ts";
import { dangerousVariable } from "../../../../src/policy/shell/env-vars.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk } from "./disk-fixture.ts";

const { base, ws } = gitWorkspace("airlock-env-loads-", { "README.md": "# demo\n" });
afterAll(() => rmSync(base, { recursive: true, force: true }));

const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);

/** A value naming `path` as each kind of word-valued variable spells it, among other words. */
const SPELLED: Readonly<Record<NonNullable<LoadingVariable["words"]>, (path: string) => string>> = {
  command: (p) => `${p} -R`,
  jvm: (p) => `-Xmx1g -javaagent:${p}=verbose`,
  perl: (p) => `-I${p} -Mstrict`,
  compilerFlags: (p) => `-O2 -B${p}`,
  goFlags: (p) => `-mod=mod -toolexec=${p}`,
  files: (p) => `-q ${p}`,
  tarOptions: (p) => `--no-same-owner --to-command=${p}`,
};

function valueNaming(variable: LoadingVariable, path: string): string {
  return variable.words === undefined ? path : SPELLED[variable.words](path);
}

function judged(tool: "write" | "bash", path: string, env: NodeJS.ProcessEnv) {
  const input =
    tool === "write" ? { file_path: path, content: "x\n" } : { command: `printf 'x\\n' > '${path}'` };
  return judgeOnDisk(BALANCED, { tool, input, cwd: ws } as ToolCall, { disk: diskCheck({ env }) });
}

describe("every loading variable × a path inside what it names", () => {
  it("a write there asks, by the Write tool and by a shell redirection", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOADING_VARIABLES),
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.array(segment, { maxLength: 2 }),
        fc.constantFrom("write" as const, "bash" as const),
        fc.boolean(),
        (variable, namedSegs, below, tool, amongOthers) => {
          const named = join(ws, "cfg", ...namedSegs);
          const value =
            variable.list !== undefined && amongOthers
              ? `/opt/elsewhere:${named}:/usr/lib`
              : valueNaming(variable, named);
          const target = join(named, ...below);
          const j = judged(tool, target, { [variable.name]: value });
          expect(j.action, `${variable.name}=${value}: ${tool} ${target}`).not.toBe("allow");
          expect(j.why).toContain(variable.name);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a write beside it is judged as with a clean environment", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOADING_VARIABLES), segment, (variable, name) => {
        const env = { [variable.name]: valueNaming(variable, join(ws, "cfg", `${name}-named`)) };
        const beside = join(ws, "src", `${name}.ts`);
        expect(judged("write", beside, env).action).toBe(judged("write", beside, {}).action);
        expect(judged("write", beside, env).why).not.toContain(variable.name);
      }),
      { numRuns: 60 },
    );
  });
});

describe("the table", () => {
  it("setting any of its variables in a command is already a dangerous variable", () => {
    for (const v of LOADING_VARIABLES)
      expect(dangerousVariable(v.ignoreCase ? v.name.toLowerCase() : v.name, "/x"), v.name).not.toBeNull();
  });

  it("reads entries as the programs do", () => {
    const entries = (env: NodeJS.ProcessEnv) => loadedPaths(env).map((l) => [l.name, l.path]);
    // An empty search entry is the working directory; a bare LD_PRELOAD name is searched like any library.
    expect(entries({ LD_LIBRARY_PATH: ":/usr/lib" })).toEqual([
      ["LD_LIBRARY_PATH", null],
      ["LD_LIBRARY_PATH", "/usr/lib"],
    ]);
    expect(entries({ LD_PRELOAD: "libjemalloc.so.2  /w/x.so" })).toEqual([["LD_PRELOAD", "/w/x.so"]]);
    expect(entries({ npm_config_userconfig: "/w/.npmrc", HOME: "/home/u", PATH: "/bin" })).toEqual([
      ["npm_config_userconfig", "/w/.npmrc"],
    ]);
    expect(entries({ BASH_ENV: "" })).toEqual([]);
    // A command's words: a bare name is looked up in PATH, a word with a slash is a file, `~/` is home's.
    expect(entries({ GIT_PAGER: "less -R", PAGER: "~/bin/pg --x", HOME: "/home/u" })).toEqual([
      ["PAGER", "/home/u/bin/pg"],
    ]);
    expect(entries({ LESSOPEN: "||-/w/lesspipe.sh %s", MANPAGER: "sh -c 'col -b | ./view'" })).toEqual([
      ["LESSOPEN", "/w/lesspipe.sh"],
      ["MANPAGER", null],
    ]);
    expect(entries({ LESSOPEN: "-/w/pre.sh %s", LESSCLOSE: "|/w/post.sh %s %s" })).toEqual([
      ["LESSOPEN", "/w/pre.sh"],
      ["LESSCLOSE", "/w/post.sh"],
    ]);
    // Options: only those that name files; a relative include directory is not one.
    expect(
      entries({
        JAVA_TOOL_OPTIONS: "-Xmx2g -javaagent:/w/a.jar=x",
        CGO_CFLAGS: "-O2 -I./include -B/w/tools",
        GOFLAGS: "-mod=mod -toolexec=vetwrap -modfile=/w/alt.mod",
        CC: "gcc",
      }),
    ).toEqual([
      ["JAVA_TOOL_OPTIONS", "/w/a.jar"],
      ["CGO_CFLAGS", "/w/tools"],
      ["GOFLAGS", "/w/alt.mod"],
    ]);
  });
});
