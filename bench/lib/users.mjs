// Many users for a bench against one local edge: users and one approver pairing code each, written to the
// local D1 before (or while) the edge runs, then bound over HTTP for a token per user.
import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../test/e2e/support/edge.ts";

/** The edge's pairing-code lockout buckets (src/edge/auth/pairing.ts): each live code owns one. */
const BUCKETS = 100;
/** Codes per wave: the edge needs free buckets for its own codes meanwhile. */
const WAVE = 50;

export function benchUsers({ stateDir, pepper, count, prefix = "usr_bench" }) {
  const wrangler = join(ROOT, "node_modules", ".bin", "wrangler");
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
  const d1 = (args) => {
    const r = spawnSync(wrangler, ["d1", ...args, "DB", "--local", "--persist-to", stateDir], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`wrangler d1 ${args[0]} failed:\n${r.stdout}\n${r.stderr}`);
  };
  const execute = (name, statements) => {
    const file = join(stateDir, name);
    writeFileSync(file, statements.join("\n"));
    d1(["execute", "--file", file]);
  };
  const users = Array.from({ length: count }, (_, i) => ({
    userId: `${prefix}${String(i).padStart(8, "0")}`,
    i,
  }));
  const hashOf = (code) => createHmac("sha256", pepper).update(`pairing:${code}`).digest("hex");
  /** A random code whose lockout bucket no code in `taken` holds (and now it does). */
  const freeCode = (taken) => {
    for (;;) {
      const code = String(Math.floor(Math.random() * 100_000_000)).padStart(8, "0");
      const bucket = Number.parseInt(hashOf(code).slice(0, 8), 16) % BUCKETS;
      if (!taken.has(bucket)) {
        taken.add(bucket);
        return { code, bucket };
      }
    }
  };

  return {
    users,
    /** Rows of a read-only SQL query on the local D1 (for a bench's diagnosis of what went missing). */
    query(sqlText) {
      const r = spawnSync(
        wrangler,
        ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--json", "--command", sqlText],
        { cwd: ROOT, env, encoding: "utf8" },
      );
      if (r.status !== 0) throw new Error(`wrangler d1 execute failed:\n${r.stdout}\n${r.stderr}`);
      return JSON.parse(r.stdout)[0]?.results ?? [];
    },
    /** Before the edge starts: the schema and the users. */
    create() {
      d1(["migrations", "apply"]);
      const now = Date.now();
      execute(
        "bench-users.sql",
        users.map(
          ({ userId, i }) =>
            `INSERT INTO users (id, name, role, created_at) VALUES ('${userId}', 'bench ${i}', 'member', ${now});`,
        ),
      );
    },
    /** With the edge up: one approver token per user (codes in waves, each owning a free bucket). */
    async tokens(base, pool) {
      const tokens = [];
      for (let from = 0; from < users.length; from += WAVE) {
        const taken = new Set();
        const codes = users.slice(from, from + WAVE).map((u) => ({ ...u, ...freeCode(taken) }));
        const now = Date.now();
        execute(
          `bench-codes-${from}.sql`,
          codes.map(
            ({ userId, code, bucket, i }) =>
              `INSERT INTO pairing_codes (id, user_id, code_hash, role, bucket, created_at, expires_at, failed_attempts) VALUES ('pc_${userId}_${i}', '${userId}', '${hashOf(code)}', 'approver', ${bucket}, ${now}, ${now + 3_600_000}, 0);`,
          ),
        );
        const bind = async (code, i) => {
          const res = await fetch(`${base}/v1/pairing/bind`, {
            method: "POST",
            // Each simulated user binds from its own address, as real phones do: the edge limits
            // unauthenticated pairing per client, and one bench process is not one client.
            headers: { "content-type": "application/json", "cf-connecting-ip": `bench-user-${i}` },
            body: JSON.stringify({ code, device_name: `bench-user-${i}`, kind: "browser" }),
          });
          const body = await res.json();
          if (!res.ok) throw new Error(`bind: ${res.status} ${JSON.stringify(body)}`);
          return body.token;
        };
        tokens.push(
          ...(await pool(
            codes.map(({ code, i, userId }) => async () => {
              // The local dev proxy drops a connection now and then on a loaded machine; the code may have been
              // used by then, so a retry binds a fresh one (on a bucket no live code of this wave holds).
              for (let attempt = 0; ; attempt++) {
                try {
                  return await bind(code, i);
                } catch (error) {
                  if (attempt >= 2 || !(error instanceof TypeError)) throw error;
                  const fresh = freeCode(taken);
                  const at = Date.now();
                  execute(`bench-code-${userId}-${attempt}.sql`, [
                    `INSERT INTO pairing_codes (id, user_id, code_hash, role, bucket, created_at, expires_at, failed_attempts) VALUES ('pc_${userId}_${i}_r${attempt}', '${userId}', '${hashOf(fresh.code)}', 'approver', ${fresh.bucket}, ${at}, ${at + 3_600_000}, 0);`,
                  ]);
                  code = fresh.code;
                }
              }
            }),
            10,
          )),
        );
      }
      return tokens;
    },
  };
}

/** Runs tasks with at most `inFlight` at once; answers their results in order. */
export async function pool(tasks, inFlight) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}
