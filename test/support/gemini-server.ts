// A scripted stand-in for the Gemini API on 127.0.0.1, for the real Gemini CLI (GOOGLE_GEMINI_BASE_URL):
// `:generateContent`, `:streamGenerateContent?alt=sse` and `:countTokens`. Turn N of the script answers any request
// with tools whose contents already hold N model turns; it records every request so tests read the function
// responses Gemini sent back.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptedTurn, ToolResultSeen } from "./model-server.ts";

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

export interface GeminiServer {
  /** For GOOGLE_GEMINI_BASE_URL (no path). */
  url: string;
  requests: { path: string; body: unknown }[];
  /** Function responses in the latest request with tools, in order. */
  toolResults(): ToolResultSeen[];
  close(): Promise<void>;
}

function contentsOf(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.contents) ? body.contents.filter(isObject) : [];
}

function partsOf(content: Json): Json[] {
  return Array.isArray(content.parts) ? content.parts.filter(isObject) : [];
}

const hasTools = (body: unknown) => isObject(body) && Array.isArray(body.tools) && body.tools.length > 0;

function answer(turn: ScriptedTurn, index: number): Json {
  const parts =
    "text" in turn
      ? [{ text: turn.text }]
      : turn.toolCalls.map((c, i) => ({
          functionCall: { id: `call_${index}_${i}`, name: c.name, args: c.input },
        }));
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "gemini-2.5-flash",
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

export async function startGeminiServer(
  script: ScriptedTurn[],
  finalText = "All done.",
): Promise<GeminiServer> {
  const requests: { path: string; body: unknown }[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = req.url ?? "/";
      requests.push({ path, body });
      if (path.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ totalTokens: 10 }));
        return;
      }
      if (!path.includes("enerateContent")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 404, message: `no route ${path}`, status: "NOT_FOUND" } }));
        return;
      }
      const index = contentsOf(body).filter((c) => c.role === "model").length;
      const turn = (hasTools(body) ? script[index] : undefined) ?? { text: finalText };
      const payload = answer(turn, index);
      if (path.includes(":streamGenerateContent")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(payload)}\n\n`);
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    toolResults() {
      const last = requests.filter((r) => hasTools(r.body)).at(-1);
      const out: ToolResultSeen[] = [];
      for (const content of contentsOf(last?.body)) {
        for (const part of partsOf(content)) {
          const fr = part.functionResponse;
          if (!isObject(fr)) continue;
          const text = JSON.stringify(fr.response ?? {});
          out.push({ toolCallId: String(fr.id ?? fr.name ?? ""), text, isError: /"error"/.test(text) });
        }
      }
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
