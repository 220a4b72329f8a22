// A stand-in for the companion daemon's control socket (newline-delimited JSON, one request per
// connection): it records what adapters send and answers with the protocol's own shapes. For tests of an
// adapter's wiring (prompt forwarding, session end), not of the daemon.
import { createServer, type Server } from "node:net";
import { ControlRequest } from "../../src/companion/daemon/control-protocol.ts";

export interface DaemonSocket {
  path: string;
  received: ControlRequest[];
  /** Resolves with the first request `match` accepts (already received, or still to come). */
  next(match: (request: ControlRequest) => boolean): Promise<ControlRequest>;
  close(): Promise<void>;
}

export async function startDaemonSocket(path: string): Promise<DaemonSocket> {
  const received: ControlRequest[] = [];
  let waiters: (() => void)[] = [];
  const server: Server = createServer((socket) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      const nl = buffer.indexOf("\n");
      if (nl < 0) return;
      const request = ControlRequest.parse(JSON.parse(buffer.slice(0, nl)));
      received.push(request);
      for (const waiter of waiters) waiter();
      // Decisions are not what these tests are about: every call is refused, so nothing runs.
      const answer =
        request.type === "decide"
          ? {
              id: request.id,
              type: "decision",
              decision: { decision: "deny", reason: "test daemon refuses", source: "policy" },
            }
          : { id: request.id, type: "ok" };
      socket.end(`${JSON.stringify(answer)}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    received,
    next: (match) =>
      new Promise((resolve) => {
        const check = () => {
          const hit = received.find(match);
          if (!hit) return;
          waiters = waiters.filter((w) => w !== check);
          resolve(hit);
        };
        waiters.push(check);
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
