// `airlock mcp` driven by the official MCP client over real stdio: listing, guarded reads, grep that
// skips secrets, bash allowed and denied by a real permissions.yaml, and a stdout that is pure JSON-RPC.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AIRLOCK_BIN,
  ECHO_YES_RM_NO,
  NODE,
  type SealedHome,
  sealedHome,
} from "../../../support/airlock-env.ts";
import { ensureBuilt } from "../../../support/build.ts";

let base: string;
let ws: string;
let sealed: SealedHome;
let client: Client;
let stderr = "";

function makeWorkspace(): void {
  base = mkdtempSync(join(tmpdir(), "airlock-mcp-"));
  ws = join(base, "ws");
  const files: Record<string, string> = {
    "README.md": "# demo\nneedle in the readme\n",
    "src/app.ts": "const x = 1;\n// needle in source\nexport {};\n",
    "src/long.txt": Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n"),
    ".env": "API_KEY=needle-secret-value\n",
    "config/credentials.json": '{"needle": "secret"}\n',
    "node_modules/dep/index.js": "// needle in a dependency\n",
    ".git/config": "needle in git\n",
    important: "do not delete\n",
    "src/redos.txt": `${"a".repeat(40)}!\n`,
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(ws, rel, ".."), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  writeFileSync(join(base, "outside.txt"), "needle outside the workspace\n");
  symlinkSync("../outside.txt", join(ws, "escape.txt"));
  symlinkSync(".env", join(ws, "innocent.txt"));
}

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };

async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallResult;
  const text = result.content.map((c) => c.text ?? "").join("\n");
  return { text, isError: result.isError === true };
}

