// UserHub's SQLite schema, created in the constructor behind a schema-version row.
const migrations: string[][] = [
  [`CREATE TABLE IF NOT EXISTS hub_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`],
  [
    // A prompt is open from creation (batching for 250 ms before it is announced) until resolved.
    `CREATE TABLE prompts (
      id TEXT PRIMARY KEY,
      prompt_key TEXT NOT NULL,
      status TEXT NOT NULL,
      agent TEXT NOT NULL,
      capability TEXT NOT NULL,
      risk TEXT NOT NULL,
      method TEXT NOT NULL,
      scope_group TEXT NOT NULL,
      justification TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      opens_at INTEGER NOT NULL,
      announced INTEGER NOT NULL DEFAULT 0,
      expires_at INTEGER NOT NULL,
      timeout_ms INTEGER NOT NULL,
      resolution TEXT,
      resolved_at INTEGER,
      decided_by_actor TEXT,
      decided_by_device TEXT
    )`,
    `CREATE INDEX prompts_key_status ON prompts (prompt_key, status)`,
    `CREATE INDEX prompts_status_expires ON prompts (status, expires_at)`,
    // Calls keep only the redacted scope and its hash, never the raw tool input.
    `CREATE TABLE calls (
      call_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      agent_version TEXT,
      device_id TEXT,
      prompt_id TEXT,
      tool TEXT NOT NULL,
      capability TEXT NOT NULL,
      risk TEXT NOT NULL,
      scope_kind TEXT NOT NULL,
      scope_summary TEXT NOT NULL,
      scope_group TEXT NOT NULL,
      scope_hash TEXT NOT NULL,
      status TEXT NOT NULL,
      decision TEXT,
      reason TEXT,
      source TEXT,
      rule TEXT,
      created_at INTEGER NOT NULL,
      decided_at INTEGER
    )`,
    `CREATE INDEX calls_prompt ON calls (prompt_id)`,
    `CREATE INDEX calls_created ON calls (created_at)`,
    `CREATE TABLE session_grants (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      capability TEXT NOT NULL,
      scope_pattern TEXT,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER NOT NULL
    )`,
    `CREATE INDEX session_grants_session ON session_grants (session_id, agent_id, capability)`,
    `CREATE TABLE confirmations (
      token_hash TEXT PRIMARY KEY,
      prompt_id TEXT NOT NULL,
      scopes_hash TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    )`,
    `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  ],
  // The card lists every call of a batch with its working directory and the agent's own description.
  [`ALTER TABLE calls ADD COLUMN cwd TEXT`, `ALTER TABLE calls ADD COLUMN description TEXT`],
];

export function migrateHubStorage(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS hub_schema (version INTEGER NOT NULL)`);
  const row = sql.exec<{ version: number }>(`SELECT version FROM hub_schema LIMIT 1`).toArray()[0];
  let version = row?.version ?? 0;
  if (!row) sql.exec(`INSERT INTO hub_schema (version) VALUES (0)`);
  for (; version < migrations.length; version++) {
    for (const statement of migrations[version] ?? []) sql.exec(statement);
    sql.exec(`UPDATE hub_schema SET version = ?`, version + 1);
  }
}
