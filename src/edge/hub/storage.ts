// UserHub's SQLite schema, created in the constructor behind a schema-version row.
const migrations: string[][] = [
  [`CREATE TABLE IF NOT EXISTS hub_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`],
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
