// Codex's experimental file tools (read_file, list_dir, grep_files; codex-rs/core/src/tools/handlers) asked as
// unknown tool names (round 16 over-asks) while view_image on the same file was judged as a read. Each is
// judged as its Claude Code twin (Read, LS, Grep): allowed in the workspace, denied on a secret, and a field
// the handler does not take is not understood.
import { describe, expect, it } from "vitest";
import { starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { canonicalCalls, judgeCall } from "../../../src/policy/index.ts";
import { CWD, compile, user } from "./helpers.ts";

const STARTER = compile(user(starterPolicy("balanced")));
const judged = (tool: string, input: Record<string, unknown>) =>
  judgeCall(STARTER, { tool, input, cwd: CWD, home: "/home/dev" }, { hasUI: true }).record.action;

describe("Codex's file tools", () => {
  it("map to read, ls and grep", () => {
    expect(canonicalCalls("read_file", { file_path: `${CWD}/README.md`, offset: 1, limit: 20 })).toEqual([
      { tool: "read", input: { path: `${CWD}/README.md` }, notUnderstood: [] },
    ]);
    expect(canonicalCalls("list_dir", { dir_path: CWD, depth: 2 })[0]?.tool).toBe("ls");
    expect(canonicalCalls("grep_files", { pattern: "TODO", include: "*.ts", path: CWD })[0]).toEqual({
      tool: "grep",
      input: { pattern: "TODO", path: CWD, glob: "*.ts" },
      notUnderstood: [],
    });
  });

  it("answer as their Claude Code twins do", () => {
    const pairs: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
      ["read_file", { file_path: `${CWD}/README.md` }, "Read", { file_path: `${CWD}/README.md` }],
      ["read_file", { file_path: `${CWD}/.env` }, "Read", { file_path: `${CWD}/.env` }],
      ["read_file", { file_path: "/home/dev/.ssh/id_rsa" }, "Read", { file_path: "/home/dev/.ssh/id_rsa" }],
      ["list_dir", { dir_path: `${CWD}/src` }, "LS", { path: `${CWD}/src` }],
      ["list_dir", { dir_path: "/home/dev/.ssh" }, "LS", { path: "/home/dev/.ssh" }],
      ["grep_files", { pattern: "x", path: CWD }, "Grep", { pattern: "x", path: CWD }],
      [
        "grep_files",
        { pattern: "x", path: "/home/dev/.aws" },
        "Grep",
        { pattern: "x", path: "/home/dev/.aws" },
      ],
    ];
    for (const [a, ai, b, bi] of pairs)
      expect(judged(a, ai), `${a} ${JSON.stringify(ai)}`).toBe(judged(b, bi));
    expect(judged("read_file", { file_path: `${CWD}/README.md`, offset: 3, mode: "slice" })).toBe("allow");
    expect(judged("read_file", { file_path: `${CWD}/.env` })).toBe("deny");
    expect(judged("list_dir", { dir_path: "/home/dev/.ssh" })).not.toBe("allow");
  });

  it("a field the handler does not take is not understood", () => {
    const [c] = canonicalCalls("read_file", { file_path: `${CWD}/README.md`, follow: true });
    expect(c?.notUnderstood.length).toBeGreaterThan(0);
    expect(judged("read_file", { file_path: `${CWD}/README.md`, follow: true })).not.toBe("allow");
  });
});
