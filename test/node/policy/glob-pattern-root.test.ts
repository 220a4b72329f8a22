// Red team round 10 (suspicion, judged): a Glob whose pattern is absolute, starts at `~` or climbs with
// `..` lists names outside its `path` (fast-glob and Claude Code's Glob take such a pattern's directory
// as the base). The pattern's fixed prefix is the search's directory and is judged as a path.
// Round 15: the canonical `find` (what Gemini's glob and Pi's find map to, and `policy explain --tool find`)
// took an absolute pattern as relative to the workspace; Gemini's glob listed a whole home directory.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { judgeCall } from "../../../src/policy/judge-call.ts";
import { canonicalCalls } from "../../../src/policy/tool-names.ts";
import { CWD, compile, user } from "./helpers.ts";

const BALANCED = compile(user(starterPolicy("balanced")));
const glob = (input: Record<string, unknown>, tool = "Glob") =>
  // judgeCall maps an agent's tool name to the canonical call first, as the companion and `policy explain` do.
  judgeCall(BALANCED, { tool, input, cwd: CWD, home: "/home/dev" }, { hasUI: true }).record.action;

describe("a Glob pattern that leaves its directory", () => {
  it.each([
    { pattern: "/home/dev/.ssh/*" },
    { pattern: "~/.ssh/*" },
    { pattern: "../../dev/.aws/*" },
    { pattern: "src/../../other/*" },
    { pattern: "*/../../x/*" },
    { pattern: "/etc/*", path: CWD },
  ])("%j is not allowed", (input) => {
    expect(glob(input)).not.toBe("allow");
    expect(glob(input, "glob")).not.toBe("allow");
    expect(glob(input, "find")).not.toBe("allow");
  });

  it("property: an absolute pattern outside the project is never allowed", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("/home/dev/.ssh", "/etc", "/home/dev", "/root", "/tmp"),
        fc.constantFrom("*", "**/*", "id_*", "*.pem", "a/*/b"),
        (dir, rest) => {
          for (const tool of ["Glob", "glob", "find"])
            expect(glob({ pattern: `${dir}/${rest}` }, tool), tool).not.toBe("allow");
        },
      ),
    );
  });

  it("a pattern inside its directory is searched as written; a leaving one from its fixed prefix", () => {
    const mapped = (input: Record<string, unknown>) => canonicalCalls("Glob", input)[0]?.input;
    expect(mapped({ pattern: "**/*.ts" })).toEqual({ pattern: "**/*.ts" });
    expect(mapped({ pattern: "src/**/*.ts", path: CWD })).toEqual({ pattern: "src/**/*.ts", path: CWD });
    expect(mapped({ pattern: `${CWD}/src/*.ts` })).toEqual({ pattern: "*.ts", path: `${CWD}/src` });
    expect(mapped({ pattern: "../x/*.ts", path: CWD })).toEqual({ pattern: "*.ts", path: `${CWD}/../x` });
    expect(mapped({ pattern: "~/.ssh/id_*" })).toEqual({ pattern: "id_*", path: "~/.ssh" });
    expect(mapped({ pattern: "a/*/../../x" })).toEqual({ pattern: "*/../../x", path: "/" });
  });

  it("the canonical find reads its pattern the same way, and a pattern inside stays allowed", () => {
    const found = (input: Record<string, unknown>) => canonicalCalls("find", input)[0]?.input;
    expect(found({ pattern: "/home/dev/.ssh/*" })).toEqual({ pattern: "*", path: "/home/dev/.ssh" });
    expect(found({ pattern: "**/*.ts", path: CWD, limit: 5 })).toEqual({
      pattern: "**/*.ts",
      path: CWD,
      limit: 5,
    });
    expect(glob({ pattern: "**/*.ts" }, "find")).toBe("allow");
    expect(glob({ pattern: `${CWD}/src/*.ts` }, "find")).toBe("allow");
  });
});
