// Confirmation tokens for high-risk approvals: short-lived, single use, bound to a prompt and its scopes.
import { CONFIRMATION_TTL_MS, confirmationExpiresAt } from "../../policy/deadlines.ts";
import { base64url, randomBytes, sha256Hex } from "../auth/crypto.ts";

export type ConfirmationCheck =
  | "ok"
  | "missing"
  | "unknown"
  | "expired"
  | "used"
  | "wrong_prompt"
  | "scopes_changed";

export class Confirmations {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  async issue(
    promptId: string,
    scopesHash: string,
    now: number,
  ): Promise<{ token: string; expiresAt: number }> {
    const token = `cfm_${base64url(randomBytes(24))}`;
    const expiresAt = confirmationExpiresAt(now);
    this.sql.exec(
      `INSERT INTO confirmations (token_hash, prompt_id, scopes_hash, expires_at) VALUES (?, ?, ?, ?)`,
      await sha256Hex(token),
      promptId,
      scopesHash,
      expiresAt,
    );
    return { token, expiresAt };
  }

  /** Checks and, when valid, consumes the token: it can never approve twice. */
  async consume(
    token: string | undefined,
    promptId: string,
    scopesHash: string,
    now: number,
  ): Promise<ConfirmationCheck> {
    if (!token) return "missing";
    const hash = await sha256Hex(token);
    const row = this.sql
      .exec<{ prompt_id: string; scopes_hash: string; expires_at: number; used_at: number | null }>(
        `SELECT prompt_id, scopes_hash, expires_at, used_at FROM confirmations WHERE token_hash = ?`,
        hash,
      )
      .toArray()[0];
    if (!row) return "unknown";
    if (row.used_at !== null) return "used";
    if (row.prompt_id !== promptId) return "wrong_prompt";
    if (row.expires_at <= now) return "expired";
    if (row.scopes_hash !== scopesHash) return "scopes_changed";
    const cursor = this.sql.exec(
      `UPDATE confirmations SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`,
      now,
      hash,
    );
    return cursor.rowsWritten > 0 ? "ok" : "used";
  }

  prune(now: number): void {
    this.sql.exec(`DELETE FROM confirmations WHERE expires_at < ?`, now - CONFIRMATION_TTL_MS);
  }
}
