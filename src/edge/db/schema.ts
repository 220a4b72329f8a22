// D1 tables (drizzle). Migrations in migrations/ are generated from this file by `npm run db:generate`.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
  // Every read of the audit is one user's (GET /v1/audit, policy stats): (user, at) serves them all. An index
  // on `event` alone was never chosen by a plan yet cost one more D1 row written per audit row (docs/scale.md).
  (t) => [index("audit_user_at_idx").on(t.userId, t.at)],
);

/**
 * Persisted grants from allow_always / deny_always: (user, agent, capability, match, scope, version range).
 * `exact` grants cover the one judged unit whose sha256 is `scopeHash` (`scopePattern` is its redacted
 * display); `prefix` grants a wider pattern the person picked on the card; `legacy` rows predate exact
 * grants and only their denies still count. A null version range covers every version (always for deny).
 * The user's UserHub is the only writer and reader (agent, proposal and connector grants alike); it mirrors
 * its own copy here through its outbox. `last_used_at` lives in the hub only.
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
    match: text("match", { enum: ["exact", "prefix", "legacy"] })
      .notNull()
      .default("legacy"),
    scopePattern: text("scope_pattern"),
    scopeHash: text("scope_hash"),
    versionRange: text("version_range"),
    effect: text("effect", { enum: ["allow", "deny"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    createdByDevice: text("created_by_device"),
    promptId: text("prompt_id"),
    /** Proposal grants only (agent "conveyor"): the risk class and identity the card showed; null before 0007. */
    riskClass: text("risk_class", { enum: ["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"] }),
    identity: text("identity", { enum: ["user", "bot"] }),
  },
  (t) => [index("grants_user_agent_idx").on(t.userId, t.agentId, t.capability)],
);

// ---- the side-effect conveyor (src/edge/conveyor, docs/conveyor.md) ----

/**
 * Proposed side effects: `PENDING → APPROVED | REJECTED | EXPIRED → EXECUTED | FAILED | PARTIAL`.
 * One proposal per (user, tool, idempotency key); `args` is the validated input, never a secret (tools
 * refuse credential-shaped fields), `summary` the backend-rendered what/where/impact as JSON.
 */
export const proposedActions = sqliteTable(
  "proposed_actions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    tool: text("tool").notNull(),
    identity: text("identity", { enum: ["user", "bot"] }).notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    argsHash: text("args_hash").notNull(),
    args: text("args").notNull(),
    riskClass: text("risk_class").notNull(),
    justification: text("justification").notNull(),
    summary: text("summary").notNull(),
    sourceKind: text("source_kind", {
      enum: ["job", "webhook", "api", "companion", "schedule", "chat", "mcp"],
    }).notNull(),
    sourceRef: text("source_ref"),
    state: text("state", {
      enum: ["PENDING", "APPROVED", "REJECTED", "EXPIRED", "EXECUTED", "FAILED", "PARTIAL"],
    }).notNull(),
    /** Why it needs a person: `ask`, `ask_confirm` (HIGH), or `none` when policy or a grant allowed it. */
    gate: text("gate").notNull(),
    /** The gate's reason, shown on the card: why a person must decide ("this thread read https://… earlier"). */
    gateReason: text("gate_reason"),
    promptId: text("prompt_id"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    decidedAt: integer("decided_at"),
    decidedBy: text("decided_by"),
    finishedAt: integer("finished_at"),
    /** The execution envelope (redacted JSON) once it ran. */
    envelope: text("envelope"),
    createdByDevice: text("created_by_device"),
  },
  (t) => [
    uniqueIndex("proposed_actions_key_idx").on(t.userId, t.tool, t.idempotencyKey),
    index("proposed_actions_state_idx").on(t.userId, t.state, t.createdAt),
    index("proposed_actions_expiry_idx").on(t.state, t.expiresAt),
  ],
);

/**
 * The executor's idempotency records: one per (owner, tool, key). `state` walks
 * `claimed → dispatched → executed | failed`; a claim whose lease ran out was a crash, recovered by the
 * next attempt (re-run only if the tool is idempotent downstream or never dispatched).
 */
export const idempotency = sqliteTable(
  "idempotency",
  {
    ownerId: text("owner_id").notNull(),
    toolName: text("tool_name").notNull(),
    key: text("key").notNull(),
    argsHash: text("args_hash").notNull(),
    state: text("state", { enum: ["claimed", "dispatched", "executed", "failed"] }).notNull(),
    attempt: integer("attempt").notNull(),
    leaseUntil: integer("lease_until").notNull(),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    /** The execution envelope, redacted JSON; `resultHash` is SHA-256 of it. */
    result: text("result"),
    resultHash: text("result_hash"),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.toolName, t.key] })],
);

