// Starts a real local edge (`npm run dev`: wrangler dev, local D1 and Durable Objects) on a free port with
// fresh state, and hands back its URL, the admin token and a pairing helper. Used by every e2e test and bench.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
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

export interface EdgeOptions {
  port?: number;
  stateDir?: string;
  entry?: string;
  vars?: Record<string, string>;
  /** flags for `npm run dev` (--lan, --public-url) */
  args?: string[];
}

interface Printed {
  firstCode: string;
  companionCode: string;
  recoveryCode: string;
}

/** What a started `npm run dev` hands over: enough for a test to talk to it, in any process. */
export interface EdgeHandle extends Printed {
  port: number;
  adminToken: string;
  stateDir: string;
}

/** A `npm run dev` child on its way up: `ready` settles once it printed its codes. */
export interface Launch {
  ready: Promise<EdgeHandle>;
  output(): string;
  /** Stops the child (its whole process group) and, unless the caller gave the state directory, removes it. */
  stop(): Promise<void>;
}

/** Starts `npm run dev` on a free port with fresh state; `logFile`, when given, receives all its output as it comes. */
export function launchEdge(options: EdgeOptions = {}, logFile?: string): Launch {
  let out = "";
  let child: ChildProcess | undefined;
  let stateDir = options.stateDir;
  let stopping = false;
  const ready = (async (): Promise<EdgeHandle> => {
    const port = options.port ?? (await freePort());
    // Stopped before it spawned (the pool closing under a spare): from here to the spawn nothing awaits.
    if (stopping) throw new Error("edge stopped before it started");
    stateDir ??= mkdtempSync(join(tmpdir(), "airlock-edge-"));
    const dir = stateDir;
    if (!existsSync(join(dir, "v3"))) cpSync(migratedState(), dir, { recursive: true });
    const varsFile = join(dir, "dev.vars");
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
    const started: ChildProcess = spawn(
      process.execPath,
      [join(ROOT, "scripts/dev.mjs"), ...(options.args ?? [])],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          AIRLOCK_STATE_DIR: dir,
          AIRLOCK_DEV_VARS: varsFile,
          ...(options.entry ? { AIRLOCK_DEV_ENTRY: options.entry } : {}),
        },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      },
    );
    child = started;
    const take = (d: Buffer) => {
      out += d;
      if (logFile) appendFileSync(logFile, d);
    };
    started.stdout?.on("data", take);
    started.stderr?.on("data", take);
    const printed = await new Promise<Printed>((resolveCode, reject) => {
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
      started.stdout?.on("data", check);
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`edge exited (${code}) before it was ready:\n${out}`));
      });
    });
    return { ...printed, port, stateDir: dir, adminToken: readVar(varsFile, "ADMIN_BOOTSTRAP_TOKEN") };
  })();
  return {
    ready,
    output: () => out,
    async stop() {
      stopping = true;
      const running = child;
      const pid = running?.pid;
      const alive = () => running?.exitCode === null && running.signalCode === null;
      if (running && pid && alive()) {
        const exited = new Promise((r) => running.once("exit", r));
        process.kill(-pid, "SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (alive()) process.kill(-pid, "SIGKILL");
      }
      if (!options.stateDir && stateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Set by the e2e global setup (test/e2e/global-setup.ts): where its pool of already started edges answers. */
export const EDGE_POOL_ENV = "AIRLOCK_E2E_EDGE_POOL";

/**
 * A fresh edge. With no options, inside the e2e run, it comes from the global setup's pool, which started it while
 * the previous file ran (the same `npm run dev`, fresh state, its own port); otherwise it starts here.
 */
export async function startEdge(options: EdgeOptions = {}): Promise<Edge> {
  const pool = process.env[EDGE_POOL_ENV];
  if (pool && Object.keys(options).length === 0) {
    const res = await fetch(`${pool}/take`, { method: "POST" });
    if (!res.ok) throw new Error(`edge pool: ${res.status} ${await res.text()}`);
    const { handle, logFile } = (await res.json()) as { handle: EdgeHandle; logFile: string };
    return edgeOf(handle, {
      output: () => readFileSync(logFile, "utf8"),
      async stop() {
        const stopped = await fetch(`${pool}/stop`, { method: "POST", body: String(handle.port) });
        if (!stopped.ok) throw new Error(`edge pool stop: ${stopped.status} ${await stopped.text()}`);
      },
    });
  }
  const launch = launchEdge(options);
  try {
    return edgeOf(await launch.ready, launch);
  } catch (error) {
    await launch.stop();
    throw error;
  }
}

function edgeOf(handle: EdgeHandle, life: { output(): string; stop(): Promise<void> }): Edge {
  const base = `http://127.0.0.1:${handle.port}`;
  const { adminToken } = handle;

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
      body: JSON.stringify({ recovery_code: handle.recoveryCode, role: "approver" }),
    });
    if (!res.ok) throw new Error(`approver code: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { code: string }).code;
  };

  return {
    base,
    port: handle.port,
    adminToken,
    firstCode: handle.firstCode,
    companionCode: handle.companionCode,
    recoveryCode: handle.recoveryCode,
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
    output: life.output,
    stop: life.stop,
  };
}
