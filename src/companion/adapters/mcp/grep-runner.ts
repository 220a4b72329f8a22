// Runs grep off the main thread with a time budget: JavaScript regular expressions backtrack, and a
// pattern like (a+)+$ would otherwise hold the whole MCP server hostage.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type GrepArgs, grepTool } from "./grep-tool.ts";
import { errorResult, type ToolResult } from "./tool-result.ts";

export const DEFAULT_GREP_TIMEOUT_MS = 20_000;

// The compiled worker sits beside this file in dist/; run from TypeScript sources there is none, and
// grep runs in-process instead.
const WORKER = new URL("./grep-worker.js", import.meta.url);

export async function runGrep(
  absolute: string,
  relative: string,
  args: GrepArgs,
  timeoutMs = DEFAULT_GREP_TIMEOUT_MS,
): Promise<ToolResult> {
  if (!existsSync(fileURLToPath(WORKER))) return grepTool(absolute, relative, args);
  const worker = new Worker(WORKER, { workerData: { absolute, relative, args } });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<ToolResult>((resolve) => {
      timer = setTimeout(() => {
        resolve(
          errorResult(
            `grep stopped after ${Math.round(timeoutMs / 1000)} s: the pattern is too slow to evaluate (nested quantifiers?) or the search too large. Refine the pattern or narrow path/glob.`,
          ),
        );
      }, timeoutMs);
      worker.once("message", (result: ToolResult) => resolve(result));
      worker.once("error", () => resolve(errorResult("grep failed unexpectedly")));
      worker.once("exit", () => resolve(errorResult("grep failed unexpectedly")));
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
