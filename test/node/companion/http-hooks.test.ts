// The daemon's http hook endpoint: what reaches the decision core (only the installed hook's exact request) and what
// never does (another Host, an Origin, a wrong or missing secret, another path or method, an oversized body); the
// endpoint file (0600, refused when wider) and the installer's http entries.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chooseClaudeHookType,
  installClaudeHooks,
} from "../../../src/companion/adapters/claude-code/install.ts";
import { httpHooksSupported } from "../../../src/companion/adapters/claude-code/version.ts";
import {
  ensureHttpEndpoint,
  type HttpEndpoint,
  readHttpEndpoint,
  SECRET_HEADER,
} from "../../../src/companion/daemon/http-endpoint.ts";
import {
  type HttpHookServer,
  IDLE_KEEP_MS,
  listenHttpHooks,
  MAX_BODY_BYTES,
  refusal,
} from "../../../src/companion/daemon/http-hook-server.ts";

let home: string;
let endpoint: HttpEndpoint;
let server: HttpHookServer;
const received: string[] = [];

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "airlock-http-"));
  endpoint = await ensureHttpEndpoint({ AIRLOCK_HOME: join(home, ".airlock") });
  server = await listenHttpHooks(
    endpoint,
    {
      "claude-code": async (body) => {
        received.push(body);
        if (body === "not json") return { stdout: "", stderr: "not a hook event\n", exitCode: 2 };
        if (body === "{}") return { stdout: "", stderr: "", exitCode: 0 };
        return { stdout: '{"ok":true}\n', stderr: "", exitCode: 0 };
      },
    },
    () => {},
  );
});

afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

/** A raw request, so Host, Origin and chunked bodies are exactly what the test says. */
function send(options: {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  chunks?: number;
}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: endpoint.port,
        path: options.path ?? "/hooks/claude-code",
        method: options.method ?? "POST",
        headers: {
          host: `127.0.0.1:${endpoint.port}`,
          [SECRET_HEADER]: endpoint.secret,
          "content-type": "application/json",
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", (error) => {
      // The server closes a too-large upload after its answer; a reset before any answer is a failure (-1).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE" || code === "ECONNRESET") resolve({ status: -1, body: "" });
      else reject(error);
    });
    const chunk = options.body ?? "";
    for (let i = 1; i < (options.chunks ?? 1); i++) req.write(chunk);
    req.end(chunk);
  });
}

