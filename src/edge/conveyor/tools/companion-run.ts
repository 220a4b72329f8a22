// companion.run (HIGH unless a grant covers it): a command run on one of the person's connected
// companions, judged there by the same local policy as agent calls; the output comes back to the hub.
import { z } from "zod";
import type { ConveyorTool } from "../tool.ts";
import { failed } from "../tool.ts";

const Args = z.strictObject({
  command: z.string().trim().min(1).max(4000),
  cwd: z.string().min(1).max(4096),
  /** Which companion; by default the one connected longest. */
  device_id: z
    .string()
    .regex(/^dev_[A-Za-z0-9_-]{16}$/)
    .optional(),
  timeout_ms: z.number().int().min(1_000).max(600_000).default(60_000),
});
export type CompanionRunArgs = z.infer<typeof Args>;

export interface CompanionRunResult {
  exit_code: number | null;
  decision: "allow" | "deny";
  reason: string;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timed_out: boolean;
}

/** How the executor reaches a companion; the hub provides it (src/edge/hub/companion-runs.ts). */
export type CompanionRunner = (
  args: CompanionRunArgs,
  runId: string,
) => Promise<CompanionRunResult | { unavailable: string }>;

export function companionRun(runner: CompanionRunner | undefined): ConveyorTool<CompanionRunArgs> {
  return {
    name: "companion.run",
    description: "Run a command on one of your connected companions, judged by its local policy.",
    schema: Args,
    riskClass: () => "HIGH",
    external: true,
    // A command cannot be deduplicated downstream: after a crash mid-run it is never started again.
    idempotentDownstream: false,
    grantCoversHigh: true,
    summary: (a) => ({
      what: `Run \`${a.command.length > 120 ? `${a.command.slice(0, 117)}…` : a.command}\``,
      where: `${a.device_id ?? "a connected companion"} in ${a.cwd}`,
      impact: "Runs a command on your machine with your permissions.",
    }),
    grantScope: (a) => `${a.cwd} $ ${a.command}`,
    timeoutMs: (a) => a.timeout_ms + 5_000,
    async execute(a, ctx) {
      if (!runner) return failed("tool_unavailable", "no companion can be reached from here");
      const outcome = await runner(a, ctx.idempotencyKey);
      if ("unavailable" in outcome) return failed("tool_unavailable", outcome.unavailable);
      if (outcome.decision === "deny")
        return failed("permission_denied", `the companion's policy refused it: ${outcome.reason}`);
      if (outcome.timed_out) {
        return {
          status: "partial",
          failure: {
            class: "partial_execution",
            message: "the command was stopped at its time limit",
            remediation: "Check what it changed; an undo is a new proposal.",
          },
          result: outcome,
          verification: { outcome: "failed", detail: "timed out" },
        };
      }
      if (outcome.exit_code !== 0)
        return failed("command_error", `exit code ${outcome.exit_code}`, { result: outcome });
      return {
        status: "executed",
        result: outcome,
        verification: { outcome: "passed", detail: "exit code 0" },
      };
    },
  };
}
