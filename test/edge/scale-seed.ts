// Bulk seeding for the scale simulator (bench/scale/sim.mjs), test-only: N users with what a user of some months
// has in D1 (an approver and a companion device with their tokens, the grant the decisions hit, and history:
// audit rows, finished proposals, jobs with their threads and turns), so every lookup the simulated users make
// runs against tables holding all N users' rows. Written straight to the raw D1 binding: seeding is not counted.
import { z } from "zod";

const SeedUser = z.object({
  user_id: z.string().regex(/^usr_[A-Za-z0-9_]+$/),
  phone: z.object({ token_id: z.string(), secret_hash: z.string() }),
  companion: z.object({ token_id: z.string(), secret_hash: z.string() }),
});
export const SeedRequest = z.object({
  users: z.array(SeedUser).min(1).max(2_000),
  /** History rows per user, spread over the last 90 days. */
  audit: z.number().int().min(0).max(2_000),
  proposals: z.number().int().min(0).max(500),
  jobs: z.number().int().min(0).max(500),
});

const DAY = 86_400_000;
/** Statements per D1 batch. */
const CHUNK = 200;

export async function seed(db: D1Database, body: unknown): Promise<{ users: number; rows: number }> {
  const req = SeedRequest.parse(body);
  const now = Date.now();
  const expires = now + 30 * DAY;
  const statements: D1PreparedStatement[] = [];
  for (const u of req.users) {
    const phone = `dev_${u.user_id}_p`;
    const comp = `dev_${u.user_id}_c`;
    statements.push(
      db
        .prepare(`INSERT INTO users (id, name, role, created_at) VALUES (?, 'scale', 'member', ?)`)
        .bind(u.user_id, now - 90 * DAY),
      db
        .prepare(
          `INSERT INTO devices (id, user_id, name, kind, role, created_at) VALUES (?, ?, 'phone', 'browser', 'approver', ?), (?, ?, 'companion', 'companion', 'companion', ?)`,
        )
        .bind(phone, u.user_id, now, comp, u.user_id, now),
      db
        .prepare(
          `INSERT INTO auth_tokens (id, user_id, device_id, secret_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          u.phone.token_id,
          u.user_id,
          phone,
          u.phone.secret_hash,
          now,
          expires,
          u.companion.token_id,
          u.user_id,
          comp,
          u.companion.secret_hash,
          now,
          expires,
        ),
      // The grant the simulated decisions hit: what the card's "always, /work/repo/src/**" answer saves.
      db
        .prepare(
          `INSERT INTO grants (id, user_id, agent_id, capability, match, scope_pattern, version_range, effect, created_at, created_by_device) VALUES (?, ?, 'scale-agent', 'read', 'prefix', '/work/repo/src/**', '~1.0.0', 'allow', ?, ?)`,
        )
        .bind(`grt_${u.user_id}`, u.user_id, now, phone),
    );
  }
  const ids = JSON.stringify(req.users.map((u) => u.user_id));
  // History: each user's rows, ages spread over 90 days (one statement per table, all users at once).
  const history = (count: number, insert: string) =>
    db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
         ${insert} FROM json_each(?1) AS u CROSS JOIN n`,
      )
      .bind(ids, count, now, DAY);
  const at = `(?3 - (n.i * 90 * ?4) / ?2)`;
  const tail: D1PreparedStatement[] = [];
  if (req.audit > 0)
    tail.push(
      history(
        req.audit,
        `INSERT INTO audit_log (id, at, user_id, device_id, actor, event, target, agent_id, decision, details)
         SELECT 'aud_' || u.value || '_' || n.i, ${at}, u.value, 'dev_' || u.value || '_c', 'companion',
           CASE n.i % 2 WHEN 0 THEN 'policy.decision' ELSE 'grant.used' END, 'read', 'scale-agent', 'allow',
           '{"tool":"read","path":"/work/repo/src/seeded.ts"}'`,
      ),
    );
  if (req.proposals > 0)
    tail.push(
      history(
        req.proposals,
        `INSERT INTO proposed_actions (id, user_id, tool, identity, idempotency_key, args_hash, args, risk_class,
           justification, summary, source_kind, state, gate, created_at, expires_at, decided_at, finished_at, envelope)
         SELECT 'pa_' || u.value || '_' || n.i, u.value, 'http.request', 'bot', 'seed-' || n.i, 'x',
           '{"method":"POST","url":"http://127.0.0.1/effect"}', 'WRITE', 'seeded', '{}', 'api', 'EXECUTED', 'ask',
           ${at}, ${at} + 3600000, ${at} + 1000, ${at} + 2000, '{"status":200}'`,
      ),
    );
  if (req.jobs > 0)
    tail.push(
      history(
        req.jobs,
        `INSERT INTO threads (id, user_id, title, job_id, created_at, updated_at)
         SELECT 'thr_' || u.value || '_' || n.i, u.value, 'seeded', 'job_' || u.value || '_' || n.i, ${at}, ${at}`,
      ),
      history(
        req.jobs,
        `INSERT INTO jobs (id, user_id, title, instructions, trigger_kind, thread_id, turn_id, created_at)
         SELECT 'job_' || u.value || '_' || n.i, u.value, 'seeded', 'Say done.', 'schedule',
           'thr_' || u.value || '_' || n.i, 'trn_' || u.value || '_' || n.i, ${at}`,
      ),
      history(
        req.jobs,
        `INSERT INTO turns (id, user_id, thread_id, job_id, kind, state, budgets, trigger_message_id, result,
           created_at, started_at, finished_at)
         SELECT 'trn_' || u.value || '_' || n.i, u.value, 'thr_' || u.value || '_' || n.i, 'job_' || u.value || '_' || n.i,
           'job', 'succeeded', '{}', 'msg_' || u.value || '_' || n.i, 'Done.', ${at}, ${at}, ${at} + 5000`,
      ),
    );
  let rows = 0;
  for (let i = 0; i < statements.length; i += CHUNK) {
    for (const r of await db.batch(statements.slice(i, i + CHUNK))) rows += r.meta.changes ?? 0;
  }
  for (const r of await db.batch(tail)) rows += r.meta.changes ?? 0;
  return { users: req.users.length, rows };
}
