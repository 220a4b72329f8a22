// Runs grep off the main thread with a time budget: JavaScript regular expressions backtrack, and a
// pattern like (a+)+$ would otherwise hold the whole MCP server hostage. One long-lived worker serves the
// searches in turn (starting a thread per search costs ~100 ms); a search over budget terminates it, and
// the next search starts a fresh one.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type GrepArgs, grepTool } from "./grep-tool.ts";
import type { GrepJob } from "./grep-worker.ts";
import { errorResult, type ToolResult } from "./tool-result.ts";

export const DEFAULT_GREP_TIMEOUT_MS = 20_000;

// The compiled worker sits beside this file in dist/; run from TypeScript sources there is none, and
// grep runs in-process instead.
const WORKER = new URL("./grep-worker.js", import.meta.url);

export class GrepRunner {
  readonly #timeoutMs: number;
  #worker: Worker | undefined;
  #nextId = 1;
  /** Searches run one at a time, so each one's budget starts when it does. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(timeoutMs = DEFAULT_GREP_TIMEOUT_MS) {
    this.#timeoutMs = timeoutMs;
  }

  run(workspace: string, absolute: string, relative: string, args: GrepArgs): Promise<ToolResult> {
    if (!existsSync(fileURLToPath(WORKER))) return grepTool(workspace, absolute, relative, args);
    const job = this.#queue.then(() =>
      this.#runOne({ id: this.#nextId++, workspace, absolute, relative, args }),
    );
    this.#queue = job.catch(() => undefined);
    return job;
  }

  #spawn(): Worker {
    const worker = new Worker(WORKER);
    // An idle worker must not keep the process alive after the client disconnects.
    worker.unref();
    return worker;
  }

  #runOne(job: GrepJob): Promise<ToolResult> {
    const worker = this.#worker ?? this.#spawn();
    this.#worker = worker;
    return new Promise<ToolResult>((resolve) => {
      const done = (result: ToolResult, broken: boolean) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (broken) {
          if (this.#worker === worker) this.#worker = undefined;
          void worker.terminate();
        }
        resolve(result);
      };
      const onMessage = (message: { id: number; result: ToolResult }) => {
        if (message.id === job.id) done(message.result, false);
      };
      const onError = () => done(errorResult("grep failed unexpectedly"), true);
      const onExit = () => done(errorResult("grep failed unexpectedly"), true);
      const timer = setTimeout(
        () =>
          done(
            errorResult(
              `grep stopped after ${Math.round(this.#timeoutMs / 1000)} s: the pattern is too slow to evaluate (nested quantifiers?) or the search too large. Refine the pattern or narrow path/glob.`,
            ),
            true,
          ),
        this.#timeoutMs,
      );
      worker.on("message", onMessage);
      worker.once("error", onError);
      worker.once("exit", onExit);
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    await this.#worker?.terminate();
    this.#worker = undefined;
  }
}
