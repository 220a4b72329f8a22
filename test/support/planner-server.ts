// A scripted OpenAI-compatible chat-completions server for the hosted runtime's tests (Node, 127.0.0.1).
// A test registers a script under an id and puts `[script:<id>]` in the job's instructions or chat message;
// each request carrying that marker (the latest one in it) is answered by the script's next step: tool calls, a final text,
// garbage, planner JSON, an HTTP error (a 429 storm is a few of them), or a hang (the client times out).
// Requests without a marker get "Done." Every request is recorded per script for assertions.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { json, readBody } from "./http-io.ts";

export type PlannerStep =
  | { text: string }
  | { calls: { name: string; arguments: Record<string, unknown> | string }[]; text?: string }
  /** The message content is this raw text (planner JSON, or garbage). */
  | { content: string }
  | { status: number; retryAfter?: string }
  /** Holds the request open without answering until the client gives up. */
  | { hang: true }
  /** Answers only requests for this model; any other model gets a 404 (a model the provider lacks). */
  | { onlyModel: string; answer: PlannerStep }
  /** Hangs the first request that reaches it; answers later ones with `hangOnce` (a call cut by a restart). */
  | { hangOnce: PlannerStep };

export interface RecordedCall {
  model: string;
  stream: boolean;
  messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown }[];
  tools: { function: { name: string } }[];
  authorization: string | undefined;
  outcome: string;
  /** When the request arrived and when its answer was sent (ms since epoch; 0 while hanging). */
  receivedAt: number;
  answeredAt: number;
}

/**
 * `sequence`: each request takes the next step. `by_turn`: the step is the number of assistant messages in
 * the request (its round in the turn), so a repeated request gets the same answer.
 */
export type ScriptMode = "sequence" | "by_turn";

export interface PlannerServer {
  /** http://127.0.0.1:<port> ; the provider base URL is `${url}/v1`. */
  url: string;
  script(id: string, steps: PlannerStep[], mode?: ScriptMode): void;
  calls(id: string): RecordedCall[];
  close(): Promise<void>;
}

const MARKER = /\[script:([A-Za-z0-9_-]{1,64})\]/g;

function messageOf(step: PlannerStep, n: number) {
  if ("text" in step && !("calls" in step)) return { content: step.text, tool_calls: undefined };
  if ("content" in step) return { content: step.content, tool_calls: undefined };
  if ("calls" in step)
    return {
      content: step.text ?? null,
      tool_calls: step.calls.map((c, i) => ({
        id: `call_${n}_${i}`,
        type: "function",
        function: {
          name: c.name,
          arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
        },
      })),
    };
  return { content: "Done.", tool_calls: undefined };
}

function answer(res: ServerResponse, model: string, step: PlannerStep, n: number, stream: boolean) {
  const message = messageOf(step, n);
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  const finish = message.tool_calls ? "tool_calls" : "stop";
  if (!stream) {
    json(res, 200, {
      id: `cmpl-${n}`,
      object: "chat.completion",
      model,
      choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    send({
      id: `cmpl-${n}`,
      object: "chat.completion.chunk",
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  chunk({ role: "assistant" });
  const text = message.content ?? "";
  // Several deltas, so streaming is visible.
  for (let i = 0; i < text.length; i += 12) chunk({ content: text.slice(i, i + 12) });
  for (const [i, call] of (message.tool_calls ?? []).entries()) {
    chunk({
      tool_calls: [
        { index: i, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
      ],
    });
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    chunk({ tool_calls: [{ index: i, function: { arguments: args.slice(0, half) } }] });
    chunk({ tool_calls: [{ index: i, function: { arguments: args.slice(half) } }] });
  }
  chunk({}, finish);
  send({ id: `cmpl-${n}`, object: "chat.completion.chunk", model, choices: [], usage });
  res.write("data: [DONE]\n\n");
  res.end();
}

/** The edge's variables that make `planner` its model provider (one model, `model`; a fake key, never a real one). */
export function plannerVars(
  planner: Pick<PlannerServer, "url">,
  apiKey = "sk-e2e-model-key-0123456789abcdef",
  model = "e2e-model",
): Record<string, string> {
  return {
    AIRLOCK_MODEL_BASE_URL: `${planner.url}/v1`,
    AIRLOCK_MODEL_MODELS: model,
    AIRLOCK_MODEL_API_KEY: apiKey,
  };
}

export async function startPlannerServer(): Promise<PlannerServer> {
  const scripts = new Map<
    string,
    { steps: PlannerStep[]; next: number; calls: RecordedCall[]; mode: ScriptMode; hung: Set<number> }
  >();
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<import("node:net").Socket>();

  const server = createServer(async (req, res) => {
    const receivedAt = Date.now();
    const url = new URL(req.url ?? "/", "http://x");
    const body = await readBody(req);
    // Control: POST /control/scripts/<id> {steps}; GET /control/scripts/<id> → recorded calls.
    const control = /^\/control\/scripts\/([A-Za-z0-9_-]{1,64})$/.exec(url.pathname);
    if (control?.[1]) {
      const id = control[1];
      if (req.method === "POST") {
        const { steps, mode } = JSON.parse(body) as { steps: PlannerStep[]; mode?: ScriptMode };
        scripts.set(id, { steps, next: 0, calls: [], mode: mode ?? "sequence", hung: new Set() });
        json(res, 200, { ok: true });
      } else json(res, 200, { calls: scripts.get(id)?.calls ?? [] });
      return;
    }
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      json(res, 404, { error: { message: "not found" } });
      return;
    }
    const request = JSON.parse(body) as Pick<RecordedCall, "model" | "messages" | "tools"> & {
      stream?: boolean;
    };
    const text = JSON.stringify(request.messages ?? []);
    // The latest marker wins: a thread's history carries the markers of earlier messages too.
    const id = [...text.matchAll(MARKER)].at(-1)?.[1];
    const script = id ? scripts.get(id) : undefined;
    const call: RecordedCall = {
      model: request.model,
      stream: request.stream === true,
      messages: request.messages,
      tools: request.tools ?? [],
      authorization: req.headers.authorization,
      outcome: "",
      receivedAt,
      answeredAt: 0,
    };
    res.on("finish", () => {
      call.answeredAt = Date.now();
    });
    if (!script) {
      call.outcome = "default";
      answer(res, request.model, { text: "Done." }, 0, call.stream);
      return;
    }
    script.calls.push(call);
    const n =
      script.mode === "by_turn"
        ? (request.messages ?? []).filter((m) => m.role === "assistant").length
        : script.next++;
    let step = script.steps[Math.min(n, script.steps.length - 1)] ?? { text: "Done." };
    if ("hangOnce" in step) {
      if (!script.hung.has(n)) {
        script.hung.add(n);
        call.outcome = "hang";
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      step = step.hangOnce;
    }
    if ("onlyModel" in step) {
      if (request.model !== step.onlyModel) {
        call.outcome = "404 model";
        json(res, 404, { error: { message: `no model ${request.model}` } });
        return;
      }
      step = step.answer;
    }
    if ("status" in step) {
      call.outcome = `HTTP ${step.status}`;
      json(
        res,
        step.status,
        { error: { message: "scripted failure" } },
        step.retryAfter ? { "retry-after": step.retryAfter } : {},
      );
      return;
    }
    if ("hang" in step) {
      call.outcome = "hang";
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    call.outcome = "answered";
    answer(res, request.model, step, n, call.stream);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    script(id, steps, mode = "sequence") {
      scripts.set(id, { steps, next: 0, calls: [], mode, hung: new Set() });
    },
    calls: (id) => scripts.get(id)?.calls ?? [],
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