/** Webhook triggers. Secrets are stored AES-GCM encrypted (HMAC needs the secret itself, so no hash). */
export const hooks = sqliteTable(
  "hooks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** JSON of the configured action, or null: record verified deliveries only. */
    action: text("action"),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, valid until `previousUntil`. */
    previousSecret: text("previous_secret"),
    previousUntil: integer("previous_until"),
    createdAt: integer("created_at").notNull(),
    rotatedAt: integer("rotated_at"),
    deletedAt: integer("deleted_at"),
    createdByDevice: text("created_by_device"),
  },
  (t) => [index("hooks_user_idx").on(t.userId)],
);

/** Verified deliveries by `webhook-id`: a replayed id is refused, whatever its signature. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    hookId: text("hook_id").notNull(),
    webhookId: text("webhook_id").notNull(),
    receivedAt: integer("received_at").notNull(),
    payloadHash: text("payload_hash").notNull(),
    proposalId: text("proposal_id"),
  },
  (t) => [
    primaryKey({ columns: [t.hookId, t.webhookId] }),
    index("webhook_deliveries_at_idx").on(t.receivedAt),
  ],
);

/** memory.note: short durable notes. */
export const memoryNotes = sqliteTable(
  "memory_notes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    topic: text("topic").notNull(),
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull(),
    proposalId: text("proposal_id"),
  },
  (t) => [index("memory_notes_user_idx").on(t.userId, t.topic, t.createdAt)],
);

/** artifact.put: named text artifacts (reports, fetched pages), size-bounded. */
export const artifacts = sqliteTable(
  "artifacts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    content: text("content").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: integer("created_at").notNull(),
    proposalId: text("proposal_id"),
  },
  (t) => [index("artifacts_user_idx").on(t.userId, t.createdAt)],
);

/** In-app notifications (the notify tool); the dashboard receives them live and lists them. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
    readAt: integer("read_at"),
    proposalId: text("proposal_id"),
    /** `intervention` (something waits for the person) or `proactive` (a report). */
    kind: text("kind", { enum: ["intervention", "proactive"] })
      .notNull()
      .default("proactive"),
    jobId: text("job_id"),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.createdAt)],
);

// ---- the dashboard: Web Push and passkeys (docs/dashboard.md) ----

/**
 * The server's VAPID key pair for Web Push, made on first use when no `VAPID_*` secrets are set. The private key is
 * stored only encrypted (AES-GCM under a key derived from TOKEN_PEPPER).
 */
export const pushKeys = sqliteTable("push_keys", {
  id: text("id").primaryKey(),
  publicKey: text("public_key").notNull(),
  privateKeyEnc: text("private_key_enc").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** One Web Push subscription per approver browser (endpoint unique); `lastSentAt` drives the rate limit. */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    deviceId: text("device_id")
      .notNull()
      .references(() => devices.id),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSentAt: integer("last_sent_at"),
    /** Sends in the current hour window, for the hourly cap. */
    hourStart: integer("hour_start"),
    hourCount: integer("hour_count").notNull().default(0),
    failures: integer("failures").notNull().default(0),
  },
  (t) => [index("push_subscriptions_user_idx").on(t.userId)],
);

/** WebAuthn credentials (passkeys) of a user; the public key is COSE, base64url. */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    deviceId: text("device_id"),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull(),
    transports: text("transports"),
    /** The RP ID it was registered for (a passkey signs only for it); null for passkeys saved before hosts were kept. */
    rpId: text("rp_id"),
    /** The origin it was registered on, to tell a person on another host where it works. */
    origin: text("origin"),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * Single-use WebAuthn challenges (registration or step-up) and the step-up tokens a verified assertion yields.
 * Only hashes of step-up tokens are kept.
 */
export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  id: text("id").primaryKey(),
  userId: text("user_id").notNull(),
  deviceId: text("device_id").notNull(),
  purpose: text("purpose", { enum: ["register", "step_up"] }).notNull(),
  challenge: text("challenge").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

