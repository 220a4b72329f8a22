// Why OpenCode's `lsp` tool is judged as a read of its file (red team, round 17, r17-s02): the real OpenCode
// from npm, offline against a scripted model, starts the file's language server on a plain `read` when its
// config enables one, and starts none when the config leaves `lsp` out (its default). Asking for `lsp` alone
// would stop no server that a read of the same file had not already started; a language server that runs
// the project's code is a matter of OpenCode's `lsp` setting (docs/agents.md).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelServer } from "../support/model-server.ts";
import { runToEnd } from "../support/run-process.ts";
import { OPENCODE, OPENCODE_MODEL, openCodeEnv, writeOpenCodeConfig } from "./support/opencode-offline.ts";

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "airlock-opencode-lsp-"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/**
 * Runs OpenCode on one `read` of a Rust project's main.rs, with a stand-in `rust-analyzer` first on PATH (OpenCode's
 * built-in Rust server is whichever `rust-analyzer` PATH finds) that records where it started; null when it did not.
 */
async function readMainRs(
  name: string,
  settings: Record<string, unknown>,
): Promise<{ result: string | undefined; started: string | null }> {
  const dir = join(root, name);
  const ws = join(dir, "ws");
  const bin = join(dir, "bin");
  const marker = join(dir, "STARTED");
  for (const d of [join(dir, "home"), join(ws, "src"), bin]) mkdirSync(d, { recursive: true });
  writeFileSync(join(ws, "Cargo.toml"), '[package]\nname = "demo"\nversion = "0.1.0"\n');
  writeFileSync(join(ws, "src/main.rs"), 'fn main() { println!("hello"); }\n');
  writeFileSync(join(bin, "rust-analyzer"), `#!/bin/sh\necho "$PWD" >> '${marker}'\nexec cat > /dev/null\n`);
  chmodSync(join(bin, "rust-analyzer"), 0o755);
  const model = await startModelServer([
    { toolCalls: [{ name: "read", input: { filePath: join(ws, "src/main.rs") } }] },
    { text: "done" },
  ]);
  try {
    const config = join(dir, "opencode.json");
    writeOpenCodeConfig(config, model.url, settings);
    const env = openCodeEnv(ws, join(dir, "home"), config);
    const run = await runToEnd(
      OPENCODE,
      ["run", "--format", "json", "--model", OPENCODE_MODEL, "Read main.rs."],
      ws,
      { ...env, PATH: `${bin}:${env.PATH ?? ""}` },
    );
    expect(run.code, run.stderr).toBe(0);
    return {
      result: model.toolResults()[0]?.text,
      started: existsSync(marker) ? readFileSync(marker, "utf8") : null,
    };
  } finally {
    await model.close();
  }
}

describe("OpenCode's language servers start on a plain read", () => {
  it("with `lsp: true`, reading a Rust file starts rust-analyzer in the project", async () => {
    const { result, started } = await readMainRs("enabled", { lsp: true });
    expect(result).toContain("hello");
    expect(started?.trim()).toBe(join(root, "enabled", "ws"));
  }, 180_000);

  it("with `lsp` left out of the config (OpenCode's default), none starts", async () => {
    const { result, started } = await readMainRs("default", {});
    expect(result).toContain("hello");
    expect(started).toBeNull();
  }, 180_000);
});
