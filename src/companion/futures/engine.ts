// The precognition engine in the daemon: several workspaces, warming from triggers, serving through policy.
import { execFile } from "node:child_process";
import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import type { FuturesStats } from "../../protocol/futures.ts";
import type { Env } from "../cli/config.ts";
import { servingRefusal } from "../guards/index.ts";
import { candidatesFor, importHop } from "./candidates.ts";
import {
  BUILTIN_CLASSES,
  type CommandClass,
  classOf,
  isFingerprinted,
  normalizeCommand,
} from "./command-classes.ts";
import { type CommandFuture, classAllowsLsPath, runWarm } from "./command-futures.ts";
import { injectionText } from "./injection.ts";
import { validateRead, warmRead } from "./read-futures.ts";
import {
  commandKey,
  type PolicyCheck,
  publicKey,
  readKey,
  type ServeRequest,
  type ServeResult,
  serve,
} from "./serve.ts";
import { readSwitches } from "./switches.ts";
import { untrustedText, type WarmTrigger } from "./triggers.ts";
import { Workspace } from "./workspace.ts";

export interface PrecogDeps {
  env: Env;
  log: (line: string) => void;
  /** Policy for a call in `cwd`: allow without asking, now (emergency controls included)? */
  allowedNow: (cwd: string) => PolicyCheck;
  /** Extra command classes (from permissions.yaml) for a workspace. */
  classes?: (cwd: string) => readonly CommandClass[];
  /**
   * A workspace may no longer match what was served from it: a mutating call started there, or a file in it
   * changed (shell replays not yet run are dropped; see replay.ts).
   */
  moved?: (root: string) => void;
}

export interface WarmResult {
  /** Text for the model under the injection mode ("" in the default silent mode). */
  injection: string;
  reads: string[];
  commands: string[];
}

const MAX_WORKSPACES = 8;
const MAX_QUEUED_COMMANDS = 4;
const MANIFESTS = ["package.json", "pyproject.toml", "Cargo.toml", "go.mod", "README.md"];
/** Tools that never change the workspace; anything else starting means the agent is about to mutate. */
const READ_ONLY_TOOLS = new Set(["read", "grep", "find", "ls", "webfetch"]);

/** The real path of a cwd, or the cwd as given when it does not resolve (it then matches no workspace). */
function realOrGiven(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

function gitChanged(root: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["status", "--porcelain", "-z", "--untracked-files=normal"],
      { cwd: root, timeout: 2_000, maxBuffer: 1024 * 1024 },
      (error, stdout) => {
        if (error) return resolve([]);
        const entries = stdout.split("\0").filter((e) => e.length > 3);
        // `XY path`; deleted files cannot be read.
        resolve(entries.filter((e) => !e.startsWith(" D") && !e.startsWith("D ")).map((e) => e.slice(3)));
      },
    );
  });
}

export class Precog {
  readonly #deps: PrecogDeps;
  readonly #workspaces = new Map<string, Promise<Workspace>>();
  /** The same workspaces once open, for the synchronous kill path. */
  readonly #opened = new Map<string, Workspace>();
  readonly #background = new Set<Promise<unknown>>();

  constructor(deps: PrecogDeps) {
    this.#deps = deps;
  }

