// Never: a workspace name for a secret outside it. A hard link in the workspace to ~/.aws/credentials
// (link count 2) and a symlink to ~/.ssh/id_rsa are refused by every opener — the precognition warm, the
// serve-time validation, the MCP read tool and the MCP grep tool — as is a small file holding a private key.
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grepTool } from "../../../../src/companion/adapters/mcp/grep-tool.ts";
import { readTool } from "../../../../src/companion/adapters/mcp/read-tool.ts";
import { ToolFailure } from "../../../../src/companion/adapters/mcp/tool-result.ts";
import { validateRead, warmRead } from "../../../../src/companion/futures/read-futures.ts";
import { openInside } from "../../../../src/companion/guards/index.ts";

const SECRET = "aws_secret_access_key = AKIA-OUTSIDE-SECRET";
const KEY =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";
let root: string;
let ws: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "airlock-hardlink-")));
  ws = join(root, "ws");
  const home = join(root, "home");
  mkdirSync(join(home, ".aws"), { recursive: true });
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(ws, "docs"), { recursive: true });
  writeFileSync(join(home, ".aws", "credentials"), `${SECRET}\n`);
  writeFileSync(join(home, ".ssh", "id_rsa"), KEY);
  writeFileSync(join(ws, "docs", "readme.txt"), "plain words\n");
  linkSync(join(home, ".aws", "credentials"), join(ws, "docs", "notes.txt"));
  symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "docs-key.txt"));
  writeFileSync(join(ws, "docs", "deploy.txt"), `deploy notes\n${KEY}`);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const text = (r: { content: { type: string; text?: string }[] }) =>
  r.content.map((c) => c.text ?? "").join("");

describe("a hard link to ~/.aws/credentials inside the workspace", () => {
  it("is refused by openInside with the reason", async () => {
    const opened = await openInside(ws, "docs/notes.txt");
    expect(opened.ok).toBe(false);
    expect(!opened.ok && opened.reason).toMatch(/hard link/);
  });
  it("is never warmed by precognition", async () => {
    const r = await warmRead(ws, "docs/notes.txt", 1 << 20);
    expect("refused" in r && r.refused).toBe("guard");
  });
  it("misses at serve time when a warmed name becomes the hard link", async () => {
    writeFileSync(join(ws, "docs", "swap.txt"), "inside\n");
    const future = await warmRead(ws, "docs/swap.txt", 1 << 20);
    if ("refused" in future) throw new Error(future.detail);
    rmSync(join(ws, "docs", "swap.txt"));
    linkSync(join(root, "home", ".aws", "credentials"), join(ws, "docs", "swap.txt"));
    expect(await validateRead(future, "docs/swap.txt")).toEqual({ ok: false, reason: "guard" });
  });
  it("is refused by the MCP read tool", async () => {
    await expect(readTool(ws, join(ws, "docs", "notes.txt"), { path: "docs/notes.txt" })).rejects.toThrow(
      /hard link/,
    );
  });
  it("is refused by the MCP grep tool by name, and skipped in a walk", async () => {
    await expect(
      grepTool(ws, join(ws, "docs", "notes.txt"), "docs/notes.txt", { pattern: "AKIA" }),
    ).rejects.toThrow(ToolFailure);
    const walked = await grepTool(ws, ws, ".", { pattern: "AKIA|plain" });
    expect(text(walked)).not.toContain("OUTSIDE-SECRET");
    expect(text(walked)).toContain("plain words");
  });
});

describe("a name that leads to a private key", () => {
  it("a symlink to ~/.ssh/id_rsa is refused by every opener", async () => {
    expect((await openInside(ws, "docs-key.txt")).ok).toBe(false);
    expect("refused" in (await warmRead(ws, "docs-key.txt", 1 << 20))).toBe(true);
    await expect(readTool(ws, join(ws, "docs-key.txt"), { path: "docs-key.txt" })).rejects.toThrow(
      ToolFailure,
    );
  });
  it("a small file holding a private key header is refused whatever its name", async () => {
    const warmed = await warmRead(ws, "docs/deploy.txt", 1 << 20);
    expect("refused" in warmed && warmed.detail).toMatch(/private key/);
    await expect(readTool(ws, join(ws, "docs", "deploy.txt"), { path: "docs/deploy.txt" })).rejects.toThrow(
      /private key/,
    );
    const walked = await grepTool(ws, ws, ".", { pattern: "PRIVATE" });
    expect(text(walked)).not.toContain("PRIVATE KEY");
  });
});
