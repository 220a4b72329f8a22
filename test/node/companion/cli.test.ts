// The CLI dispatcher: --version, --help, unknown commands, and a help page for every command.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CommandIo } from "../../../src/companion/cli/command.ts";
import { main } from "../../../src/companion/cli.ts";
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

describe("usage mistakes are answered in Airlock's words", () => {
  it("a group word lists its subcommands (airlock policy --help, airlock hook --help)", async () => {
    for (const [group, sub] of [
      ["policy", "explain"],
      ["hook", "claude-code"],
      ["devices", "pair"],
    ] as const) {
      const c = capture();
      expect(await main([group, "--help"], c.io)).toBe(0);
      expect(c.out()).toContain(`Usage: airlock ${group} <`);
      expect(c.out()).toContain(`airlock ${group} ${sub}`);
      const bare = capture();
      expect(await main([group], bare.io)).toBe(2);
      expect(bare.err()).toContain(`airlock ${group} ${sub}`);
    }
  });

  it("suggests the nearest command for a typo, at the top level and inside a group", async () => {
    const top = capture();
    expect(await main(["polcy", "explain"], top.io)).toBe(2);
    expect(top.err()).toMatch(/^airlock: unknown command "polcy" \(did you mean "airlock policy"\?\)\n/);
    const sub = capture();
    expect(await main(["policy", "explian"], sub.io)).toBe(2);
    expect(sub.err()).toMatch(
      /^airlock policy: unknown command "explian" \(did you mean "airlock policy explain"\?\)\n/,
    );
    const far = capture();
    expect(await main(["zzzzzz"], far.io)).toBe(2);
    expect(far.err()).not.toContain("did you mean");
  });

  it("an unknown flag names the nearest one and prints the command's usage line, not Node's parser message", async () => {
    const c = capture();
    expect(await main(["pair", "12345678", "--sever", "http://x"], c.io)).toBe(2);
    expect(c.err()).toBe(
      'airlock pair: unknown option --sever (did you mean --server?)\nUsage: airlock pair <code> [--server URL] [--name NAME] [--json]\nRun "airlock pair --help" for details.\n',
    );
    expect(c.err()).not.toMatch(/positional argument|ERR_PARSE_ARGS/);
    const top = capture();
    expect(await main(["--verison"], top.io)).toBe(2);
    expect(top.err()).toContain("unknown option --verison (did you mean --version?)");
  });

  it("a flag without its value, a stray word and a repeated flag are usage errors", async () => {
    const missing = capture();
    expect(await main(["pair", "12345678", "--server"], missing.io)).toBe(2);
    expect(missing.err()).toContain("airlock pair: --server needs a value\nUsage: airlock pair");
    const stray = capture();
    expect(await main(["status", "now"], stray.io)).toBe(2);
    expect(stray.err()).toContain('airlock status: unexpected argument "now"\nUsage: airlock status');
    const twice = capture();
    expect(await main(["pair", "1", "--name", "a", "--name", "b"], twice.io)).toBe(2);
    expect(twice.err()).toContain("--name is given more than once");
  });

  it("policy explain requires --input for a tool that decides on its input", async () => {
    const c = capture();
    expect(await main(["policy", "explain", "--tool", "bash"], c.io)).toBe(2);
    expect(c.err()).toContain(
      `airlock policy explain: --input is required for bash, e.g. --input '{"command":"git status"}'`,
    );
    expect(c.out()).toBe("");
  });

  it("a bad pairing code is refused before any request, naming what was given", async () => {
    const c = capture();
    expect(await main(["pair", "1234"], c.io)).toBe(2);
    expect(c.err()).toContain('airlock pair: "1234" is not a pairing code; a code is 8 digits');
  });

  it("no message ends in dangling punctuation or says the same thing twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "airlock-cli-"));
    const bad = join(dir, "permissions.yaml");
    writeFileSync(bad, "rules:\n  - name: a\n    condition: true\n  action: allow\n");
    const messages: string[] = [];
    for (const argv of [
      ["polcy"],
      ["pair", "--sever"],
      ["policy", "explain", "--tool", "read"],
      ["status", "x"],
      ["policy", "lint", bad],
    ]) {
      const c = capture();
      await main(argv, c.io);
      messages.push((c.err() || c.out()).split("\n")[0] ?? "");
    }
    rmSync(dir, { recursive: true, force: true });
    expect(messages[4]).toMatch(/invalid YAML: .+[a-z]$/);
    for (const line of messages) {
      expect(line.length).toBeGreaterThan(10);
      expect(line).not.toMatch(/[:,;(]\s*$/);
      const words = line.split(/\s+/);
      for (let i = 1; i < words.length; i++)
        if ((words[i] ?? "").length > 3) expect(words[i]).not.toBe(words[i - 1]);
    }
  });
});
