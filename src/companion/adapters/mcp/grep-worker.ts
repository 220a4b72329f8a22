// The grep worker thread: answers one job at a time, so a pathological pattern can be stopped (by
// terminating this thread) without stalling the server.
import { parentPort } from "node:worker_threads";
import { type GrepArgs, grepTool } from "./grep-tool.ts";
import { errorResult, ToolFailure } from "./tool-result.ts";

export interface GrepJob {
  id: number;
  workspace: string;
  absolute: string;
  relative: string;
  args: GrepArgs;
}

parentPort?.on("message", (job: GrepJob) => {
  void grepTool(job.workspace, job.absolute, job.relative, job.args)
    .catch((error: unknown) =>
      errorResult(error instanceof ToolFailure ? error.message : "grep failed unexpectedly"),
    )
    .then((result) => parentPort?.postMessage({ id: job.id, result }));
});
