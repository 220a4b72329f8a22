// D1 tables (drizzle). Migrations in migrations/ are generated from this file by `npm run db:generate`.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  role: text("role", { enum: ["owner", "member"] }).notNull(),
  createdAt: integer("created_at").notNull(),
  /** HMAC of the recovery code (shown once at bootstrap or rotation); it mints approver pairing codes. */
  recoveryHash: text("recovery_hash"),
  recoveryCreatedAt: integer("recovery_created_at"),
});

export const devices = sqliteTable(
  "devices",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["companion", "browser"] }).notNull(),
    /** Authority (src/protocol/roles.ts): set from the pairing code, never from the request. */
    role: text("role", { enum: ["companion", "approver"] })
      .notNull()
      .default("companion"),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("devices_user_idx").on(t.userId)],
);

/** Only the HMAC of a token's secret is stored; the token id is its public half. */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    deviceId: text("device_id")
      .notNull()
      .references(() => devices.id),
    secretHash: text("secret_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("auth_tokens_device_idx").on(t.deviceId)],
);

/**
 * Codes are stored as an HMAC and carry the role they grant. `bucket` (0–99, from the code's HMAC, unique
 * among live codes) attributes a wrong guess to at most one live code, so `failedAttempts` locks only the
 * code a guess landed on, never every code at once.
 */
export const pairingCodes = sqliteTable(
  "pairing_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    codeHash: text("code_hash").notNull(),
    role: text("role", { enum: ["companion", "approver"] })
      .notNull()
      .default("companion"),
    bucket: integer("bucket").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
  },
  (t) => [index("pairing_codes_expires_idx").on(t.expiresAt)],
);

/** Failed pairing attempts per client (hashed address) in a sliding window, for lockout. */
export const pairingAttempts = sqliteTable("pairing_attempts", {
  clientHash: text("client_hash").primaryKey(),
  failures: integer("failures").notNull(),
  windowStart: integer("window_start").notNull(),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    at: integer("at").notNull(),
    userId: text("user_id"),
    deviceId: text("device_id"),
    actor: text("actor").notNull(),
    event: text("event").notNull(),
    target: text("target"),
    /** Agent and decision are columns (not only in details) so audit queries can filter on them. */
    agentId: text("agent_id"),
    decision: text("decision"),
    /** JSON, redacted before it is written. */
    details: text("details").notNull(),
  },
  (t) => [index("audit_user_at_idx").on(t.userId, t.at), index("audit_event_idx").on(t.event)],
);

/**
 * Persisted grants from allow_always / deny_always: (user, agent, capability, scope pattern, version range).
 * A null scope pattern covers the whole capability; a null version range covers every version.
 */
export const grants = sqliteTable(
  "grants",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    agentId: text("agent_id").notNull(),
    capability: text("capability").notNull(),
    scopePattern: text("scope_pattern"),
    versionRange: text("version_range"),
    effect: text("effect", { enum: ["allow", "deny"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    createdByDevice: text("created_by_device"),
    promptId: text("prompt_id"),
  },
  (t) => [index("grants_user_agent_idx").on(t.userId, t.agentId, t.capability)],
);
