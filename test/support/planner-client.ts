// The planner server's control API over HTTP, for tests in another process (workerd, wrangler dev).
import type { PlannerStep, RecordedCall, ScriptMode } from "./planner-server.ts";

/** For tests in another process (workerd, wrangler dev): the same operations over HTTP. */
export function plannerClient(url: string) {
  return {
    async script(id: string, steps: PlannerStep[], mode: ScriptMode = "sequence"): Promise<void> {
      const res = await fetch(`${url}/control/scripts/${id}`, {
        method: "POST",
        body: JSON.stringify({ steps, mode }),
      });
      if (!res.ok) throw new Error(`script ${id}: ${res.status}`);
    },
    async calls(id: string): Promise<RecordedCall[]> {
      const res = await fetch(`${url}/control/scripts/${id}`);
      return ((await res.json()) as { calls: RecordedCall[] }).calls;
    },
  };
}
