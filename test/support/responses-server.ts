// A scripted stand-in for an OpenAI Responses API model on 127.0.0.1, for the real Codex CLI (`wire_api =
// "responses"`): it streams the scripted turn's function calls or text and records every request, so tests can read
// the tool outputs Codex sent back.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type ResponsesTurn = { commands: string[] } | { text: string };

export interface ResponsesServer {
  /** Base URL for `base_url`, ending in /v1. */
  url: string;
  /** Parsed request bodies of POST /v1/responses. */
  requests: Record<string, unknown>[];
  /** The output Codex returned for each function call id, from the latest request. */
  outputs(): Map<string, string>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

function inputItems(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.input) ? body.input.filter(isObject) : [];
}

/** Which turn a request is at: how many function calls the model already made in its input (stateless). */
function turnIndex(body: unknown, script: ResponsesTurn[]): number {
  const calls = inputItems(body).filter((i) => i.type === "function_call").length;
  let made = 0;
  for (const [i, turn] of script.entries()) {
    if (made >= calls) return i;
    made += "commands" in turn ? turn.commands.length : 0;
  }
  return script.length - 1;
}

export async function startResponsesServer(script: ResponsesTurn[]): Promise<ResponsesServer> {
  const requests: Json[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => {
      text += d.toString();
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/responses")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end("{}");
        return;
      }
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // recorded as null
      }
      requests.push(isObject(body) ? body : {});
      const index = turnIndex(body, script);
      const turn = script[index] ?? { text: "done" };
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (event: Json) =>
        res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
      const id = `resp_${requests.length}`;
      send({ type: "response.created", response: { id } });
      if ("commands" in turn) {
        turn.commands.forEach((cmd, i) => {
          send({
            type: "response.output_item.done",
            output_index: i,
            item: {
              type: "function_call",
              id: `fc_${index}_${i}`,
              call_id: `call_${index}_${i}`,
              name: "exec_command",
              arguments: JSON.stringify({ cmd }),
            },
          });
        });
      } else {
        send({
          type: "response.output_item.done",
          output_index: 0,
          item: {
            type: "message",
            role: "assistant",
            id: `msg_${index}`,
            content: [{ type: "output_text", text: turn.text }],
          },
        });
      }
      send({
        type: "response.completed",
        response: { id, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } },
      });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    outputs() {
      const out = new Map<string, string>();
      for (const item of inputItems(requests.at(-1))) {
        if (item.type !== "function_call_output" || typeof item.call_id !== "string") continue;
        const o = item.output;
        out.set(item.call_id, typeof o === "string" ? o : JSON.stringify(o));
      }
      return out;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
