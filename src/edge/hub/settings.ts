// Per-user settings kept in the hub: emergency controls, the account policy, the prompt timeout.
import { z } from "zod";
import { EmergencyControls } from "../../protocol/capability.ts";

const StoredPolicy = z.object({ text: z.string(), updatedAt: z.number() });

const NO_EMERGENCY: EmergencyControls = { readOnly: false, disableHighImpact: false, blockedTools: [] };

export interface AccountPolicyText {
  text: string;
  updatedAt: number;
}

export class HubSettings {
  private readonly sql: SqlStorage;
  /**
   * Values read once (every decision reads the emergency controls and the policy); a write drops its key
   * rather than storing the new value, so a rolled-back transaction cannot leave a value that never landed.
   */
  private readonly values = new Map<string, string | undefined>();

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  private get(key: string): string | undefined {
    if (this.values.has(key)) return this.values.get(key);
    const value = this.sql
      .exec<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, key)
      .toArray()[0]?.value;
    this.values.set(key, value);
    return value;
  }

  /** Forgets what it read (after SQLite was written other than through this class). */
  forget(): void {
    this.values.clear();
  }

  private set(key: string, value: string): void {
    this.values.delete(key);
    this.sql.exec(
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      value,
    );
  }

  emergency(): EmergencyControls {
    const raw = this.get("emergency");
    if (!raw) return NO_EMERGENCY;
    const parsed = EmergencyControls.safeParse(JSON.parse(raw));
    // A corrupt row must not silently lift controls: fail closed to read-only.
    return parsed.success ? parsed.data : { readOnly: true, disableHighImpact: true, blockedTools: [] };
  }

  setEmergency(controls: EmergencyControls): void {
    this.set("emergency", JSON.stringify(controls));
  }

  accountPolicy(): AccountPolicyText | undefined {
    const raw = this.get("account_policy");
    if (!raw) return undefined;
    const parsed = StoredPolicy.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  setAccountPolicy(text: string, now: number): void {
    this.set("account_policy", JSON.stringify({ text, updatedAt: now }));
  }

  promptTimeoutMs(fallback: number): number {
    const raw = Number(this.get("prompt_timeout_ms"));
    return Number.isFinite(raw) && raw > 0 ? raw : fallback;
  }

  setPromptTimeoutMs(ms: number): void {
    this.set("prompt_timeout_ms", String(ms));
  }
}
