// Non-negotiable 4: an ask sent to the edge names the file, never its bytes. Every agent's write and edit tools,
// mapped as its adapter maps them, reach toDecisionRequest with their contents replaced by a byte count.
import { describe, expect, it } from "vitest";
import { mapClaudeTool } from "../../../src/companion/adapters/claude-code/tools.ts";
import { mapCodexTool } from "../../../src/companion/adapters/codex/tools.ts";
import { mapCopilotTool } from "../../../src/companion/adapters/copilot/tools.ts";
import { mapGeminiTool } from "../../../src/companion/adapters/gemini/tools.ts";
import { mapOpenCodeTool } from "../../../src/companion/adapters/opencode/tools.ts";
import type { AgentToolCall } from "../../../src/companion/control/tool-call.ts";
import { toDecisionRequest } from "../../../src/companion/deciding/edge-approver.ts";
import type { DecisionRecord } from "../../../src/policy/index.ts";
import { DecisionRequest } from "../../../src/protocol/decisions.ts";

const SECRET = "s3cr3t-file-bytes";
const RECORD = {
  action: "ask",
  rule: null,
  capability: "write",
  risk: "medium",
} as unknown as DecisionRecord;

type Mapped = { tool: string; input: Record<string, unknown> };
const CASES: [string, Mapped[]][] = [
  ["Claude Code Write", [mapClaudeTool("Write", { file_path: "/p/a.ts", content: SECRET })]],
  [
    "Claude Code Edit",
    [mapClaudeTool("Edit", { file_path: "/p/a.ts", old_string: SECRET, new_string: SECRET })],
  ],
  [
    "Claude Code MultiEdit",
    [
      mapClaudeTool("MultiEdit", {
        file_path: "/p/a.ts",
        edits: [{ old_string: SECRET, new_string: SECRET }],
      }),
    ],
  ],
  [
    "Claude Code NotebookEdit",
    [mapClaudeTool("NotebookEdit", { notebook_path: "/p/a.ipynb", new_source: SECRET })],
  ],
  ["Pi write", [mapClaudeTool("write", { path: "/p/a.ts", content: SECRET })]],
  [
    "Pi edit (edits[])",
    [mapClaudeTool("edit", { path: "/p/a.ts", edits: [{ oldText: SECRET, newText: SECRET }] })],
  ],
  [
    "Pi edit (oldText/newText)",
    [mapClaudeTool("edit", { path: "/p/a.ts", oldText: SECRET, newText: SECRET })],
  ],
  ["Gemini CLI write_file", mapGeminiTool("write_file", { file_path: "/p/a.ts", content: SECRET })],
  [
    "Gemini CLI replace",
    mapGeminiTool("replace", { file_path: "/p/a.ts", old_string: SECRET, new_string: SECRET }),
  ],
  ["OpenCode write", mapOpenCodeTool("write", { filePath: "/p/a.ts", content: SECRET })],
  ["OpenCode edit", mapOpenCodeTool("edit", { filePath: "/p/a.ts", oldString: SECRET, newString: SECRET })],
  [
    "OpenCode apply_patch",
    mapOpenCodeTool("apply_patch", {
      patchText: `*** Begin Patch\n*** Add File: a.ts\n+${SECRET}\n*** End Patch`,
    }),
  ],
  ["Copilot CLI create", mapCopilotTool("create", { path: "/p/a.ts", file_text: SECRET })],
  ["Copilot CLI edit", mapCopilotTool("edit", { path: "/p/a.ts", old_str: SECRET, new_str: SECRET })],
  [
    "Codex apply_patch",
    mapCodexTool("apply_patch", { input: `*** Begin Patch\n*** Add File: a.ts\n+${SECRET}\n*** End Patch` }),
  ],
];

function call(m: Mapped): AgentToolCall {
  return {
    callId: "c1",
    sessionId: "s1",
    agent: { id: "agent-1", name: "claude-code" },
    tool: m.tool,
    input: m.input,
    cwd: "/p",
    hasUI: false,
  } as AgentToolCall;
}

describe("an ask sent to the edge carries no file contents", () => {
  it.each(CASES)("%s", (_name, mapped) => {
    expect(mapped.length).toBeGreaterThan(0);
    for (const m of mapped) {
      expect(["write", "edit"]).toContain(m.tool);
      const request = toDecisionRequest(call(m), RECORD);
      expect(JSON.stringify(request)).not.toContain(SECRET);
      expect(DecisionRequest.safeParse(request).success).toBe(true);
    }
  });

  it("the byte count stands in for the contents", () => {
    const request = toDecisionRequest(
      call(mapClaudeTool("Write", { file_path: "/p/a.ts", content: SECRET })),
      RECORD,
    );
    expect(request.input.content).toBe(`<redacted: ${JSON.stringify(SECRET).length} bytes>`);
    expect(request.input.path).toBe("/p/a.ts");
  });
});
