// Resource limits: socket message size (close 1009), JSON depth (400, never a 500), judged-field sizes,
// YAML alias bombs and backtracking regexes in the account policy.
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, MAX_SOCKET_MESSAGE_BYTES } from "../../src/protocol/limits.ts";
import { CLOSE_CODES } from "../../src/protocol/socket.ts";
import { device, request } from "./approvals-helpers.ts";
import { api, errorOf } from "./helpers.ts";
import { connect } from "./socket-client.ts";

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("JSON depth", () => {
  it("5,000 levels in a call's input are a 400, and the hub still answers", async () => {
    const d = await device();
    const body = JSON.stringify(request()).replace('"input":{', `"input":{"deep":${nested(5_000)},`);
    const res = await api("/v1/decisions?wait=false", {
      method: "POST",
      headers: { ...d.headers, "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "invalid_json", details: { depth: 5_002 } });
    expect((await d.decide(request())).status).toBe(202);
  });

  it("one level past the limit is refused; the limit itself is accepted", async () => {
    const d = await device();
    // The body object itself is level 1 and `input` level 2.
    const at = (levels: number) =>
      JSON.stringify(request()).replace('"input":{', `"input":{"deep":${nested(levels)},`);
    const over = await api("/v1/decisions?wait=false", {
      method: "POST",
      headers: { ...d.headers, "content-type": "application/json" },
      body: at(MAX_JSON_DEPTH - 1),
    });
    expect(over.status).toBe(400);
    const within = await api("/v1/decisions?wait=false", {
      method: "POST",
      headers: { ...d.headers, "content-type": "application/json" },
      body: at(MAX_JSON_DEPTH - 2),
    });
    expect(within.status).toBe(202);
  });

  it("a 200 KiB body of brackets is a 400 on a public route too", async () => {
    const res = await api("/v1/pairing/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: nested(100_000),
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "invalid_json" });
  });
});

describe("bodies", () => {
  it("a non-JSON body is a 415; an empty one reads as {}", async () => {
    const d = await device();
    const text = await api("/v1/pairing/code", {
      method: "POST",
      headers: { ...d.approver.headers, "content-type": "text/plain" },
      body: "role=approver",
    });
    expect(text.status).toBe(415);
    expect(await errorOf(text)).toMatchObject({ code: "unsupported_media_type" });
    const empty = await api("/v1/pairing/code", {
      method: "POST",
      headers: { ...d.approver.headers, "content-type": "application/json" },
    });
    expect(empty.status).toBe(201);
    expect(await empty.json()).toMatchObject({ role: "companion" });
  });
});

describe("what policy judges is bounded", () => {
  it("a command over 32 KiB is a 400 naming input.command, before any rule runs", async () => {
    const d = await device();
    const res = await d.decide(request({ tool: "bash", input: { command: `echo ${"x".repeat(40_000)}` } }));
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect((error.details as { path: string }[]).map((p) => p.path)).toContain("input.command");
  });

  it("a path over 4 KiB is a 400", async () => {
    const d = await device();
    const res = await d.decide(request({ input: { path: `/work/${"a/".repeat(3_000)}` } }));
    expect(res.status).toBe(400);
  });
});

describe("socket messages", () => {
  it("a message over the cap closes that socket with 1009; other sockets and the hub carry on", async () => {
    const d = await device();
    const big = await connect(d.headers);
    const other = await connect(d.headers);
    const call = request({ tool: "bash", input: { command: "x".repeat(MAX_SOCKET_MESSAGE_BYTES) } });
    big.send({ type: "tool_request", id: "big", request: call });
    const closed = await big.closed;
    expect(closed.code).toBe(CLOSE_CODES.message_too_big);
    expect(CLOSE_CODES.message_too_big).toBe(1009);
    other.send({ type: "ping", id: "still" });
    expect(await other.next("pong")).toMatchObject({ id: "still" });
    expect((await d.decide(request())).status).toBe(202);
    other.ws.close();
  });

  it("deep nesting in a socket message is an error message; the socket stays open", async () => {
    const d = await device();
    const socket = await connect(d.headers);
    socket.ws.send(`{"type":"ping","id":${nested(5_000)}}`);
    expect(await socket.next("error")).toMatchObject({ code: "invalid_json" });
    socket.send({ type: "ping", id: "ok" });
    await socket.next("pong");
    socket.ws.close();
  });
});

describe("the account policy", () => {
  const put = (d: Awaited<ReturnType<typeof device>>, policy: string) =>
    api("/v1/settings/policy", { method: "PUT", headers: d.approver.headers, json: { policy } });

  it("saves any pattern RE2 runs in linear time; refuses what RE2 cannot express and patterns past 8 KiB", async () => {
    const d = await device();
    const policyWith = (pattern: string) =>
      `version: 1\ndefault_action: ask\nrules:\n  - name: slow\n    condition: 'command.matches("${pattern}")'\n    action: deny\n`;
    // Nested repeats and long patterns cannot hang RE2 (issue 30): they load as their author wrote them.
    for (const pattern of ["(a+)+$", "(x|xx)*y", "a".repeat(300)]) {
      expect((await put(d, policyWith(pattern))).status, pattern).toBe(200);
    }
    for (const pattern of ["(a)\\\\1", "(?=a)b", "a".repeat(9000)]) {
      const res = await put(d, policyWith(pattern));
      expect(res.status, pattern.slice(0, 20)).toBe(400);
      expect(JSON.stringify(await errorOf(res))).toMatch(/pattern/);
    }
    const fine = await put(
      d,
      `version: 1\ndefault_action: ask\nrules:\n  - name: tests\n    condition: 'command.matches("^npm (test|run)( .*)?$")'\n    action: allow\n`,
    );
    expect(fine.status).toBe(200);
    const judged = await d.decide(
      request({ tool: "bash", input: { command: `npm test ${"a".repeat(30_000)}` } }),
    );
    expect(await judged.json()).toMatchObject({ decision: "allow", rule: "tests" });
  });

  it("refuses a YAML alias bomb with a 400, not a crash", async () => {
    const d = await device();
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(",")}]`);
    }
    const res = await put(d, `version: 1\ndefault_action: ask\n${lines.join("\n")}\nrules: []\n`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await errorOf(res))).toMatch(/alias/i);
  });
});
