// Starts a real local edge (`npm run dev`: wrangler dev, local D1 and Durable Objects) on a free port with
// fresh state, and hands back its URL, the admin token and a pairing helper. Used by every e2e test and bench.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export interface Edge {
  base: string;
  port: number;
  adminToken: string;
  /** The approver pairing code the dev script printed on first run (single use, for the phone). */
  firstCode: string;
  /** The companion pairing code the dev script printed (single use, for `airlock pair`). */
  companionCode: string;
  /** The recovery code the dev script printed on first run. */
  recoveryCode: string;
  /** A fresh companion pairing code for the owner (admin route). */
  newCode(): Promise<string>;
  /** A fresh approver pairing code for the owner (recovery code). */
  newApproverCode(): Promise<string>;
  /** Binds a new device and returns its token. */
  pairDevice(kind?: "companion" | "browser", name?: string): Promise<{ token: string; deviceId: string }>;
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function readVar(file: string, name: string): string {
  const match = new RegExp(`^${name}=(.*)$`, "m").exec(readFileSync(file, "utf8"));
  if (!match?.[1]) throw new Error(`${name} missing from ${file}`);
  return match[1].trim();
}

/**
 * A local state directory with every D1 migration applied, made once per set of migrations and copied into each
 * fresh edge's state: applied per edge, the migrations cost a wrangler and a workerd start (seconds of CPU) for
 * each of the e2e files. The dev script sees its marker in the copy and skips them.
 */
function migratedState(): string {
  const names = readdirSync(join(ROOT, "migrations"))
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const key = createHash("sha256")
    .update(`${ROOT}\n${names.join("\n")}`)
    .digest("hex")
    .slice(0, 16);
  const template = join(tmpdir(), `airlock-e2e-migrated-${key}`);
  if (existsSync(join(template, "airlock-migrations.txt"))) return template;
  const building = mkdtempSync(join(tmpdir(), "airlock-e2e-migrating-"));
  const made = spawnSync(process.execPath, [join(ROOT, "scripts/dev.mjs"), "--migrate-only"], {
    cwd: ROOT,
    env: { ...process.env, AIRLOCK_STATE_DIR: building },
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(`migrations failed:\n${made.stdout}\n${made.stderr}`);
  try {
    renameSync(building, template);
  } catch {
    // Another file made it first: theirs is the same.
    rmSync(building, { recursive: true, force: true });
  }
  return template;
}

export async function startEdge(
  options: {
    port?: number;
    stateDir?: string;
    entry?: string;
    vars?: Record<string, string>;
    /** flags for `npm run dev` (--lan, --public-url) */
    args?: string[];
  } = {},
): Promise<Edge> {
  const port = options.port ?? (await freePort());
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "airlock-edge-"));
  if (!existsSync(join(stateDir, "v3"))) cpSync(migratedState(), stateDir, { recursive: true });
  const varsFile = join(stateDir, "dev.vars");
  // The dev script keeps what a vars file already holds and adds its secrets to it.
  if (options.vars) {
    writeFileSync(
      varsFile,
      Object.entries(options.vars)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(""),
      { mode: 0o600 },
    );
  }
  let out = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, "scripts/dev.mjs"), ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        AIRLOCK_STATE_DIR: stateDir,
        AIRLOCK_DEV_VARS: varsFile,
        ...(options.entry ? { AIRLOCK_DEV_ENTRY: options.entry } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const printed = await new Promise<{ firstCode: string; companionCode: string; recoveryCode: string }>(
    (resolveCode, reject) => {
      const timer = setTimeout(() => reject(new Error(`edge did not start in 90 s:\n${out}`)), 90_000);
      const check = () => {
        const approver = /Approver pairing code: (\d{8})/.exec(out)?.[1];
        const companion = /Companion pairing code: (\d{8})/.exec(out)?.[1];
        const recovery = /Recovery code: (\S+)/.exec(out)?.[1];
        if (approver && companion && recovery) {
          clearTimeout(timer);
          resolveCode({ firstCode: approver, companionCode: companion, recoveryCode: recovery });
        }
      };
      child.stdout?.on("data", check);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`edge exited (${code}) before it was ready:\n${out}`));
      });
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const adminToken = readVar(varsFile, "ADMIN_BOOTSTRAP_TOKEN");

  const newCode = async () => {
    const res = await fetch(`${base}/v1/admin/pairing-code`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (!res.ok) throw new Error(`pairing code: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { code: string }).code;
  };

  const newApproverCode = async () => {
    const res = await fetch(`${base}/v1/recovery/pairing-code`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ recovery_code: printed.recoveryCode, role: "approver" }),
    });
    if (!res.ok) throw new Error(`approver code: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { code: string }).code;
  };

  return {
    base,
    port,
    adminToken,
    ...printed,
    newCode,
    newApproverCode,
    async pairDevice(kind = "companion", name = "e2e device") {
      const code = kind === "browser" ? await newApproverCode() : await newCode();
      const res = await fetch(`${base}/v1/pairing/bind`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, device_name: name, kind }),
      });
      if (!res.ok) throw new Error(`bind: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { token: string; device_id: string };
      return { token: body.token, deviceId: body.device_id };
    },
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once("exit", r));
        process.kill(-child.pid, "SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      }
      if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