  get switches() {
    return readSwitches(this.#deps.env);
  }

  /** The workspace for a cwd (its real path), opened and watched on first use. */
  async workspace(cwd: string): Promise<Workspace> {
    const root = await realpath(cwd);
    let ws = this.#workspaces.get(root);
    if (!ws) {
      ws = Workspace.open(root, this.#deps.log, () => this.#deps.moved?.(root));
      this.#workspaces.set(root, ws);
      ws.then(
        (opened) => this.#opened.set(root, opened),
        () => this.#workspaces.delete(root),
      );
      await this.#evict();
    }
    const opened = await ws;
    opened.lastUsed = Date.now();
    return opened;
  }

  async #evict(): Promise<void> {
    if (this.#workspaces.size <= MAX_WORKSPACES) return;
    const open = await Promise.all([...this.#workspaces.values()].map((p) => p.catch(() => undefined)));
    const oldest = open.filter((w) => w !== undefined).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (!oldest) return;
    oldest.close();
    this.#workspaces.delete(oldest.root);
    this.#opened.delete(oldest.root);
  }

  #classes(cwd: string): readonly CommandClass[] {
    const extra = this.#deps.classes?.(cwd) ?? [];
    return extra.length === 0 ? BUILTIN_CLASSES : [...extra, ...BUILTIN_CLASSES];
  }

  /** Warms what the trigger suggests. Reads are warmed before it resolves; commands go on in the background. */
  async warm(trigger: WarmTrigger): Promise<WarmResult> {
    const switches = this.switches;
    const none: WarmResult = { injection: "", reads: [], commands: [] };
    if (!switches.enabled) return none;
    const ws = await this.workspace(trigger.cwd);
    const text = untrustedText(trigger.text);
    const classes = this.#classes(ws.root);
    const idle = trigger.source === "idle";
    const candidates = candidatesFor(text, ws.index, {
      mutationSuppression: switches.mutationSuppression,
      classes,
      gitChanged:
        idle || /\b(chang|diff|uncommitted|review|my work)/i.test(text) ? await gitChanged(ws.root) : [],
    });
    if (idle) {
      for (const m of MANIFESTS)
        if (ws.index.has(m) && !candidates.reads.includes(m)) candidates.reads.push(m);
      const status = classes.find((c) => c.id === "bash:git status");
      if (status && !candidates.commands.includes(status)) candidates.commands.push(status);
    }
    const allowed = this.#deps.allowedNow(ws.root);
    const reads = await this.#warmReads(ws, candidates.reads, switches.maxFileBytes, allowed, true);
    const commands: string[] = [];
    if (switches.commandFutures) {
      for (const cls of candidates.commands) {
        if (this.#enqueue(ws, cls, cls.canonical, allowed)) commands.push(cls.canonical);
      }
    }
    const futures = reads.map((r) => ws.get(readKey(r))).filter((f) => f !== undefined);
    return { injection: injectionText(switches.injectionMode, futures, commands), reads, commands };
  }

  async #warmReads(
    ws: Workspace,
    paths: readonly string[],
    maxBytes: number,
    allowed: PolicyCheck,
    hop: boolean,
  ): Promise<string[]> {
    const warmed: string[] = [];
    const next: string[] = [];
    for (const path of paths) {
      if (!(await allowed("read", { path }))) continue;
      const existing = ws.get(readKey(path));
      if (existing?.kind === "read" && (await validateRead(existing, path)).ok) {
        warmed.push(path);
        continue;
      }
      const result = await warmRead(ws.root, path, maxBytes);
      if ("refused" in result) continue;
      ws.put(readKey(result.relative), result);
      ws.stats.warmed("read");
      warmed.push(result.relative);
      if (hop) next.push(...importHop(result.relative, result.bytes.toString("utf8"), ws.index));
    }
    const hopped = next.filter((p) => !warmed.includes(p)).slice(0, 8);
    if (hopped.length > 0) warmed.push(...(await this.#warmReads(ws, hopped, maxBytes, allowed, false)));
    return warmed;
  }

  /** Queues one command warm; false when it is refused (not allowed without asking, a guarded path, …). */
  #enqueue(ws: Workspace, cls: CommandClass, command: string, allowed: PolicyCheck): boolean {
    const normalized = normalizeCommand(command);
    if (!classAllowsLsPath(cls, normalized, servingRefusal)) return false;
    if (ws.warming?.command === normalized || ws.queue.includes(normalized)) return true;
    const task = (async () => {
      if (!(await allowed("bash", { command: normalized }))) return;
      if (ws.warming) {
        if (ws.queue.length < MAX_QUEUED_COMMANDS) ws.queue.push(normalized);
        return;
      }
      await this.#runCommand(ws, cls, normalized);
      for (let queued = ws.queue.shift(); queued !== undefined; queued = ws.queue.shift()) {
        const qcls = classOf(queued, this.#classes(ws.root));
        if (qcls) await this.#runCommand(ws, qcls, queued);
      }
    })();
    this.#track(task);
    return true;
  }

  async #runCommand(ws: Workspace, cls: CommandClass, command: string): Promise<void> {
    const key = commandKey(command);
    const controller = new AbortController();
    let finished = (): void => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    // Claimed before the first await: one warm per workspace at a time.
    ws.warming = { command, controller, done };
    try {
      const existing = ws.get(key);
      // A future that still validates is not run again (the barrier first, so "still" means now).
      if (existing?.kind === "command" && existing.fingerprint && (await ws.sync())) {
        if (ws.versions.isCurrent(cls.id, existing.fingerprint)) return;
      }
      let fingerprint: ReturnType<typeof ws.versions.current> | undefined;
      if (isFingerprinted(cls)) {
        ws.versions.track(cls.id, cls.causal);
        // The barrier first: the recorded version then covers every change made before the command starts.
        if (!(await ws.sync())) return;
        fingerprint = ws.versions.current(cls.id);
      }
      const warmedAt = Date.now();
      const outcome = await runWarm(command, ws.root, controller.signal, this.#deps.env);
      if (!outcome.ok) {
        this.#deps.log(`precog: warm of a ${cls.id} command ended early (${outcome.reason})`);
        return;
      }
      ws.put(key, {
        kind: "command",
        root: ws.root,
        command,
        classId: cls.id,
        fingerprint,
        chunks: outcome.chunks,
        exitCode: outcome.exitCode,
        warmedAt,
        coldMs: outcome.ms,
      });
      ws.stats.warmed(cls.id);
    } finally {
      ws.warming = undefined;
      finished();
    }
  }

  #track(task: Promise<unknown>): void {
    const guarded = task.catch((error: unknown) =>
      this.#deps.log(`precog: warm failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    this.#background.add(guarded);
    void guarded.finally(() => this.#background.delete(guarded));
  }

  /** Resolves once no warm is running (tests, the bench, shutdown). */
  async settled(): Promise<void> {
    while (this.#background.size > 0) await Promise.allSettled([...this.#background]);
  }

  async serve(cwd: string, request: ServeRequest): Promise<ServeResult> {
    const switches = this.switches;
    if (!switches.enabled) return { hit: false, reason: "disabled" };
    const ws = await this.workspace(cwd);
    // The agent asked for the very command being warmed: the rest of that run is all it has to wait.
    if (request.tool === "bash" && ws.warming?.command === normalizeCommand(request.command))
      await ws.warming.done;
    return serve(ws, request, switches, this.#deps.allowedNow(ws.root));
  }

  /**
   * The key for `airlock futures serve` when a future for this exact command exists or is being warmed in an
   * open workspace; null otherwise (the rewrite then never happens). Serving re-validates everything.
   */
  lookup(cwd: string, command: string): string | null {
    const s = this.switches;
    if (!s.enabled || !s.toolCache || !s.commandFutures) return null;
    const real = realOrGiven(cwd);
    if (!classOf(command, this.#classes(real))) return null;
    const ws = this.#opened.get(real);
    if (!ws) return null;
    const normalized = normalizeCommand(command);
    const key = commandKey(normalized);
    const future = ws.get(key);
    // Served only when that is faster than running: a finished future of a cheap command is never rewritten. A
    // command still warming is rewritten (serving waits out the rest of that run, less than a fresh one).
    if (future?.kind === "command" && future.coldMs < s.minColdMs) return null;
    const known =
      future?.kind === "command" || ws.warming?.command === normalized || ws.queue.includes(normalized);
    return known ? publicKey(ws, key) : null;
  }

  /** The agent is about to run a call in `cwd`: a mutating one kills that workspace's warm at once. */
  noteCall(cwd: string, tool: string, input: Record<string, unknown>): void {
    // Nothing open, nothing to kill: no realpath or class check on the call's path.
    if (READ_ONLY_TOOLS.has(tool) || this.#opened.size === 0) return;
    const real = realOrGiven(cwd);
    // The allowlisted commands (built-in or from permissions.yaml) do not change the workspace.
    if (tool === "bash" && typeof input.command === "string" && classOf(input.command, this.#classes(real)))
      return;
    for (const ws of this.#opened.values()) {
      const inside = real === ws.root || real.startsWith(`${ws.root}/`) || ws.root.startsWith(`${real}/`);
      if (inside) this.#deps.moved?.(ws.root);
      if (inside && ws.cancelWarms())
        this.#deps.log(`precog: ${ws.root}: warm killed (a mutating ${tool} started)`);
    }
  }

  /**
   * The finished future for this exact command in an open workspace, unvalidated (serve() validates): what a
   * shell replay would play. Undefined while it is still warming or when there is none.
   */
  finished(cwd: string, command: string): CommandFuture | undefined {
    const future = this.#opened.get(realOrGiven(cwd))?.get(commandKey(normalizeCommand(command)));
    return future?.kind === "command" ? future : undefined;
  }

  /** Whether `command` is a precognition class here (the built-ins, or one from permissions.yaml). */
  isClassed(cwd: string, command: string): boolean {
    return classOf(command, this.#classes(realOrGiven(cwd))) !== undefined;
  }

  async stats(): Promise<FuturesStats> {
    const s = this.switches;
    const open = await Promise.all([...this.#workspaces.values()].map((p) => p.catch(() => undefined)));
    return {
      enabled: s.enabled,
      injectionMode: s.injectionMode,
      toolCache: s.toolCache,
      commandFutures: s.commandFutures,
      generatedAt: new Date().toISOString(),
      workspaces: open.filter((w) => w !== undefined).map((w) => w.statsView()),
    };
  }

  async close(): Promise<void> {
    const open = await Promise.all([...this.#workspaces.values()].map((p) => p.catch(() => undefined)));
    for (const ws of open) ws?.close();
    this.#workspaces.clear();
    this.#opened.clear();
  }
}