export const stepUps = sqliteTable("step_ups", {
  tokenHash: text("token_hash").primaryKey(),
  userId: text("user_id").notNull(),
  deviceId: text("device_id").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

// ---- the hosted runtime (src/edge/runtime, docs/runtime.md) ----

/** Chat threads; a job's conversation is a thread too (`jobId`). */
export const threads = sqliteTable(
  "threads",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    jobId: text("job_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("threads_user_idx").on(t.userId, t.updatedAt)],
);

/**
 * A thread's transcript in OpenAI chat order: user, assistant (with `toolCalls` JSON), tool results.
 * Ids of messages a turn writes are derived from the turn, so a resumed turn never writes one twice.
 * `content` is bounded (MAX_MESSAGE_CHARS); `untrusted` marks web and webhook content.
 */
export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    threadId: text("thread_id").notNull(),
    userId: text("user_id").notNull(),
    seq: integer("seq").notNull(),
    role: text("role", { enum: ["user", "assistant", "tool"] }).notNull(),
    content: text("content").notNull(),
    turnId: text("turn_id"),
    toolCalls: text("tool_calls"),
    toolCallId: text("tool_call_id"),
    toolName: text("tool_name"),
    untrusted: integer("untrusted", { mode: "boolean" }).notNull().default(false),
    clientMessageId: text("client_message_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("messages_thread_seq_idx").on(t.threadId, t.seq),
    uniqueIndex("messages_client_idx").on(t.threadId, t.clientMessageId),
    index("messages_created_idx").on(t.createdAt),
  ],
);

/**
 * One turn per trigger (a chat message, a job), id derived from the trigger. The checkpoint: which steps
 * are planned and acted (turn_steps), whether untrusted content was read, and the terminal state.
 */
export const turns = sqliteTable(
  "turns",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    threadId: text("thread_id").notNull(),
    jobId: text("job_id"),
    kind: text("kind", { enum: ["chat", "job"] }).notNull(),
    state: text("state", {
      enum: ["queued", "running", "waiting", "succeeded", "failed", "partial", "cancelled"],
    }).notNull(),
    /** JSON Budgets, complete (defaults applied). */
    budgets: text("budgets").notNull(),
    /** The turn read web or webhook content (seed 003 §8 rule 5). */
    tainted: integer("tainted", { mode: "boolean" }).notNull().default(false),
    /** JSON RuntimeError once failed or cancelled. */
    error: text("error"),
    result: text("result"),
    /** JSON VerifiedOutcome once it finished with a final message: derived from what it did, not said. */
    outcome: text("outcome"),
    /** The message that started the turn (a chat message, a job's instructions): the window must hold it. */
    triggerMessageId: text("trigger_message_id").notNull(),
    cancelRequestedAt: integer("cancel_requested_at"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("turns_thread_idx").on(t.threadId, t.state), index("turns_job_idx").on(t.jobId)],
);

/** A turn's checkpoint per step: the validated plan (first writer wins) and each call's result as it lands. */
export const turnSteps = sqliteTable(
  "turn_steps",
  {
    turnId: text("turn_id").notNull(),
    idx: integer("idx").notNull(),
    /** JSON PlanRecord: planner output, call ids, model, attempt, usage. */
    plan: text("plan").notNull(),
    /** JSON array of StepCall results, by call position. */
    calls: text("calls").notNull().default("[]"),
    status: text("status", { enum: ["planned", "waiting", "done"] }).notNull(),
    /** Calls the plan makes; 0 for the final answer (which is no tool step). */
    callCount: integer("call_count").notNull(),
    tokensIn: integer("tokens_in").notNull(),
    tokensOut: integer("tokens_out").notNull(),
    toolTokens: integer("tool_tokens").notNull().default(0),
    workMs: integer("work_ms").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.idx] }), index("turn_steps_created_idx").on(t.createdAt)],
);

/** Model usage that produced no step (invalid answers, a final answer), so spend counts every call. */
export const turnCalls = sqliteTable(
  "turn_calls",
  {
    id: text("id").primaryKey(),
    turnId: text("turn_id").notNull(),
    idx: integer("idx").notNull(),
    model: text("model").notNull(),
    outcome: text("outcome").notNull(),
    tokensIn: integer("tokens_in").notNull(),
    tokensOut: integer("tokens_out").notNull(),
    costUsd: real("cost_usd").notNull(),
    workMs: integer("work_ms").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("turn_calls_turn_idx").on(t.turnId)],
);

/** Which turn proposed which proposal, so its settlement wakes that turn's workflow. */
export const turnProposals = sqliteTable(
  "turn_proposals",
  {
    proposalId: text("proposal_id").primaryKey(),
    turnId: text("turn_id").notNull(),
    idx: integer("idx").notNull(),
    position: integer("position").notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [index("turn_proposals_turn_idx").on(t.turnId)],
);

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    instructions: text("instructions").notNull(),
    triggerKind: text("trigger_kind", { enum: ["api", "schedule", "webhook"] }).notNull(),
    triggerRef: text("trigger_ref"),
    threadId: text("thread_id").notNull(),
    turnId: text("turn_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("jobs_user_idx").on(t.userId, t.createdAt)],
);

export const schedules = sqliteTable(
  "schedules",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["cron", "interval", "at"] }).notNull(),
    cron: text("cron"),
    everySeconds: integer("every_seconds"),
    /** `at` as given, and as a UTC instant. */
    atText: text("at_text"),
    atMs: integer("at_ms"),
    timezone: text("timezone").notNull(),
    /** Interval schedules run at anchor + k × every_seconds. */
    anchorAt: integer("anchor_at").notNull(),
    task: text("task").notNull(),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    /** UTC ms; null when paused or finished. Advanced only by the wakeup it names (guarded update). */
    nextRunAt: integer("next_run_at"),
    lastRunAt: integer("last_run_at"),
    lastJobId: text("last_job_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("schedules_user_idx").on(t.userId), index("schedules_next_idx").on(t.nextRunAt)],
);