beforeAll(async () => {
  await ensureBuilt();
  makeWorkspace();
  sealed = sealedHome(`${ECHO_YES_RM_NO}  - name: Ask before pushing
    condition: tool == "bash" && command.startsWith("git push")
    action: ask
`);
  const transport = new StdioClientTransport({
    command: NODE,
    args: [AIRLOCK_BIN, "mcp", "--workspace", ws],
    env: { ...sealed.env, AIRLOCK_GREP_TIMEOUT_MS: "1500" } as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  client = new Client({ name: "airlock-mcp-test", version: "1.2.3" });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  sealed?.cleanup();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("airlock mcp over stdio", () => {
  it("lists the four governed tools with Pi's parameter names", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(["bash", "grep", "ls", "read"]);
    expect(Object.keys(byName.get("read")?.inputSchema.properties ?? {}).sort()).toEqual([
      "limit",
      "offset",
      "path",
    ]);
    expect(Object.keys(byName.get("grep")?.inputSchema.properties ?? {}).sort()).toEqual(
      ["context", "glob", "ignoreCase", "limit", "literal", "path", "pattern"].sort(),
    );
    expect(Object.keys(byName.get("ls")?.inputSchema.properties ?? {}).sort()).toEqual(["limit", "path"]);
    expect(Object.keys(byName.get("bash")?.inputSchema.properties ?? {}).sort()).toEqual([
      "command",
      "timeout",
    ]);
    expect(byName.get("read")?.inputSchema.required).toEqual(["path"]);
  });

  it("reads an allowed file, with offset/limit and Pi's continuation notices", async () => {
    expect(await call("read", { path: "README.md" })).toEqual({
      text: "# demo\nneedle in the readme\n",
      isError: false,
    });
    const window = await call("read", { path: "src/long.txt", offset: 10, limit: 2 });
    expect(window.text).toBe("line 10\nline 11\n\n[2989 more lines in file. Use offset=12 to continue.]");
    const long = await call("read", { path: "src/long.txt" });
    expect(long.text.endsWith("[Showing lines 1-2000 of 3000. Use offset=2001 to continue.]")).toBe(true);
    expect(await call("read", { path: "missing.txt" })).toEqual({ text: "File not found", isError: true });
  });

  it("refuses secrets, escapes and symlinks that leave the workspace or land on a secret", async () => {
    for (const [path, reason] of [
      [".env", /denylist/],
      ["config/credentials.json", /denylist/],
      ["../outside.txt", /escapes the workspace/],
      [join(base, "outside.txt"), /absolute path outside/],
      ["escape.txt", /outside the workspace through a symlink/],
      ["innocent.txt", /denylist/],
      ["node_modules/dep/index.js", /node_modules/],
      ["~/.ssh/id_rsa", /home-relative/],
    ] as const) {
      const result = await call("read", { path });
      expect(result.isError, path).toBe(true);
      expect(result.text, path).toMatch(reason);
      expect(result.text).not.toContain("needle");
    }
  });

  it("ls lists the workspace without secrets or never-served folders", async () => {
    const result = await call("ls", {});
    expect(result.isError).toBe(false);
    expect(result.text.split("\n")).toEqual([
      "config/",
      "escape.txt",
      "important",
      "innocent.txt",
      "README.md",
      "src/",
    ]);
    expect((await call("ls", { path: "config" })).text).toBe("(empty directory)");
    expect((await call("ls", { path: ".git" })).isError).toBe(true);
  });

  it("grep finds matches but skips secrets, node_modules, .git and symlinks", async () => {
    const result = await call("grep", { pattern: "needle" });
    expect(result.isError).toBe(false);
    expect(result.text.split("\n").sort()).toEqual([
      "README.md:2: needle in the readme",
      "src/app.ts:2: // needle in source",
    ]);
    const ctx = await call("grep", {
      pattern: "NEEDLE",
      ignoreCase: true,
      path: "src",
      context: 1,
      glob: "*.ts",
    });
    expect(ctx.text).toBe("app.ts-1- const x = 1;\napp.ts:2: // needle in source\napp.ts-3- export {};");
    expect((await call("grep", { pattern: "(", literal: true })).text).toBe("No matches found");
    expect((await call("grep", { pattern: "(" })).isError).toBe(true);
    expect((await call("grep", { pattern: "needle", path: ".env" })).isError).toBe(true);
  });

  it("stops a catastrophic grep pattern without stalling the server", async () => {
    const started = Date.now();
    let readDoneAt = 0;
    const [slow, read] = await Promise.all([
      call("grep", { pattern: "(a+)+$", path: "src/redos.txt" }),
      call("read", { path: "README.md" }).then((r) => {
        readDoneAt = Date.now();
        return r;
      }),
    ]);
    const slowDoneAt = Date.now();
    expect(slow.isError).toBe(true);
    expect(slow.text).toMatch(/^grep stopped after 2 s: the pattern is too slow/);
    expect(slowDoneAt - started).toBeLessThan(15_000);
    // The read issued alongside it was answered while the grep was still running: nothing was blocked.
    expect(read).toEqual({ text: "# demo\nneedle in the readme\n", isError: false });
    expect(readDoneAt).toBeLessThan(slowDoneAt);
    // The stopped search's thread is replaced: the next grep works.
    expect(await call("grep", { pattern: "needle", path: "README.md" })).toEqual({
      text: "README.md:2: needle in the readme",
      isError: false,
    });
  });

  it("bash runs what policy allows and refuses what it denies, before anything runs", async () => {
    const allowed = await call("bash", { command: "echo made > made.txt && echo hello" });
    expect(allowed, allowed.text).toEqual({ text: "hello\n", isError: false });
    expect(existsSync(join(ws, "made.txt"))).toBe(true);

    const denied = await call("bash", { command: "rm -f important" });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/rm is not allowed here/);
    expect(existsSync(join(ws, "important"))).toBe(true);

    // Not matched by any rule: the default (deny) decides, and a chain cannot smuggle rm past echo.
    expect((await call("bash", { command: "touch nope.txt" })).isError).toBe(true);
    expect(existsSync(join(ws, "nope.txt"))).toBe(false);
    expect((await call("bash", { command: "echo hi; rm -f important" })).isError).toBe(true);
    expect(existsSync(join(ws, "important"))).toBe(true);

    const failing = await call("bash", { command: "echo oops > no-such-dir/x" });
    expect(failing.isError).toBe(true);
    expect(failing.text).toMatch(/No such file or directory\n+Command exited with code 1$/);
  });

  it("denies a call that needs a person when no phone can be asked (fail closed)", async () => {
    const result = await call("bash", { command: "git push origin main" });
    expect(result.isError).toBe(true);
    // The MCP client cannot show Airlock's prompt and no phone is paired: the ask becomes a deny.
    expect(result.text).toMatch(
      /^Airlock denied this call: rule "Ask before pushing" asks for a person's approval, but this machine is not paired/,
    );
  });

  it("tells the model the policy's boundaries in the server instructions", () => {
    expect(client.getInstructions()).toMatch(
      /^Airlock-governed workspace tools\..*shell commands are checked one by one/,
    );
  });

  it("logs decisions to stderr, naming the client, and never file contents", () => {
    expect(stderr).toMatch(/airlock mcp: serving /);
    expect(stderr).toMatch(/bash: deny/);
    expect(stderr).toMatch(/read: allow/);
    expect(stderr).not.toContain("needle-secret-value");
  });
});

describe("airlock mcp stdout", () => {
  it("carries nothing but JSON-RPC messages", async () => {
    const child = spawn(NODE, [AIRLOCK_BIN, "mcp", "--workspace", ws], {
      env: sealed.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read", arguments: { path: ".env" } } },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "bash", arguments: { command: "echo to-stdout; echo to-stderr >&2" } },
      },
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "bash", arguments: { command: "rm -rf /" } },
      },
    ];
    const exited = new Promise<number | null>((done) => child.once("exit", done));
    const answered = new Promise<void>((done) => {
      child.stdout.on("data", () => {
        if ([1, 2, 3, 4].every((id) => out.includes(`"id":${id}}`))) done();
      });
    });
    child.stdin.write(`${messages.map((m) => JSON.stringify(m)).join("\n")}\n`);
    await answered;
    child.stdin.end();
    expect(await exited).toBe(0);
    const lines = out.split("\n").filter((l) => l !== "");
    expect(lines.length, out).toBe(4);
    for (const line of lines) {
      const parsed = JSON.parse(line) as { jsonrpc?: string; id?: number };
      expect(parsed.jsonrpc).toBe("2.0");
      expect([1, 2, 3, 4]).toContain(parsed.id);
    }
  });
});

describe("airlock mcp with hidden tools", () => {
  it("does not list a tool the policy hides, and refuses it as not available", async () => {
    const hiddenHome = sealedHome(`${ECHO_YES_RM_NO}hidden_tools: [bash]\n`);
    const transport = new StdioClientTransport({
      command: NODE,
      args: [AIRLOCK_BIN, "mcp", "--workspace", ws],
      env: hiddenHome.env as Record<string, string>,
      stderr: "ignore",
    });
    const hiddenClient = new Client({ name: "hidden-test", version: "0" });
    try {
      await hiddenClient.connect(transport);
      const { tools } = await hiddenClient.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["grep", "ls", "read"]);
      const result = (await hiddenClient.callTool({
        name: "bash",
        arguments: { command: "echo hi" },
      })) as CallResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/Tool bash not found/);
    } finally {
      await hiddenClient.close();
      hiddenHome.cleanup();
    }
  });
});
