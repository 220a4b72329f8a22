// Body reading and JSON answers for the local test servers (scripted planner, egress targets).
import type { IncomingMessage, ServerResponse } from "node:http";

/** The whole request body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (d) => {
      text += d;
    });
    req.on("end", () => resolve(text));
  });
}

/** Answers `body` as JSON with its length. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