describe("the http hook endpoint", () => {
  it("answers the installed hook's request with the hook's JSON", async () => {
    const res = await send({ body: '{"hook_event_name":"PreToolUse"}' });
    expect(res).toEqual({ status: 200, body: '{"ok":true}\n' });
    expect(received.at(-1)).toBe('{"hook_event_name":"PreToolUse"}');
  });

  it("answers on a kept-alive connection, framed by Content-Length (no chunks, no Date); no opinion is an empty body", async () => {
    // Two requests pipelined on one raw socket: both answered on it, each in exactly the bytes its length says.
    const post = (body: string) =>
      `POST /hooks/claude-code HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\n${SECRET_HEADER}: ${endpoint.secret}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const socket = connect(endpoint.port, "127.0.0.1");
    const raw = await new Promise<string>((resolve, reject) => {
      let text = "";
      socket.on("data", (d) => {
        text += d;
        // Complete once the second answer's (empty) body has arrived after its headers.
        if (text.split("HTTP/1.1 ").length === 3 && /\r\n\r\n$/.test(text)) resolve(text);
      });
      socket.on("error", reject);
      socket.write(post('{"hook_event_name":"PreToolUse"}') + post("{}"));
    });
    socket.destroy();
    const [first, second] = raw.split(/(?=HTTP\/1\.1 )/);
    for (const answer of [first, second]) {
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answer).not.toMatch(/transfer-encoding|^date:|connection: close/im);
      expect(answer).toMatch(/^connection: keep-alive\r$/im);
      // The daemon never closes an idle connection first (Node's default is 5 s): the agent does.
      expect(answer).toMatch(new RegExp(`^keep-alive: timeout=${IDLE_KEEP_MS / 1000}\r$`, "im"));
    }
    expect(first).toMatch(/\r\ncontent-length: 12\r\n[\s\S]*\r\n\r\n\{"ok":true\}\n$/i);
    expect(second).toMatch(/\r\ncontent-length: 0\r\n[\s\S]*\r\n\r\n$/i);
  });

  it("answers 422 (a block) when the body is not a hook event", async () => {
    const res = await send({ body: "not json" });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: "not_a_hook_event", message: "not a hook event" },
    });
  });

  const refusedCases: [string, Parameters<typeof send>[0], number][] = [
    ["no secret", { headers: { [SECRET_HEADER]: "" } }, 401],
    ["a wrong secret of the right length", { headers: { [SECRET_HEADER]: "a".repeat(64) } }, 401],
    ["another Host (DNS rebinding)", { headers: { host: `evil.example:${0}` } }, 403],
    ["an Origin (a web page)", { headers: { origin: "http://127.0.0.1:1" } }, 403],
    ["Sec-Fetch-Site (a browser)", { headers: { "sec-fetch-site": "cross-site" } }, 403],
    ["another path", { path: "/hooks/codex" }, 404],
    ["a path with a query", { path: "/hooks/claude-code?x=1" }, 404],
    ["GET", { method: "GET" }, 405],
    ["a declared length past the bound", { headers: { "content-length": String(MAX_BODY_BYTES + 1) } }, 413],
  ];
  for (const [name, options, status] of refusedCases) {
    it(`refuses ${name} (${status}) without reaching the handler`, async () => {
      const before = received.length;
      const res = await send({ body: "{}", ...options });
      expect(res.status).toBe(status);
      expect(received.length).toBe(before);
    });
  }

  it("refuses a chunked body that grows past the bound, without reaching the handler", async () => {
    const before = received.length;
    const res = await send({ body: Buffer.alloc(1024 * 1024, 0x20), chunks: 40 });
    expect(res.status).toBe(413);
    expect(received.length).toBe(before);
  });

  it("never lets a request through without the exact secret, whatever else it carries (property)", () => {
    const agents = new Set(["claude-code"]);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.option(fc.string(), { nil: undefined }),
        fc.constantFrom("127.0.0.1", "::1", "10.0.0.2", undefined),
        (secret, origin, remoteAddress) => {
          fc.pre(secret !== endpoint.secret);
          const headers: Record<string, string> = {
            host: `127.0.0.1:${endpoint.port}`,
            [SECRET_HEADER]: secret,
          };
          if (origin !== undefined) headers.origin = origin;
          const refused = refusal(
            { method: "POST", url: "/hooks/claude-code", headers, remoteAddress },
            endpoint,
            agents,
          );
          expect(refused).toBeDefined();
        },
      ),
    );
  });
});

describe("the endpoint file", () => {
  it("is created 0600 and read back; a file others can read is refused", async () => {
    const env = { AIRLOCK_HOME: join(home, "other") };
    const created = await ensureHttpEndpoint(env);
    const path = join(home, "other", "http-hook.json");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readHttpEndpoint(env)).toEqual({ ok: true, endpoint: created });
    expect(await ensureHttpEndpoint(env)).toEqual(created);
    chmodSync(path, 0o644);
    expect(readHttpEndpoint(env)).toMatchObject({ ok: false, reason: expect.stringMatching(/must be 0600/) });
  });

  it("refuses a file that is not an endpoint", () => {
    const env = { AIRLOCK_HOME: join(home, "bad") };
    const path = join(home, "bad", "http-hook.json");
    rmSync(join(home, "bad"), { recursive: true, force: true });
    mkdirSync(join(home, "bad"), { recursive: true });
    writeFileSync(path, '{"port": 80, "secret": "x"}', { mode: 0o600 });
    expect(readHttpEndpoint(env)).toMatchObject({ ok: false });
  });
});

describe("installing http hooks for Claude Code", () => {
  const env = () => ({ HOME: home, AIRLOCK_HOOK_COMMAND: "airlock", AIRLOCK_PROMPT_TIMEOUT_MS: "30000" });

  it("per-call events post to the daemon and block on failure; session events stay commands; the file is 0600", () => {
    const result = installClaudeHooks("user", home, env(), { http: endpoint });
    const written = JSON.parse(readFileSync(result.path, "utf8"));
    expect(written.hooks.PreToolUse).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "http",
            url: `http://127.0.0.1:${endpoint.port}/hooks/claude-code`,
            headers: { [SECRET_HEADER]: endpoint.secret },
            timeout: 60,
            onFailure: "block",
          },
        ],
      },
    ]);
    expect(written.hooks.PermissionRequest[0].hooks[0].type).toBe("http");
    for (const event of ["SessionStart", "UserPromptSubmit", "SessionEnd"])
      expect(written.hooks[event][0].hooks[0]).toEqual({
        type: "command",
        command: "airlock hook claude-code",
        timeout: 60,
      });
    expect(statSync(result.path).mode & 0o777).toBe(0o600);
  });

  it("re-installing as commands replaces the http entries; uninstall removes them, keeping others'", () => {
    const path = installClaudeHooks("user", home, env(), { http: endpoint }).path;
    const withOther = JSON.parse(readFileSync(path, "utf8"));
    withOther.hooks.PreToolUse.push({
      matcher: "Bash",
      hooks: [{ type: "http", url: "http://127.0.0.1:9/mine" }],
    });
    writeFileSync(path, JSON.stringify(withOther));
    installClaudeHooks("user", home, env());
    const asCommands = JSON.parse(readFileSync(path, "utf8"));
    expect(asCommands.hooks.PreToolUse.map((g: { hooks: { type: string }[] }) => g.hooks[0]?.type)).toEqual([
      "http",
      "command",
    ]);
    installClaudeHooks("user", home, env(), { remove: true });
    expect(JSON.parse(readFileSync(path, "utf8")).hooks).toEqual({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: "http://127.0.0.1:9/mine" }] }],
    });
  });

  it("chooses command hooks for a project file, an old Claude Code, or none on PATH", async () => {
    expect((await chooseClaudeHookType("project", env())).type).toBe("command");
    expect((await chooseClaudeHookType("user", { ...env(), PATH: home })).type).toBe("command");
    expect(httpHooksSupported("2.1.294")).toMatchObject({ ok: false });
    expect(httpHooksSupported("2.1.295")).toMatchObject({ ok: true });
    expect(httpHooksSupported(undefined)).toMatchObject({ ok: false });
  });
});
