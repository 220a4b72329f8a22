// The CLI dispatcher: --version, --help, unknown commands, and a help page for every command.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/companion/cli.ts";
import type { CommandIo } from "../../../src/companion/command.ts";
import { commands } from "../../../src/companion/commands/index.ts";

function capture(): { io: CommandIo; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
      readStdin: async () => "",
      env: {},
      cwd: process.cwd(),
    },
    out: () => out,
    err: () => err,
  };
}

describe("airlock CLI", () => {
  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(
      readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
    ) as {
      version: string;
    };
    const c = capture();
    expect(await main(["--version"], c.io)).toBe(0);
    expect(c.out().trim()).toBe(version);
  });

  it("an unknown command exits 2 with the command list", async () => {
    const c = capture();
    expect(await main(["launch"], c.io)).toBe(2);
    expect(c.err()).toContain('unknown command "launch"');
    expect(c.err()).toContain("airlock hook claude-code");
  });

  it.each(commands.map((c) => c.name.join(" ")))(
    "airlock %s --help loads and prints its help",
    async (name) => {
      const c = capture();
      expect(await main([...name.split(" "), "--help"], c.io)).toBe(0);
      expect(c.out().length).toBeGreaterThan(40);
    },
  );
});
