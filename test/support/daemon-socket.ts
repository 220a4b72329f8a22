// A stand-in for the companion daemon's control socket (newline-delimited JSON, one request → one response,
// connections kept open as the daemon keeps them): it records what adapters send and answers with the protocol's own shapes. For tests of an
// adapter's wiring (prompt forwarding, session end), not of the daemon.
import { createServer, type Server, type Socket } from "node:net";
import { ControlRequest } from "../../src/companion/control/protocol.ts";

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
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      // Like the daemon: every line is a request, answered on the same connection, which stays open (an
      // adapter such as Pi keeps one connection for its whole session).
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const request = ControlRequest.parse(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
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
        socket.write(`${JSON.stringify(answer)}\n`);
      }
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
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
