// The daemon's local control endpoint: a unix socket (mode 0600, in a 0700 directory) speaking the control protocol.
import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import {
  type ControlRequest,
  ControlRequest as ControlRequestSchema,
  type ControlResponse,
  parseLine,
} from "../control/protocol.ts";

export type ControlHandler = (request: ControlRequest) => Promise<ControlResponse>;

/** The listening socket; `close` stops accepting, and closes each connection once its requests are answered. */
export interface ControlServer {
  close(): Promise<void>;
}

/** Lines longer than this are refused (the caller then decides without the daemon); a Write can carry a file. */
const MAX_LINE = 32 * 1024 * 1024;

function alive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function listenControl(
  path: string,
  handler: ControlHandler,
  log: (line: string) => void,
): Promise<ControlServer> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (existsSync(path)) {
    if (await alive(path)) throw new Error(`another airlock daemon is already running on ${path}`);
    rmSync(path, { force: true });
  }
  // Adapters keep a connection open between requests: stopping must not wait for them to hang up.
  const connections = new Map<Socket, { inFlight: number }>();
  let closing = false;
  const server: Server = createServer((socket) => {
    socket.setEncoding("utf8");
    let buffer = "";
    const state = { inFlight: 0 };
    connections.set(socket, state);
    socket.on("close", () => connections.delete(socket));
    socket.on("data", (chunk: string) => {
      // Only the new chunk can hold the next newline; rescanning the whole buffer would be quadratic.
      const scanFrom = buffer.length;
      buffer += chunk;
      if (buffer.length > MAX_LINE) {
        socket.end(`${JSON.stringify({ id: "", type: "error", message: "request too large" })}\n`);
        return;
      }
      let nl = buffer.indexOf("\n", scanFrom);
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const parsed = parseLine(ControlRequestSchema, line);
        if (!parsed.ok) {
          socket.write(
            `${JSON.stringify({ id: "", type: "error", message: `bad request: ${parsed.error}` })}\n`,
          );
        } else {
          const request = parsed.value;
          state.inFlight++;
          handler(request)
            .catch(
              (error: unknown): ControlResponse => ({
                id: request.id,
                type: "error",
                message: error instanceof Error ? error.message : String(error),
              }),
            )
            .then((response) => {
              state.inFlight--;
              if (socket.destroyed) return;
              socket.write(`${JSON.stringify(response)}\n`, () => {
                if (closing && state.inFlight === 0) socket.destroy();
              });
            });
        }
        nl = buffer.indexOf("\n");
      }
    });
    // A hook killed mid-wait resets its socket; the decision goes on and is journaled.
    socket.on("error", () => {});
  });
  // The socket is created 0600 (umask), so there is no moment at which another user could connect.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  log(`control socket listening on ${path}`);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        // Destroyed, not ended: a request an adapter sent meanwhile stays unread, so it sees a reset and asks
        // afresh (finding no daemon) instead of waiting for an answer that will never come.
        for (const [socket, { inFlight }] of connections) if (inFlight === 0) socket.destroy();
      }),
  };
}