/** One row per (schedule, due time): the claim that makes a wakeup start at most one job. */
export const wakeupEvents = sqliteTable(
  "wakeup_events",
  {
    scheduleId: text("schedule_id").notNull(),
    dueAt: integer("due_at").notNull(),
    userId: text("user_id").notNull(),
    /** `scheduled`, `catch_up` (a missed one made up), `manual` (run-now), `skipped` (too old). */
    kind: text("kind", { enum: ["scheduled", "catch_up", "manual", "skipped"] }).notNull(),
    /** Missed occurrences this one stands for (catch-up rule). */
    skipped: integer("skipped").notNull().default(0),
    jobId: text("job_id"),
    firedAt: integer("fired_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.dueAt] }), index("wakeup_events_fired_idx").on(t.firedAt)],
);

/** What each retention sweep removed (rows per table), kept as the record of deletion. */
export const retentionRuns = sqliteTable("retention_runs", {
  id: text("id").primaryKey(),
  startedAt: integer("started_at").notNull(),
  finishedAt: integer("finished_at").notNull(),
  /** JSON: {table: rows removed}, and the cutoffs used. */
  removed: text("removed").notNull(),
});

/**
 * Targets the person declared idempotent (they honour Idempotency-Key): after a crash mid-dispatch the
 * executor may send to them again instead of marking the run PARTIAL (docs/conveyor.md).
 */
export const idempotentTargets = sqliteTable(
  "idempotent_targets",
  {
    userId: text("user_id").notNull(),
    tool: text("tool").notNull(),
    /** What the tool calls its target (http.request: the URL's host). */
    target: text("target").notNull(),
    createdAt: integer("created_at").notNull(),
    createdByDevice: text("created_by_device"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tool, t.target] })],
);

// ---- connections (src/edge/connectors, docs/connectors.md) ----

/**
 * One OAuth connection per (user, provider, identity): Pincer's `oauth_tokens`. Tokens are sealed with AES-GCM
 * under the key `keyId` names (AIRLOCK_OAUTH_KEYS), bound to the row id; nothing here is readable without it.
 * `version` moves on every token write, so two refreshes racing cannot both store (the loser re-reads).
 */
export const oauthTokens = sqliteTable(
  "oauth_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider", { enum: ["google", "github"] }).notNull(),
    identity: text("identity", { enum: ["user", "bot"] }).notNull(),
    account: text("account").notNull(),
    /** JSON array of the scopes the provider granted. */
    scopes: text("scopes").notNull(),
    keyId: text("key_id").notNull(),
    accessTokenSealed: text("access_token_sealed").notNull(),
    refreshTokenSealed: text("refresh_token_sealed"),
    /** When the access token stops working; null when the provider issues tokens that do not expire. */
    accessExpiresAt: integer("access_expires_at"),
    status: text("status", { enum: ["active", "broken"] })
      .notNull()
      .default("active"),
    version: integer("version").notNull().default(1),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    lastRefreshedAt: integer("last_refreshed_at"),
  },
  (t) => [uniqueIndex("oauth_tokens_owner_idx").on(t.userId, t.provider, t.identity)],
);

/**
 * Authorizations under way: single use (the callback deletes the row it reads), ten minutes at most. Only hashes
 * of `state` and of the browser binding cookie are kept; the PKCE verifier is sealed like a token.
 */
export const oauthStates = sqliteTable(
  "oauth_states",
  {
    stateHash: text("state_hash").primaryKey(),
    userId: text("user_id").notNull(),
    deviceId: text("device_id").notNull(),
    tokenId: text("token_id").notNull(),
    provider: text("provider", { enum: ["google", "github"] }).notNull(),
    identity: text("identity", { enum: ["user", "bot"] }).notNull(),
    /** JSON array of the scopes asked for. */
    scopes: text("scopes").notNull(),
    bindingHash: text("binding_hash").notNull(),
    keyId: text("key_id").notNull(),
    verifierSealed: text("verifier_sealed").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("oauth_states_expiry_idx").on(t.expiresAt)],
);
