// One HTTP/1.1 exchange over a socket dialled to an address the guard already judged. fetch() would
// resolve the name again (and ignores a Host header), which is exactly the gap DNS rebinding uses; a
// socket to the pinned IP, with TLS verified against the original host name, closes it.

import { connect } from "cloudflare:sockets";
import { Buffer } from "node:buffer";
import { HTTPParser } from "http-parser-js";

export interface PinnedRequest {
  url: URL;
  address: string;
  port: number;
  tls: boolean;
  method: string;
  headers: [string, string][];
  body?: Uint8Array;
  maxBytes: number;
  /** Epoch ms by which the whole exchange, body included, must be done. */
  deadline: number;
}

export interface PinnedResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

export class EgressFailure extends Error {
  readonly kind: "timeout" | "too_large" | "connect" | "protocol";
  constructor(kind: EgressFailure["kind"], message: string) {
    super(message);
    this.kind = kind;
  }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const encoder = new TextEncoder();

function requestHead(req: PinnedRequest): string {
  if (!TOKEN.test(req.method))
    throw new EgressFailure("protocol", `bad method ${JSON.stringify(req.method)}`);
  const lines = [`${req.method} ${req.url.pathname}${req.url.search} HTTP/1.1`, `Host: ${req.url.host}`];
  for (const [name, value] of req.headers) {
    // Header injection: no CR, LF or NUL in values, names are RFC 9110 tokens.
    if (!TOKEN.test(name) || /[\r\n\0]/.test(value))
      throw new EgressFailure("protocol", `bad header ${name}`);
    lines.push(`${name}: ${value}`);
  }
  lines.push("Connection: close", "Accept-Encoding: identity");
  if (req.body) lines.push(`Content-Length: ${req.body.byteLength}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

function untilDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  const left = deadline - Date.now();
  if (left <= 0) return Promise.reject(new EgressFailure("timeout", "time limit reached"));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EgressFailure("timeout", "time limit reached")), left);
  });
  return Promise.race([promise, expiry]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

export async function pinnedRequest(req: PinnedRequest): Promise<PinnedResponse> {
  const head = requestHead(req);
  let socket = connect(
    { hostname: req.address, port: req.port },
    { secureTransport: req.tls ? "starttls" : "off", allowHalfOpen: false },
  );
  try {
    await untilDeadline(socket.opened, req.deadline).catch((error: unknown) => {
      if (error instanceof EgressFailure) throw error;
      throw new EgressFailure("connect", `could not connect to ${req.address}:${req.port}`);
    });
    // The certificate must be valid for the name in the URL, though the socket went to the pinned IP.
    if (req.tls) socket = socket.startTls({ expectedServerHostname: req.url.hostname });
    const writer = socket.writable.getWriter();
    await untilDeadline(writer.write(encoder.encode(head)), req.deadline);
    if (req.body) await untilDeadline(writer.write(req.body), req.deadline);
    writer.releaseLock();
    return await readResponse(socket.readable, req);
  } finally {
    socket.close().catch(() => undefined);
  }
}

async function readResponse(
  readable: ReadableStream<Uint8Array>,
  req: PinnedRequest,
): Promise<PinnedResponse> {
  const parser = new HTTPParser(HTTPParser.RESPONSE);
  let status = 0;
  let headers: [string, string][] = [];
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  parser[HTTPParser.kOnHeadersComplete] = (info) => {
    status = info.statusCode;
    headers = [];
    for (let i = 0; i + 1 < info.headers.length; i += 2) {
      headers.push([String(info.headers[i]).toLowerCase(), String(info.headers[i + 1])]);
    }
  };
  parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
    size += length;
    if (size > req.maxBytes)
      throw new EgressFailure("too_large", `response is larger than ${req.maxBytes} bytes`);
    chunks.push(new Uint8Array(chunk.subarray(offset, offset + length)));
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    complete = true;
  };
  const reader = readable.getReader();
  try {
    while (!complete) {
      const { value, done } = await untilDeadline(reader.read(), req.deadline);
      if (done) {
        const finished = parser.finish();
        if (finished instanceof Error) throw new EgressFailure("protocol", "the response ended early");
        break;
      }
      // Errors thrown by the callbacks (the size cap) propagate; parse errors come back as values.
      // Two Buffer typings meet here (the edge's shim, @types/node in tests); the runtime object is one.
      const result = parser.execute(Buffer.from(value) as unknown as Parameters<typeof parser.execute>[0]);
      if (result instanceof Error) throw new EgressFailure("protocol", "the response is not valid HTTP/1.1");
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (status === 0) throw new EgressFailure("protocol", "no HTTP response");
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { status, headers, body };
}
