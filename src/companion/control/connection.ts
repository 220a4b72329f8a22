// Talks to the daemon over its unix socket: one request at a time per connection, resolved by the matching
// response. A long-lived adapter process (Pi) keeps one connection open between requests
// (`keepControlConnection`), so a tool call does not pay a connect; everything else connects per request.
import { connect, type Socket } from "node:net";
import { type ControlRequest, ControlResponse, parseLine } from "./protocol.ts";

export class DaemonUnavailable extends Error {
  override name = "DaemonUnavailable";
}

/** Connection lost after the request was sent: the daemon may still be deciding (and will journal the answer). */
export class DaemonLost extends Error {
  override name = "DaemonLost";
}

type Body = ControlRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

/** One connection to the daemon; `onLine`/`onEnd` belong to the request using it (none while idle). */
interface Link {
  socket: Socket;
  path: string;
  dead: boolean;
  onLine?: (line: string) => void;
  onEnd?: (error: NodeJS.ErrnoException | undefined) => void;
}

let counter = 0;
let keep = false;
/** The one idle connection kept per socket path (only with `keepControlConnection`). */
const idle = new Map<string, Link>();

/**
 * Keeps one connection to the daemon open between requests in this process (off: closes it). Concurrent requests
 * still get a connection each; only one is kept. An idle connection never keeps the process alive, and one the
 * daemon closed (a restart) is dropped, so the next request connects afresh exactly as without it.
 */
export function keepControlConnection(on = true): void {
  keep = on;
  if (!on) for (const link of idle.values()) drop(link);
}

function drop(link: Link): void {
  link.dead = true;
  if (idle.get(link.path) === link) idle.delete(link.path);
  link.socket.destroy();
}

function open(path: string): Link {
  const socket = connect(path);
  const link: Link = { socket, path, dead: false };
  let buffer = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    let nl = buffer.indexOf("\n");
    while (nl >= 0 && !link.dead) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      // A line with no request waiting cannot be matched to anything: the connection is not trusted again.
      if (link.onLine) link.onLine(line);
      else drop(link);
      nl = buffer.indexOf("\n");
    }
  });
  const ended = (error: NodeJS.ErrnoException | undefined) => {
    const onEnd = link.onEnd;
    drop(link);
    onEnd?.(error);
  };
  socket.on("error", ended);
  socket.on("close", () => ended(undefined));
  return link;
}

/** Hands a link back after a clean exchange: kept (unreferenced) if this process keeps one, else closed. */
function release(link: Link): void {
  link.onLine = undefined;
  link.onEnd = undefined;
  if (!keep || link.dead || idle.has(link.path)) {
    drop(link);
    return;
  }
  link.socket.unref();
  idle.set(link.path, link);
}

function take(path: string): { link: Link; reused: boolean } {
  const kept = idle.get(path);
  if (kept) {
    idle.delete(path);
    if (!kept.dead && kept.socket.writable && !kept.socket.readableEnded) {
      kept.socket.ref();
      return { link: kept, reused: true };
    }
    drop(kept);
  }
  return { link: open(path), reused: false };
}

export function sendControl(socketPath: string, body: Body, timeoutMs: number): Promise<ControlResponse> {
  const id = `${process.pid}-${++counter}`;
  const { link, reused } = take(socketPath);
  return exchange(link, reused, body, id, timeoutMs).catch((error: unknown) => {
    // A kept connection the daemon had already closed (a restart) never carried the request: try once on a fresh
    // connection, which answers exactly as a process without a kept connection would.
    if (error instanceof NotSent) return exchange(open(socketPath), false, body, id, timeoutMs);
    throw error;
  });
}

/** A kept connection failed before the request was written. */
class NotSent extends Error {}

function exchange(
  link: Link,
  reused: boolean,
  body: Body,
  id: string,
  timeoutMs: number,
): Promise<ControlResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let sent = false;
    const finish = (fn: () => void, keepLink = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (keepLink) release(link);
      else drop(link);
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new DaemonLost(`the daemon did not answer in ${timeoutMs} ms`))),
      timeoutMs,
    );
    const write = () => {
      // On a fresh connection the request counts as sent once connected (the daemon may have read it); on a kept
      // one only once written, so a connection that died while idle is retried rather than reported lost.
      if (!reused) sent = true;
      link.socket.write(`${JSON.stringify({ ...body, id })}\n`, (error) => {
        if (!error) sent = true;
      });
    };
    link.onLine = (line) => {
      const parsed = parseLine(ControlResponse, line);
      if (parsed.ok && parsed.value.id === id) return finish(() => resolve(parsed.value), true);
      // An error without our id is the daemon refusing the request itself (too large, unparsable): not a
      // lost decision, so the caller may decide without it.
      if (parsed.ok && parsed.value.type === "error" && parsed.value.id === "") {
        const message = parsed.value.message;
        return finish(() => reject(new DaemonUnavailable(`the daemon refused the request: ${message}`)));
      }
      if (!parsed.ok)
        return finish(() => reject(new DaemonLost(`the daemon sent a malformed answer (${parsed.error})`)));
    };
    link.onEnd = (error) =>
      finish(() => {
        // On a kept connection, a reset or broken pipe means the daemon closed with the request unread (a unix
        // socket reports ECONNRESET when its peer closes with data still queued): it never saw it.
        if (reused && (!sent || error?.code === "ECONNRESET" || error?.code === "EPIPE"))
          return reject(new NotSent());
        const why = error ? (error.code ?? error.message) : undefined;
        if (sent)
          return reject(
            new DaemonLost(
              why ? `lost the daemon mid-request (${why})` : "the daemon closed the connection mid-request",
            ),
          );
        reject(
          new DaemonUnavailable(
            why ? `the daemon is not running at ${link.path} (${why})` : "the daemon closed the connection",
          ),
        );
      });
    if (link.dead) return link.onEnd(undefined);
    if (reused) write();
    else link.socket.once("connect", write);
  });
}
