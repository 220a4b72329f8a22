// The latest precognition stats each companion device reported, kept in the hub's settings table (counts only).
import { DeviceFuturesStats, type FuturesStats } from "../../protocol/futures.ts";

const PREFIX = "futures_stats:";
/** A user with more companions than this keeps only the most recent reports. */
const MAX_DEVICES = 50;

export type StoredFuturesStats = DeviceFuturesStats;

export class HubFuturesStats {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  put(deviceId: string, stats: FuturesStats, now: Date): void {
    const row: StoredFuturesStats = { deviceId, receivedAt: now.toISOString(), stats };
    this.sql.exec(
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      `${PREFIX}${deviceId}`,
      JSON.stringify(row),
    );
    const all = this.list();
    for (const stale of all.slice(MAX_DEVICES))
      this.sql.exec(`DELETE FROM settings WHERE key = ?`, `${PREFIX}${stale.deviceId}`);
  }

  /** Newest first; a row that no longer parses is skipped (it is only telemetry). */
  list(): StoredFuturesStats[] {
    const rows = this.sql
      .exec<{ value: string }>(`SELECT value FROM settings WHERE key LIKE ?`, `${PREFIX}%`)
      .toArray();
    const out: StoredFuturesStats[] = [];
    for (const { value } of rows) {
      try {
        const row = DeviceFuturesStats.safeParse(JSON.parse(value));
        if (row.success) out.push(row.data);
      } catch {
        // skipped
      }
    }
    return out.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
  }
}
