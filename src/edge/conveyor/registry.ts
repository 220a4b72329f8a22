// The one registry of conveyor tools: nothing runs that is not named here (terminal safety spec §2).
import type { ConveyorTool } from "./tool.ts";
import { type CompanionRunner, companionRun } from "./tools/companion-run.ts";
import { httpRequest } from "./tools/http-request.ts";
import { artifactPut, memoryNote } from "./tools/memory.ts";
import { notify } from "./tools/notify.ts";
import { webFetch } from "./tools/web-fetch.ts";

export type ToolRegistry = ReadonlyMap<string, ConveyorTool>;

export const TOOL_NAMES = [
  "web.fetch",
  "http.request",
  "notify",
  "companion.run",
  "memory.note",
  "artifact.put",
] as const;

export function toolRegistry(ports: { companionRunner?: CompanionRunner } = {}): ToolRegistry {
  const tools = [
    webFetch,
    httpRequest,
    notify,
    companionRun(ports.companionRunner),
    memoryNote,
    artifactPut,
  ] as ConveyorTool[];
  return new Map(tools.map((t) => [t.name, t]));
}
