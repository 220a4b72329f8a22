// The OpenAI Responses API side of the scripted model server (what Codex speaks with wire_api = "responses"):
// which scripted turn a request is at, the tool results it carries, and the SSE answer.
import type { ServerResponse } from "node:http";

type Json = Record<string, unknown>;

export interface ResponsesTurn {
  toolCalls?: { name: string; input: Record<string, unknown> }[];
  text?: string;
}

function isObject(x: unknown): x is Json {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function inputItems(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.input) ? body.input.filter(isObject) : [];
}

const ASSISTANT_SIDE = new Set(["function_call", "custom_tool_call", "local_shell_call", "reasoning"]);

function isAssistantSide(item: Json): boolean {
  return ASSISTANT_SIDE.has(String(item.type)) || (item.type === "message" && item.role === "assistant");
}

/** The scripted turn a request is at: how many runs of assistant-side items its input already holds. */
export function responsesTurnIndex(body: unknown): number {
  let turns = 0;
  let inAssistant = false;
  for (const item of inputItems(body)) {
    const assistant = isAssistantSide(item);
    if (assistant && !inAssistant) turns++;
    inAssistant = assistant;
  }
  return turns;
}

/** Tool outputs in a request's input, in order. */
export function responsesToolResults(
  body: unknown,
): { toolCallId: string; text: string; isError: boolean }[] {
  return inputItems(body)
    .filter((i) => i.type === "function_call_output" || i.type === "custom_tool_call_output")
    .map((i) => {
      const output = i.output;
      const text =
        typeof output === "string"
          ? output
          : Array.isArray(output)
            ? output.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join("")
            : isObject(output) && typeof output.content === "string"
              ? output.content
              : JSON.stringify(output);
      return { toolCallId: String(i.call_id ?? ""), text, isError: false };
    });
}

export function answerResponses(res: ServerResponse, body: Json, turn: ResponsesTurn, index: number): void {
  const id = `resp_${index}_${Date.now()}`;
  const model = typeof body.model === "string" ? body.model : "scripted";
  const items: Json[] = turn.toolCalls
    ? turn.toolCalls.map((c, i) => ({
        type: "function_call",
        id: `fc_${index}_${i}`,
        call_id: `call_${index}_${i}`,
        name: c.name,
        arguments: JSON.stringify(c.input),
        status: "completed",
      }))
    : [
        {
          type: "message",
          id: `msg_${index}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: turn.text ?? "", annotations: [] }],
        },
      ];
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const events: Json[] = [
    {
      type: "response.created",
      response: { id, object: "response", model, status: "in_progress", output: [] },
    },
  ];
  items.forEach((item, i) => {
    events.push({ type: "response.output_item.added", output_index: i, item });
    events.push({ type: "response.output_item.done", output_index: i, item });
  });
  events.push({
    type: "response.completed",
    response: { id, object: "response", model, status: "completed", output: items, usage },
  });
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const e of events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}
