// A long-lived real Pi in RPC mode: commands answered by id, prompts run until Pi reports `agent_settled`,
// confirm dialogs answered by the test, and every status line an extension sets, in order.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { NODE } from "./airlock-env.ts";
import { type ConfirmRequest, PI_CLI } from "./pi-rpc.ts";

interface RpcEvent {
  type?: string;
  id?: string;
  command?: string;
  success?: boolean;
  error?: string;
  data?: unknown;
  method?: string;
  title?: string;
  message?: string;
  statusKey?: string;
  statusText?: string;
}

export class PiRpcSession {
  readonly dialogs: ConfirmRequest[] = [];
  /** `[statusKey, statusText]` in the order Pi emitted them (text undefined: cleared). */
  readonly statuses: [string, string | undefined][] = [];
  stderr = "";
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<string, (event: RpcEvent) => void>();
  private settled: (() => void) | null = null;
  private next = 0;
  private exited = false;

  constructor(options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    args: string[];
    onConfirm: (request: ConfirmRequest) => boolean;
  }) {
    this.child = spawn(NODE, [PI_CLI, "--mode", "rpc", ...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr.on("data", (d: Buffer) => {
      this.stderr += d.toString();
    });
    this.child.once("exit", () => {
      this.exited = true;
    });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const event = JSON.parse(line) as RpcEvent;
      if (event.type === "response" && event.id) this.waiting.get(event.id)?.(event);
      if (event.type === "extension_ui_request" && event.method === "confirm" && event.id) {
        const request = { id: event.id, title: event.title ?? "", message: event.message ?? "" };
        this.dialogs.push(request);
        this.send({ type: "extension_ui_response", id: event.id, confirmed: options.onConfirm(request) });
      }
      if (event.type === "extension_ui_request" && event.method === "setStatus" && event.statusKey)
        this.statuses.push([event.statusKey, event.statusText]);
      if (event.type === "agent_settled") this.settled?.();
    });
  }

  private send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends one RPC command and resolves with its successful response's data. */
  async command(message: Record<string, unknown>): Promise<unknown> {
    if (this.exited) throw new Error(`pi has exited:\n${this.stderr}`);
    const id = `req-${++this.next}`;
    const response = await new Promise<RpcEvent>((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ ...message, id });
    });
    this.waiting.delete(id);
    if (!response.success)
      throw new Error(`${String(message.type)} failed: ${response.error}\n${this.stderr}`);
    return response.data;
  }

  /** A message the agent answers: resolves when Pi settles (the model's script has run). */
  async prompt(message: string): Promise<void> {
    const settled = new Promise<void>((resolve) => {
      this.settled = resolve;
    });
    await this.command({ type: "prompt", message });
    await settled;
    this.settled = null;
  }

  /** An extension's slash command: runs at once, no agent turn. */
  async slash(command: string): Promise<void> {
    await this.command({ type: "prompt", message: command });
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    this.child.kill("SIGTERM");
    await exited;
  }
}
