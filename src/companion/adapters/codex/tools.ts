// Codex tool calls in Airlock's canonical vocabulary. A patch can touch several files, so one Codex call may
// become several Airlock calls; every one must be allowed for the patch to run.
import type { MappedTool } from "../claude-code/tools.ts";

/** The files an apply_patch envelope touches, with what it does to each. */
export function patchTargets(patch: string): { op: "add" | "update" | "delete" | "move"; path: string }[] {
  const out: { op: "add" | "update" | "delete" | "move"; path: string }[] = [];
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trimEnd());
    if (!m?.[1] || !m[2]) continue;
    const op =
      m[1] === "Add File"
        ? "add"
        : m[1] === "Update File"
          ? "update"
          : m[1] === "Delete File"
            ? "delete"
            : "move";
    out.push({ op, path: m[2].trim() });
  }
  return out;
}

function commandText(input: Record<string, unknown>): string | undefined {
  const c = input.command ?? input.cmd;
  if (typeof c === "string") return c;
  if (Array.isArray(c) && c.every((x) => typeof x === "string")) return c.join(" ");
  return undefined;
}

export function mapCodexTool(name: string, input: Record<string, unknown>): MappedTool[] {
  switch (name) {
    case "Bash":
    case "shell":
    case "local_shell":
    case "exec_command": {
      const command = commandText(input);
      return [{ tool: "bash", input: command === undefined ? {} : { command } }];
    }
    case "apply_patch": {
      const patch =
        [input.command, input.patch, input.input].find((v): v is string => typeof v === "string") ?? "";
      const targets = patchTargets(patch);
      // A patch whose files cannot be read is judged as an edit of an unknown path (dynamic, never auto-allowed).
      if (targets.length === 0) return [{ tool: "edit", input: {} }];
      return targets.map((t) => ({ tool: t.op === "update" ? "edit" : "write", input: { path: t.path } }));
    }
    default:
      return [{ tool: name, input }];
  }
}
