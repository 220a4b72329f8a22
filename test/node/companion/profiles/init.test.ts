// `airlock init` offers the profiles: it prints what each would ask on this repository, writes the one
// chosen (balanced by default), and refuses a profile it does not know.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../../../src/companion/cli/command-args.ts";
import { initCommand } from "../../../../src/companion/commands/init.ts";
import { compilePolicy } from "../../../../src/policy/index.ts";
import { sampleWorkspace } from "./sample-workspace.ts";

let repo = "";
let home = "";

beforeAll(() => {
  repo = sampleWorkspace();
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

async function init(args: string[]) {
  home = mkdtempSync(join(tmpdir(), "airlock-init-home-"));
  let out = "";
  const code = await initCommand.run([...args, "--no-hooks"], {
    stdout: (t) => {
      out += t;
    },
    stderr: () => {},
    readStdin: async () => "",
    env: { HOME: home, AIRLOCK_HOME: join(home, ".airlock"), PATH: "" },
    cwd: join(repo, "src"),
    stdinIsTTY: false,
  });
  const policy = readFileSync(join(home, ".airlock", "permissions.yaml"), "utf8");
  rmSync(home, { recursive: true, force: true });
  return { code, out, policy };
}

describe("airlock init", () => {
  it("previews every profile on this repository, then writes balanced by default", async () => {
    const r = await init([]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`What each profile would ask in ${repo}`);
    for (const p of ["cautious", "balanced", "autonomous"])
      expect(r.out).toMatch(new RegExp(`${p}\\s+asks\\s+\\d+ of \\d+`));
    expect(r.out).toContain("(profile balanced)");
    expect(r.policy).toContain('profile "balanced"');
    expect(compilePolicy([{ layer: "user", path: "/p.yaml", text: r.policy }]).ok).toBe(true);
  });

  it("writes the profile asked for, and says in JSON what each would ask", async () => {
    const r = await init(["--profile", "cautious", "--json"]);
    const json = JSON.parse(r.out) as {
      policy: { profile: string; written: boolean };
      preview: { profile: string; asks: number; readOnlyAsks: number; total: number }[];
    };
    expect(json.policy).toMatchObject({ profile: "cautious", written: true });
    expect(json.preview.map((p) => p.profile)).toEqual(["cautious", "balanced", "autonomous"]);
    const [cautious, balanced, autonomous] = json.preview;
    expect(cautious?.asks).toBeGreaterThan(balanced?.asks ?? 0);
    expect(balanced?.asks).toBeGreaterThan(autonomous?.asks ?? 0);
    expect(balanced?.readOnlyAsks).toBeLessThanOrEqual(2);
    expect(r.policy).toContain('profile "cautious"');
    expect(r.policy).not.toContain("Edit the workspace");
  });

  it("refuses a profile it does not know", async () => {
    await expect(init(["--profile", "yolo"])).rejects.toBeInstanceOf(UsageError);
  });
});
