// Talks to the daemon over its unix socket: one connection per request, resolved by the matching response.
import { connect, type Socket } from "node:net";
import { type ControlRequest, ControlResponse, parseLine } from "./control-protocol.ts";

export class DaemonUnavailable extends Error {
  override name = "DaemonUnavailable";
}

/** Connection lost after the request was sent: the daemon may still be deciding (and will journal the answer). */
export class DaemonLost extends Error {
  override name = "DaemonLost";
}

type Body = ControlRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

let counter = 0;

export function sendControl(socketPath: string, body: Body, timeoutMs: number): Promise<ControlResponse> {
  const id = `${process.pid}-${++counter}`;
  return new Promise((resolve, reject) => {
    let settled = false;
    let sent = false;
    let buffer = "";
    const socket: Socket = connect(socketPath);
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new DaemonLost(`the daemon did not answer in ${timeoutMs} ms`))),
      timeoutMs,
    );
    socket.setEncoding("utf8");
    socket.on("connect", () => {
      sent = true;
      socket.write(`${JSON.stringify({ ...body, id })}\n`);
    });
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const parsed = parseLine(ControlResponse, line);
        if (parsed.ok && parsed.value.id === id) return finish(() => resolve(parsed.value));
        // An error without our id is the daemon refusing the request itself (too large, unparsable): not a
        // lost decision, so the caller may decide without it.
        if (parsed.ok && parsed.value.type === "error" && parsed.value.id === "") {
          const message = parsed.value.message;
          return finish(() => reject(new DaemonUnavailable(`the daemon refused the request: ${message}`)));
        }
        if (!parsed.ok)
          return finish(() => reject(new DaemonLost(`the daemon sent a malformed answer (${parsed.error})`)));
        nl = buffer.indexOf("\n");
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          sent
            ? new DaemonLost(`lost the daemon mid-request (${error.code ?? error.message})`)
            : new DaemonUnavailable(
                `the daemon is not running at ${socketPath} (${error.code ?? error.message})`,
              ),
        ),
      ),
    );
    socket.on("close", () =>
      finish(() =>
        reject(
          sent
            ? new DaemonLost("the daemon closed the connection mid-request")
            : new DaemonUnavailable("the daemon closed the connection"),
        ),
      ),
    );
  });
}
