// The phone's side of an approval without a browser: a dashboard websocket that receives prompts, and
// the REST calls a person's tap makes (confirmation token for high risk, then approve once).
import WebSocket from "ws";
import { CapabilityPrompt } from "../../src/protocol/prompts.ts";
import { ServerMessage } from "../../src/protocol/socket.ts";

export class PhoneDashboard {
  readonly #ws: WebSocket;
  readonly #base: string;
  readonly #token: string;
  readonly #prompts: CapabilityPrompt[] = [];
  #waiters: ((prompt: CapabilityPrompt) => void)[] = [];

  private constructor(base: string, token: string, ws: WebSocket) {
    this.#base = base;
    this.#token = token;
    this.#ws = ws;
    ws.on("message", (raw) => {
      const parsed = ServerMessage.safeParse(JSON.parse(String(raw)));
      if (!parsed.success || parsed.data.type !== "capability_prompt") return;
      const prompt = CapabilityPrompt.parse(parsed.data.data);
      const waiter = this.#waiters.shift();
      if (waiter) waiter(prompt);
      else this.#prompts.push(prompt);
    });
  }

  static async connect(base: string, token: string): Promise<PhoneDashboard> {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/v1/connect?role=dashboard`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    ws.send(JSON.stringify({ type: "hello", client: { name: "phone", version: "0.0.0" } }));
    return new PhoneDashboard(base, token, ws);
  }

  /** The next prompt shown on the phone (already received, or the next to arrive). */
  nextPrompt(): Promise<CapabilityPrompt> {
    const ready = this.#prompts.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async #post(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.#base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.#token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Allow once, with the confirmation step high-risk prompts require. */
  async approveOnce(promptId: string): Promise<void> {
    const { token } = (await this.#post(`/v1/approvals/${promptId}/confirm`, {})) as { token: string };
    await this.#post(`/v1/approvals/${promptId}/approve`, { scope: "once", confirmation_token: token });
  }

  close(): void {
    this.#ws.close();
  }
}
