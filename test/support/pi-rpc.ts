// Drives the real Pi coding agent in RPC mode: one prompt in, dialogs answered (or left open) by the test,
// resolved once Pi reports `agent_settled`.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { NODE, ROOT } from "./airlock-env.ts";

export const PI_CLI = join(ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");

export interface ConfirmRequest {
  id: string;
  title: string;
  message: string;
}

export interface PiRpcRun {
  dialogs: ConfirmRequest[];
  stderr: string;
}

/**
 * `onConfirm` answers a confirm dialog with true/false, or leaves it open with undefined (someone else,
 * such as the phone, is expected to decide).
 */
export async function runPiRpc(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: string[];
  prompt: string;
  onConfirm: (request: ConfirmRequest) => boolean | undefined;
}): Promise<PiRpcRun> {
  const child = spawn(NODE, [PI_CLI, "--mode", "rpc", ...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const dialogs: ConfirmRequest[] = [];
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const settled = new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`pi exited early (${code}):\n${stderr}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      const event = JSON.parse(line) as {
        type?: string;
        id?: string;
        method?: string;
        title?: string;
        message?: string;
      };
      if (event.type === "extension_ui_request" && event.method === "confirm" && event.id) {
        const request = { id: event.id, title: event.title ?? "", message: event.message ?? "" };
        dialogs.push(request);
        const answer = options.onConfirm(request);
        if (answer !== undefined) send({ type: "extension_ui_response", id: event.id, confirmed: answer });
      }
      if (event.type === "agent_settled") resolve();
    });
  });
  send({ id: "prompt-1", type: "prompt", message: options.prompt });
  try {
    await settled;
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.end();
    child.kill("SIGTERM");
    await exited;
  }
  return { dialogs, stderr };
}
