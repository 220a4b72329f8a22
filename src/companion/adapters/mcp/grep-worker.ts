// Runs one grep in a worker thread, so a pathological pattern can be stopped without stalling the server.
import { parentPort, workerData } from "node:worker_threads";
import { type GrepArgs, grepTool } from "./grep-tool.ts";
import { errorResult, ToolFailure } from "./tool-result.ts";

interface GrepJob {
  absolute: string;
  relative: string;
  args: GrepArgs;
}

const job = workerData as GrepJob;
const result = await grepTool(job.absolute, job.relative, job.args).catch((error: unknown) =>
  errorResult(error instanceof ToolFailure ? error.message : "grep failed unexpectedly"),
);
parentPort?.postMessage(result);
