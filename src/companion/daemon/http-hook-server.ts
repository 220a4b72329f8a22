// The daemon's http hook endpoint: `POST /hooks/<agent>` on 127.0.0.1, for agents that can post a hook event
// instead of spawning a process per tool call (Claude Code's `"type": "http"` hooks). The body is the same event a
// command hook reads on stdin and the answer the same JSON it would print, so the decision core, the audit and the
// agent's contract are the command hook's. Only the user's own processes may call it: the per-user secret in a
// header, a loopback peer, the endpoint's own Host (no DNS rebinding) and no Origin (no web page).
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { HookResult } from "../hooks/output.ts";
import { type HttpEndpoint, SECRET_HEADER } from "./http-endpoint.ts";

/** A Write or Edit carries file contents: the control socket's bound, so both paths take the same events. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** How long the rest of a too-large upload is drained after its 413, before the socket is dropped. */
const LINGER_MS = 5_000;
/** How long an idle kept-alive connection stays open: longer than any agent keeps one (see listenHttpHooks). */
export const IDLE_KEEP_MS = 120_000;

export type HttpHookHandler = (body: string) => Promise<HookResult>;

export interface HttpHookServer {
  port: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::ffff:127.0.0.1", "::1"]);

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(`${JSON.stringify({ error: { code, message } })}\n`);
}

/**
 * The answer on a kept-alive connection: headers and body leave in one write, framed by Content-Length (headers set
 * by writeHead are sent before the body is known, which makes Node frame the body as chunks), with no Date line. A
 * hook with nothing to say answers an empty body, which Claude Code reads as `{}`.
 */
function answer(res: ServerResponse, body: string): void {
  res.sendDate = false;
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

function secretMatches(presented: string | string[] | undefined, secret: string): boolean {
  if (typeof presented !== "string") return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a request may not reach a handler, or undefined when it may. Checked before a byte of the body is read. */
export function refusal(
  req: Pick<IncomingMessage, "method" | "url" | "headers"> & { remoteAddress: string | undefined },
  endpoint: HttpEndpoint,
  agents: ReadonlySet<string>,
): { status: number; code: string; message: string } | undefined {
  if (!LOOPBACK.has(req.remoteAddress ?? ""))
    return { status: 403, code: "forbidden", message: "only this machine may call the hook endpoint" };
  const host = req.headers.host;
  if (host !== `127.0.0.1:${endpoint.port}` && host !== `localhost:${endpoint.port}`)
    return { status: 403, code: "forbidden", message: "wrong Host for the hook endpoint" };
  // Browsers send Origin (and Sec-Fetch-Site) on every POST; agents send neither.
  if (req.headers.origin !== undefined || req.headers["sec-fetch-site"] !== undefined)
    return { status: 403, code: "forbidden", message: "cross-origin requests are refused" };
  const match = /^\/hooks\/([a-z-]+)$/.exec(req.url ?? "");
  const agent = match?.[1];
  if (!agent || !agents.has(agent)) return { status: 404, code: "not_found", message: "no such hook" };
  if (req.method !== "POST") return { status: 405, code: "method_not_allowed", message: "POST only" };
  if (!secretMatches(req.headers[SECRET_HEADER], endpoint.secret))
    return { status: 401, code: "unauthorized", message: `missing or wrong ${SECRET_HEADER}` };
  const length = Number(req.headers["content-length"] ?? "0");
  if (Number.isFinite(length) && length > MAX_BODY_BYTES)
    return { status: 413, code: "too_large", message: `the event is larger than ${MAX_BODY_BYTES} bytes` };
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string | "too_large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop buffering; the caller answers 413 and drains the rest.
        req.removeAllListeners("data");
        req.pause();
        resolve("too_large");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Serves `handlers` (agent → handler) on 127.0.0.1:`endpoint.port`. A hook result with a non-zero exit code (the
 * input was not a hook event) is answered 422, which an agent configured to block on failure treats as a block.
 */
export async function listenHttpHooks(
  endpoint: HttpEndpoint,
  handlers: Readonly<Record<string, HttpHookHandler>>,
  log: (line: string) => void,
): Promise<HttpHookServer> {
  const agents = new Set(Object.keys(handlers));
  const server: Server = createServer((req, res) => {
    const refused = refusal(
      { method: req.method, url: req.url, headers: req.headers, remoteAddress: req.socket.remoteAddress },
      endpoint,
      agents,
    );
    if (refused) {
      log(`http hook: refused ${req.method} ${req.url} (${refused.status} ${refused.code})`);
      refuse(res, refused.status, refused.code, refused.message);
      req.resume();
      return;
    }
    const agent = (req.url ?? "").slice("/hooks/".length);
    const handler = handlers[agent];
    void (async () => {
      const body = await readBody(req);
      if (body === "too_large") {
        // Dropping the socket while the sender is still writing makes the kernel reset the connection, and a reset
        // can discard the 413 before the sender reads it. So the rest of the upload is read and thrown away, for at
        // most LINGER_MS; then the socket goes (`connection: close` ends it sooner when the upload finishes).
        req.on("data", () => {});
        req.resume();
        setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
        return refuse(res, 413, "too_large", `the event is larger than ${MAX_BODY_BYTES} bytes`);
      }
      if (!handler) return refuse(res, 404, "not_found", "no such hook");
      const result = await handler(body);
      if (result.exitCode !== 0) return refuse(res, 422, "not_a_hook_event", result.stderr.trim());
      answer(res, result.stdout);
    })().catch((error: unknown) => {
      // The handler never throws (runGuardedHook denies instead); this is the socket failing under us.
      if (!res.headersSent)
        refuse(res, 500, "internal", error instanceof Error ? error.message : String(error));
    });
  });
  // A slow sender must not hold a connection open; the answer itself may wait for a person.
  server.headersTimeout = 10_000;
  server.requestTimeout = 0;
  // An idle kept-alive connection is closed by Claude Code (it opens a new one after a few idle seconds, whatever the
  // server says), never first by the daemon: a server that closes at Node's default 5 s races a post sent at that
  // moment, and a post that fails is a blocked call (`onFailure: "block"`).
  server.keepAliveTimeout = IDLE_KEEP_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(endpoint.port, "127.0.0.1", () => resolve());
  });
  log(`http hooks listening on 127.0.0.1:${endpoint.port}`);
  return {
    port: endpoint.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
