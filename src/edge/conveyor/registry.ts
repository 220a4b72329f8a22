// The one registry of conveyor tools: nothing runs that is not named here (terminal safety spec §2).
import type { ConnectorDeps } from "../connectors/deps.ts";
import { CONNECTOR_TOOL_NAMES, connectorTools } from "../connectors/tools.ts";
import { DESCRIBE_ONLY } from "../connectors/wiring.ts";
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
  ...CONNECTOR_TOOL_NAMES,
] as const;

export function toolRegistry(
  ports: {
    companionRunner?: CompanionRunner;
    /** Connector tools' connections and endpoints (src/edge/connectors/wiring.ts); absent: none connected. */
    connectors?: ConnectorDeps;
  } = {},
): ToolRegistry {
  const tools = [
    webFetch,
    httpRequest,
    notify,
    companionRun(ports.companionRunner),
    memoryNote,
    artifactPut,
    ...connectorTools(ports.connectors ?? DESCRIBE_ONLY),
  ] as ConveyorTool[];
  return new Map(tools.map((t) => [t.name, t]));
}
