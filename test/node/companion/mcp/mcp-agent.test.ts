// Each MCP client is its own agent, named by its `initialize` clientInfo: policy, grants and audit can tell
// them apart (they used to share the one id "mcp").
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpAgent } from "../../../../src/companion/adapters/mcp/agent.ts";
import { AIRLOCK_BIN, NODE, type SealedHome, sealedHome } from "../../../support/airlock-env.ts";
import { ensureBuilt } from "../../../support/build.ts";

describe("mcpAgent", () => {
  it.each([
    [
      { name: "Claude Desktop", version: "0.9.2" },
      { id: "mcp:claude-desktop", name: "Claude Desktop", version: "0.9.2" },
    ],
    [
      { name: "cursor-vscode", version: "1.0.0" },
      { id: "mcp:cursor-vscode", version: "1.0.0" },
    ],
    [{ name: "  " }, { id: "mcp:unknown", name: "mcp-client" }],
    [undefined, { id: "mcp:unknown" }],
    [
      { name: "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", version: "1" },
      { id: "mcp:unknown", name: "mcp-client" },
    ],
  ])("%j → %j", (info, expected) => {
    expect(mcpAgent(info)).toMatchObject({ ...expected, source: "mcp" });
  });
});

describe("two MCP clients against one policy", () => {
  let base: string;
  let sealed: SealedHome;
  const clients: Client[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    base = mkdtempSync(join(tmpdir(), "airlock-mcp-agent-"));
    writeFileSync(join(base, "note.txt"), "hello\n");
    sealed = sealedHome(`version: 1
default_action: allow
rules:
  - name: Only one client may list
    condition: tool == "ls" && agent == "mcp:client-a"
    action: deny
`);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.close();
    sealed?.cleanup();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  async function connect(name: string): Promise<Client> {
    const transport = new StdioClientTransport({
      command: NODE,
      args: [AIRLOCK_BIN, "mcp", "--workspace", base],
      env: sealed.env as Record<string, string>,
    });
    const client = new Client({ name, version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it("judges each client as its own agent", async () => {
    const a = await connect("client-a");
    const b = await connect("client-b");
    const listed = (c: Client) =>
      c.callTool({ name: "ls", arguments: { path: "." } }) as Promise<{ isError?: boolean }>;
    expect((await listed(a)).isError).toBe(true);
    expect((await listed(b)).isError).not.toBe(true);
  });
});
