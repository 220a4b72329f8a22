// The kept daemon connection of a long-lived adapter (Pi): one connection for sequential requests, a fresh one
// for a concurrent request, never a hang, and when the daemon restarts or is gone the caller sees exactly what a
// process without a kept connection sees. Real sockets throughout: an in-test server that counts connections,
// and a real `airlock up` stopped, killed and restarted.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requestDecision } from "../../../src/companion/control/client.ts";
import {
  DaemonLost,
  DaemonUnavailable,
  keepControlConnection,
  sendControl,
} from "../../../src/companion/control/connection.ts";
import { ensureBuilt, type Sandbox, sandbox, startDaemon } from "./support/sandbox.ts";

interface CountingServer {
  path: string;
  connections: number;
  sockets: Socket[];
  /** Requests seen, in arrival order. */
  types: string[];
  close(): Promise<void>;
}

type Behaviour = "answer" | "answer-and-close" | "drop";

/**
 * Answers every line `{id, type: "ok"}` on the same connection (like the daemon), or closes it after each answer
 * (like a daemon stopping), or drops it on reading a request (a daemon dying mid-request).
 */
async function countingServer(dir: string, behaviour: Behaviour = "answer"): Promise<CountingServer> {
  const path = join(dir, `s-${Math.random().toString(36).slice(2)}.sock`);
  const state: CountingServer = {
    path,
    connections: 0,
    sockets: [],
    types: [],
    close: () =>
      new Promise((resolve) => {
        for (const s of state.sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((socket) => {
    state.connections++;
    state.sockets.push(socket);
    socket.setEncoding("utf8");
    let buffer = "";
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const request = JSON.parse(buffer.slice(0, nl)) as { id: string; type: string };
        buffer = buffer.slice(nl + 1);
        state.types.push(request.type);
        if (behaviour === "drop") {
          socket.destroy();
          return;
        }
        const line = `${JSON.stringify({ id: request.id, type: "ok" })}\n`;
        // As the daemon does when it stops: the answer goes out, then the connection is closed.
        socket.write(line, () => {
          if (behaviour === "answer-and-close") socket.destroy();
        });
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return state;
}

let dir: string;
const servers: CountingServer[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "airlock-conn-"));
});
afterEach(async () => {
  keepControlConnection(false);
  for (const s of servers.splice(0)) await s.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(behaviour?: Behaviour): Promise<CountingServer> {
  const s = await countingServer(dir, behaviour);
  servers.push(s);
  return s;
}

const status = { type: "futures_status" } as const;

describe("the kept control connection", () => {
  it("carries sequential requests over one connection; without it, each request connects", async () => {
    const kept = await serve();
    keepControlConnection();
    for (let i = 0; i < 3; i++) expect((await sendControl(kept.path, status, 2_000)).type).toBe("ok");
    expect(kept.connections).toBe(1);

    keepControlConnection(false);
    const plain = await serve();
    for (let i = 0; i < 3; i++) expect((await sendControl(plain.path, status, 2_000)).type).toBe("ok");
    expect(plain.connections).toBe(3);
  });

  it("gives a concurrent request a connection of its own, and keeps only one afterwards", async () => {
    const s = await serve();
    keepControlConnection();
    const answers = await Promise.all([1, 2, 3].map(() => sendControl(s.path, status, 2_000)));
    expect(answers.map((a) => a.type)).toEqual(["ok", "ok", "ok"]);
    expect(s.connections).toBe(3);
    await sendControl(s.path, status, 2_000);
    await sendControl(s.path, status, 2_000);
    expect(s.connections).toBe(3);
  });

  it("a connection the daemon closed while idle is dropped: the next request connects afresh", async () => {
    const s = await serve("answer-and-close");
    keepControlConnection();
    for (let i = 0; i < 3; i++) expect((await sendControl(s.path, status, 2_000)).type).toBe("ok");
    expect(s.connections).toBe(3);
  });

  it("a kept connection that died unnoticed never carried the request: it is sent again on a fresh one", async () => {
    const s = await serve();
    keepControlConnection();
    await sendControl(s.path, status, 2_000);
    // Closed on the daemon's side and used in the same tick, before the client could see the close.
    for (const socket of s.sockets) socket.destroy();
    const answer = await sendControl(s.path, status, 2_000);
    expect(answer.type).toBe("ok");
    expect(s.connections).toBe(2);
    // Once on the fresh connection only: the dead one never delivered it.
    expect(s.types).toEqual(["futures_status", "futures_status"]);
  });

  it("a request the daemon read and then lost is reported lost, as without a kept connection", async () => {
    const first = await serve();
    keepControlConnection();
    await sendControl(first.path, status, 2_000);
    const dropping = await serve("drop");
    await expect(sendControl(dropping.path, status, 2_000)).rejects.toBeInstanceOf(DaemonLost);
    keepControlConnection(false);
    const plainDropping = await serve("drop");
    await expect(sendControl(plainDropping.path, status, 2_000)).rejects.toBeInstanceOf(DaemonLost);
  });

  it("never hangs: a daemon that does not answer times out as before", async () => {
    const path = join(dir, "silent.sock");
    const silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(path, resolve));
    try {
      keepControlConnection();
      await expect(sendControl(path, status, 200)).rejects.toBeInstanceOf(DaemonLost);
    } finally {
      // The timed-out connection was destroyed by the client, so close completes.
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe("the kept connection and a real daemon", { timeout: 120_000 }, () => {
  let box: Sandbox;
  beforeAll(async () => {
    await ensureBuilt();
    box = sandbox();
    box.writePolicy(`
default_action: deny
rules:
  - name: reads
    condition: tool == "read"
    action: allow
`);
  }, 180_000);
  afterAll(() => box?.cleanup());

  const pidOf = async (): Promise<number> => {
    const res = await sendControl(box.socket, { type: "status" }, 5_000);
    if (res.type !== "status") throw new Error(`unexpected ${res.type}`);
    return res.status.pid;
  };
  const read = (n: number) => ({
    callId: `conn-${n}`,
    sessionId: "s-conn",
    agent: { id: "pi", name: "Pi" },
    tool: "read",
    input: { path: "README.md" },
    cwd: box.project,
    hasUI: false,
  });

  it("survives a restart: stopping does not wait for it, and the next request reaches the new daemon", async () => {
    keepControlConnection();
    const first = await startDaemon(box.env);
    const pid1 = await pidOf();
    expect((await requestDecision(read(1), { env: box.env })).decision).toBe("allow");
    // The kept connection is idle: SIGTERM must not wait for the adapter to hang up.
    expect(await first.stop("SIGTERM")).toBe(0);
    const second = await startDaemon(box.env);
    try {
      const pid2 = await pidOf();
      expect(pid2).not.toBe(pid1);
      expect(pid2).toBe(second.child.pid);
      const decision = await requestDecision(read(2), { env: box.env });
      expect(decision).toMatchObject({ decision: "allow", source: "policy" });
    } finally {
      await second.stop("SIGKILL");
    }
  });

  it("when the daemon is gone (killed), callers see it is not running and decide without it", async () => {
    keepControlConnection();
    const daemon = await startDaemon(box.env);
    await pidOf();
    await daemon.stop("SIGKILL");
    await expect(sendControl(box.socket, { type: "status" }, 5_000)).rejects.toBeInstanceOf(
      DaemonUnavailable,
    );
    // The no-daemon path: local policy decides.
    const decision = await requestDecision(read(3), { env: box.env });
    expect(decision).toMatchObject({ decision: "allow", source: "policy" });
  });
});
