// SQL access to the answers held for their undo window (one per prompt; held-decisions.ts holds, undoes and
// commits them). Apart from UndoWindows so the hub's context can own the store without importing the resolver.
import type { PromptDecision } from "../../protocol/capability.ts";
import { insertRow } from "./call-store.ts";

export interface HeldRow {
  prompt_id: string;
  decision: PromptDecision;
  pattern: string | null;
  note: string | null;
  /** The waiting calls as the person saw them; the commit is refused if they changed. */
  fingerprint: string;
  actor: string;
  device_id: string | null;
  commit_at: number;
  created_at: number;
}

type Row = Record<string, SqlStorageValue>;

/** SQL access to the held answers (one per prompt). */
export class HeldStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  private all(query: string, ...bindings: SqlStorageValue[]): HeldRow[] {
    return this.sql.exec<Row>(query, ...bindings).toArray() as unknown as HeldRow[];
  }

  get(promptId: string): HeldRow | undefined {
    return this.all(`SELECT * FROM held_decisions WHERE prompt_id = ?`, promptId)[0];
  }

  insert(row: HeldRow): void {
    insertRow(this.sql, "held_decisions", { ...row });
  }

  /** False when nothing was held for the prompt (never held, undone, or settled already). */
  remove(promptId: string): boolean {
    return this.sql.exec(`DELETE FROM held_decisions WHERE prompt_id = ?`, promptId).rowsWritten > 0;
  }

  due(now: number): HeldRow[] {
    return this.all(`SELECT * FROM held_decisions WHERE commit_at <= ? ORDER BY commit_at`, now);
  }

  next(): number | null {
    return (
      this.sql.exec<{ next: number | null }>(`SELECT MIN(commit_at) AS next FROM held_decisions`).toArray()[0]
        ?.next ?? null
    );
  }
}
