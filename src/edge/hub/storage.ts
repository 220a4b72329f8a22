// UserHub's SQLite schema, created in the constructor behind a schema-version row.
const migrations: string[][] = [
  [`CREATE TABLE IF NOT EXISTS hub_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`],
  [
    // A prompt is open from creation (announced at once; same-key calls join it for the batch window) until resolved.
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
  [
    // A call_id is bound to its call: the fingerprint of (session, agent, device, tool, input, cwd).
    `ALTER TABLE calls ADD COLUMN fingerprint TEXT`,
    // The call's grant units (hashes, redacted displays, offered patterns), never its raw input.
    `ALTER TABLE calls ADD COLUMN units TEXT`,
    // Who holds a pending call: 'socket' (its device's socket), 'wait' (a waiting POST), 'poll' (?wait=false).
    `ALTER TABLE calls ADD COLUMN holder TEXT`,
    // When an unrenewed hold lapses and the call is abandoned; null: held until its prompt expires.
    `ALTER TABLE calls ADD COLUMN held_until INTEGER`,
    `ALTER TABLE calls ADD COLUMN resolution TEXT`,
    `ALTER TABLE calls ADD COLUMN grants TEXT`,
    `CREATE INDEX calls_held ON calls (status, held_until)`,
    `CREATE INDEX calls_device_pending ON calls (device_id, status)`,
    // The schedule reads the oldest decided call (retention) on every arm: keep that an index lookup.
    `CREATE INDEX calls_decided ON calls (status, decided_at)`,
    `ALTER TABLE prompts ADD COLUMN join_until INTEGER NOT NULL DEFAULT 0`,
    // Writes bound for D1 (audit, grants), committed in the same transaction as the hub state they follow.
    `CREATE TABLE outbox (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      payload TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      last_error TEXT
    )`,
    `CREATE INDEX outbox_next ON outbox (next_attempt_at)`,
    // The hub's own copy of the user's saved grants (it is their only writer); D1 mirrors it through the outbox.
    `CREATE TABLE grants (
      id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL,
      capability TEXT NOT NULL,
      match TEXT NOT NULL,
      scope_pattern TEXT,
      scope_hash TEXT,
      version_range TEXT,
      effect TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      created_by_device TEXT,
      prompt_id TEXT
    )`,
    // Session grants were keyed by scope group (wider than what the person saw): start afresh, exact.
    `DROP TABLE session_grants`,
    `CREATE TABLE session_grants (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      capability TEXT NOT NULL,
      match TEXT NOT NULL,
      scope_pattern TEXT,
      scope_hash TEXT,
      effect TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER NOT NULL
    )`,
    `CREATE INDEX session_grants_session ON session_grants (session_id, agent_id)`,
  ],
  // The card shows the call as it will run (redacted, controls visible, up to 8 KiB), not only its summary.
  [`ALTER TABLE calls ADD COLUMN shown_text TEXT`, `ALTER TABLE calls ADD COLUMN shown_chars INTEGER`],
  // Fresh outbox rows are read in order without scanning the table (see Outbox.drainBatch).
  [`CREATE INDEX outbox_fresh ON outbox (attempts, created_at, id)`],
  // Due retries are found without walking the fresh rows, which are also "due" after the safety delay.
  [`CREATE INDEX outbox_retry ON outbox (next_attempt_at) WHERE attempts > 0`],
  // One store for every saved grant: proposal grants name their risk class and identity (issue 22), and
  // every grant remembers when it last covered something (the Grants view shows it).
  [
    `ALTER TABLE grants ADD COLUMN risk_class TEXT`,
    `ALTER TABLE grants ADD COLUMN identity TEXT`,
    `ALTER TABLE grants ADD COLUMN last_used_at INTEGER`,
    `ALTER TABLE session_grants ADD COLUMN prompt_id TEXT`,
    `ALTER TABLE session_grants ADD COLUMN created_by_device TEXT`,
  ],
  // Why a call went to a person (src/policy/ask-reason.ts): the stats count asks by it (issue 21).
  [`ALTER TABLE calls ADD COLUMN ask_reason TEXT`],
  // An answer with an undo window waits here until its commit-at time (held-decisions.ts; issue 25).
  [
    `CREATE TABLE held_decisions (
      prompt_id TEXT PRIMARY KEY,
      decision TEXT NOT NULL,
      pattern TEXT,
      note TEXT,
      fingerprint TEXT NOT NULL,
      actor TEXT NOT NULL,
      device_id TEXT,
      commit_at INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    )`,
    `CREATE INDEX held_decisions_commit ON held_decisions (commit_at)`,
  ],
  // A prompt says what it asks about: an agent's calls or a proposal (whose row is in proposal_prompts, created
  // before these migrations run; see UserHub's constructor), instead of each reader looking for a proposal.
  [
    `ALTER TABLE prompts ADD COLUMN kind TEXT NOT NULL DEFAULT 'calls'`,
    `UPDATE prompts SET kind = 'proposal' WHERE id IN (SELECT prompt_id FROM proposal_prompts)`,
  ],
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
