// A scripted stand-in for a remote LLM on 127.0.0.1: OpenAI-compatible /v1/chat/completions (SSE and
// plain JSON), the OpenAI Responses API (SSE, for Codex) and Anthropic /v1/messages (SSE and plain
// JSON). It replays a script of turns and records every request, so tests can assert on the tool results a real agent sent back.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerResponses, responsesToolResults, responsesTurnIndex } from "./responses-api.ts";

export interface ScriptedToolCall {
  name: string;
  input: Record<string, unknown>;
}

export type ScriptedTurn = { toolCalls: ScriptedToolCall[] } | { text: string };

export interface RecordedRequest {
  api: "openai" | "anthropic" | "responses" | "other";
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** performance.now() when the request arrived and when its answer was fully written (for benchmarks). */
  receivedAt: number;
  answeredAt?: number;
}

export interface ToolResultSeen {
  toolCallId: string;
  text: string;
  isError: boolean;
}

export interface ModelServer {
  /** Base URL without a path, e.g. http://127.0.0.1:4321 */
  url: string;
  requests: RecordedRequest[];
  /** Requests that carried tools: the agent's real turns (side requests like titles carry none). */
  agentTurns(): RecordedRequest[];
  /** Tool results in the latest agent turn's transcript (it holds the whole conversation so far). */
  toolResults(): ToolResultSeen[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function isObject(x: unknown): x is Json {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function messagesOf(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

function hasTools(body: unknown): boolean {
  return isObject(body) && Array.isArray(body.tools) && body.tools.length > 0;
}

/**
 * Which scripted turn a request is at: the number of assistant messages already in its transcript.
 * Stateless, so retries and side requests never shift the script.
 */
function turnIndex(body: unknown): number {
  return messagesOf(body).filter((m) => m.role === "assistant").length;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObject)
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .join("");
}

function collectToolResults(request: RecordedRequest): ToolResultSeen[] {
  if (request.api === "responses") return responsesToolResults(request.body);
  const out: ToolResultSeen[] = [];
  for (const message of messagesOf(request.body)) {
    if (request.api === "openai" && message.role === "tool") {
      out.push({
        toolCallId: String(message.tool_call_id ?? ""),
        text: textOf(message.content),
        isError: false,
      });
    }
    if (request.api === "anthropic" && message.role === "user" && Array.isArray(message.content)) {
      for (const block of message.content.filter(isObject)) {
        if (block.type !== "tool_result") continue;
        out.push({
          toolCallId: String(block.tool_use_id ?? ""),
          text: textOf(block.content),
          isError: block.is_error === true,
        });
      }
    }
  }
  return out;
}

function sse(res: ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const e of events) {
    const payload = typeof e.data === "string" ? e.data : JSON.stringify(e.data);
    res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${payload}\n\n`);
  }
  res.end();
}

const USAGE_OPENAI = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function answerOpenAi(res: ServerResponse, body: Json, turn: ScriptedTurn, index: number): void {
  const model = typeof body.model === "string" ? body.model : "scripted";
  const created = Math.floor(Date.now() / 1000);
  const id = `chatcmpl-${index}`;
  const toolCalls =
    "toolCalls" in turn
      ? turn.toolCalls.map((c, i) => ({
          index: i,
          id: `call_${index}_${i}`,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.input) },
        }))
      : undefined;
  const finish = toolCalls ? "tool_calls" : "stop";
  if (body.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "text" in turn ? turn.text : null, tool_calls: toolCalls },
            finish_reason: finish,
          },
        ],
        usage: USAGE_OPENAI,
      }),
    );
    return;
  }
  const chunk = (delta: Json, finishReason: string | null, extra: Json = {}) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra,
    },
  });
  const delta: Json = toolCalls
    ? { role: "assistant", content: null, tool_calls: toolCalls }
    : { role: "assistant", content: "text" in turn ? turn.text : "" };
  sse(res, [chunk(delta, null), chunk({}, finish, { usage: USAGE_OPENAI }), { data: "[DONE]" }]);
}

function anthropicBlocks(turn: ScriptedTurn, index: number): Json[] {
  if ("text" in turn) return [{ type: "text", text: turn.text }];
  return turn.toolCalls.map((c, i) => ({
    type: "tool_use",
    id: `toolu_${index}_${i}`,
    name: c.name,
    input: c.input,
  }));
}

function answerAnthropic(res: ServerResponse, body: Json, turn: ScriptedTurn, index: number): void {
  const model = typeof body.model === "string" ? body.model : "scripted";
  const id = `msg_${index}_${Date.now()}`;
  const blocks = anthropicBlocks(turn, index);
  const stopReason = "toolCalls" in turn ? "tool_use" : "end_turn";
  const usage = {
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  if (body.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  const events: { event: string; data: Json }[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    },
  ];
  blocks.forEach((block, i) => {
    if (block.type === "text") {
      events.push({
        event: "content_block_start",
        data: { type: "content_block_start", index: i, content_block: { type: "text", text: "" } },
      });
      events.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index: i, delta: { type: "text_delta", text: block.text } },
      });
    } else {
      events.push({
        event: "content_block_start",
        data: { type: "content_block_start", index: i, content_block: { ...block, input: {} } },
      });
      events.push({
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index: i,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        },
      });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index: i } });
  });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  sse(res, events);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Starts the server. Turn N of the script answers any agent request whose transcript already holds N
 * assistant messages; past the end, and for side requests without tools, the answer is `finalText`.
 */
export async function startModelServer(
  script: ScriptedTurn[],
  finalText = "All done.",
): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const api = path.endsWith("/chat/completions")
        ? "openai"
        : path.endsWith("/v1/messages")
          ? "anthropic"
          : path.endsWith("/responses")
            ? "responses"
            : "other";
      const record: RecordedRequest = {
        api,
        method: req.method ?? "GET",
        path,
        headers: req.headers,
        body,
        receivedAt: performance.now(),
      };
      requests.push(record);
      res.once("finish", () => {
        record.answeredAt = performance.now();
      });
      if (path.endsWith("/v1/messages/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      if (api === "other" || !isObject(body)) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "not_found_error", message: `no route ${path}` } }));
        return;
      }
      const index = api === "responses" ? responsesTurnIndex(body) : turnIndex(body);
      const turn: ScriptedTurn = (hasTools(body) ? script[index] : undefined) ?? { text: finalText };
      if (api === "openai") answerOpenAi(res, body, turn, index);
      else if (api === "responses") answerResponses(res, body, turn, index);
      else answerAnthropic(res, body, turn, index);
    })().catch((error: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const agentTurns = () => requests.filter((r) => r.api !== "other" && hasTools(r.body));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    agentTurns,
    toolResults: () => {
      const last = agentTurns().at(-1);
      return last ? collectToolResults(last) : [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
