// The phone's side of an approval without a browser: a dashboard websocket that receives prompts, and
// the REST calls a person's tap makes (confirmation token for high risk, then approve once).
import WebSocket from "ws";
import { CapabilityPrompt, ResolvedPrompt } from "../../src/protocol/prompts.ts";
import { ServerMessage } from "../../src/protocol/socket.ts";

export class PhoneDashboard {
  readonly #ws: WebSocket;
  readonly #base: string;
  readonly #token: string;
  readonly #received: ServerMessage[] = [];
  #waiters: (() => void)[] = [];

  private constructor(base: string, token: string, ws: WebSocket) {
    this.#base = base;
    this.#token = token;
    this.#ws = ws;
    ws.on("message", (raw) => {
      const parsed = ServerMessage.safeParse(JSON.parse(String(raw)));
      if (!parsed.success) return;
      this.#received.push(parsed.data);
      for (const waiter of this.#waiters) waiter();
    });
  }

  static async connect(base: string, token: string): Promise<PhoneDashboard> {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/v1/connect?role=approver`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    ws.send(JSON.stringify({ type: "hello", client: { name: "phone", version: "0.0.0" } }));
    return new PhoneDashboard(base, token, ws);
  }

  /** The first received message `pick` maps to a value (already buffered, or still to come). */
  #first<T>(pick: (m: ServerMessage) => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const check = () => {
        for (const m of this.#received) {
          const hit = pick(m);
          if (hit !== undefined) {
            this.#waiters = this.#waiters.filter((w) => w !== check);
            resolve(hit);
            return;
          }
        }
      };
      this.#waiters.push(check);
      check();
    });
  }

  /** The first message of any kind `pick` maps to a value (a job update, a chat message, …). */
  first<T>(pick: (m: ServerMessage) => T | undefined): Promise<T> {
    return this.#first(pick);
  }

  /** The first prompt shown on the phone that mentions `text` (its scopes or justification). */
  prompt(text: string): Promise<CapabilityPrompt> {
    return this.#first((m) =>
      m.type === "capability_prompt" && JSON.stringify(m.data).includes(text)
        ? CapabilityPrompt.parse(m.data)
        : undefined,
    );
  }

  /** The resolution the phone was told about for the prompt that mentions `text`. */
  resolved(text: string): Promise<ResolvedPrompt> {
    return this.#first((m) =>
      m.type === "prompt_resolved" && JSON.stringify(m.data).includes(text)
        ? ResolvedPrompt.parse(m.data)
        : undefined,
    );
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
