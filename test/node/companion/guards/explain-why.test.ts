// `airlock policy explain` resolves paths on this machine as the companion does, and where a path
// refuses the allow it names the path and the reason on one `why:` line (`--no-disk`: the text alone).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIo } from "../../../../src/companion/cli/command.ts";
import { main } from "../../../../src/companion/cli.ts";
import { type DiskFixture, diskFixture } from "./disk-fixture.ts";

let fx: DiskFixture;
let config: string;

beforeAll(() => {
  fx = diskFixture();
  config = join(fx.base, "policy.yaml");
  writeFileSync(
    config,
    `version: 1
default_action: ask
rules:
  - name: reads
    condition: 'tool == "read" && path.startsWith(cwd + "/")'
    action: allow
  - name: read-only programs
    condition: 'tool == "bash" && program in ["cat", "git", "cd"]'
    action: allow
`,
  );
});
afterAll(() => fx.cleanup());

async function explain(command: string, ...extra: string[]) {
  let out = "";
  const io: CommandIo = {
    stdout: (t) => {
      out += t;
    },
    stderr: () => {},
    readStdin: async () => "",
    env: { HOME: fx.home },
    cwd: fx.ws,
  };
  const args = [
    "policy",
    "explain",
    "--tool",
    "bash",
    "--input",
    JSON.stringify({ command }),
    "--config",
    config,
  ];
  const code = await main([...args, ...extra], io);
  return { code, out };
}

describe("airlock policy explain with the disk", () => {
  it("names the symlinked secret on one why: line", async () => {
    const r = await explain("cat docs-key.txt");
    expect(r.out).toMatch(/^action: {5}ask$/m);
    const why = r.out.split("\n").filter((l) => l.startsWith("why:"));
    expect(why).toHaveLength(1);
    expect(why[0]).toMatch(/`docs-key\.txt`: is a link to `.*id_rsa`, a secret \(SSH and signing keys\)/);
  });
  it("names the other repository git would use", async () => {
    const r = await explain("cd fixtures/repo && git status");
    expect(r.out).toMatch(/^why: +`git status`: git would use the repository at `fixtures\/repo`/m);
  });
  it("--no-disk judges the text alone, and a clean read has no why: line", async () => {
    expect((await explain("cat docs-key.txt", "--no-disk")).out).toMatch(/^action: {5}allow$/m);
    const clean = await explain("cat package.json");
    expect(clean.out).toMatch(/^action: {5}allow$/m);
    expect(clean.out).not.toMatch(/^why:/m);
  });
});
