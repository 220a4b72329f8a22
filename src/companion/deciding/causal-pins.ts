// The companion's side of causal grants: for each command of a call that runs project code, read the files
// that decide what it runs (src/policy/causal-content.ts says which lines count) and pin them; remember
// each pinned content, so that when a saved grant stops covering a command because its content changed,
// the card can show what changed.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { sha256Hex } from "../../policy/call-binding.ts";
import { capabilityOf } from "../../policy/capabilities.ts";
import {
  causalChange,
  type DirReader,
  type Excerpt,
  excerptsOf,
  pinOf,
} from "../../policy/causal-content.ts";
import { causalRunnerOf } from "../../policy/causal-runners.ts";
import { homeFor, normalizePath, resolvePath, resolveShellDir } from "../../policy/paths.ts";
import { analyzeShell } from "../../policy/shell-analysis.ts";
import { canonicalCalls } from "../../policy/tool-names.ts";
import type { CausalPin } from "../../policy/types.ts";
import { type Env, stateDir } from "../cli/config.ts";

/** A pin with the content it was taken from (kept on this machine only). */
export interface PinnedRunner extends CausalPin {
  excerpts: Excerpt[];
}

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_PINS = 16;

/** Reads a directory's files, each at most 1 MiB (a larger one counts by its size, never its bytes). */
export function diskReader(dir: string): DirReader {
  const cache = new Map<string, string | null>();
  let names: readonly string[] | null = null;
  return {
    read(name) {
      if (cache.has(name)) return cache.get(name) ?? null;
      let text: string | null = null;
      try {
        const path = join(dir, name);
        const size = statSync(path).size;
        text = size > MAX_FILE_BYTES ? `(${size} bytes)` : readFileSync(path, "utf8");
      } catch {
        text = null;
      }
      cache.set(name, text);
      return text;
    },
    names() {
      if (names === null) {
        try {
          names = readdirSync(dir);
        } catch {
          names = [];
        }
      }
      return names;
    },
  };
}

/** The pins of every command in the call that runs project code, read from disk through `reader`. */
export function pinCall(
  call: { tool: string; input: Record<string, unknown>; cwd: string; home?: string | undefined },
  reader: (dir: string) => DirReader = diskReader,
): PinnedRunner[] {
  const out: PinnedRunner[] = [];
  const session = normalizePath(call.cwd);
  const home = homeFor(call.cwd, call.home);
  for (const part of canonicalCalls(call.tool, call.input)) {
    if (capabilityOf(part.tool) !== "exec") continue;
    const command = part.input.command;
    if (typeof command !== "string") continue;
    const cwd = part.cwd === undefined ? session : resolvePath(session, part.cwd);
    for (const u of analyzeShell(command).units) {
      if (u.kind !== "exec") continue;
      const runner = causalRunnerOf(u.argv);
      const dir = resolveShellDir(u.cwd, cwd, home);
      if (runner === null || dir === null) continue;
      if (out.some((p) => p.dir === dir && p.key === runner.key)) continue;
      const excerpts = excerptsOf(runner, reader(dir));
      out.push({ dir, key: runner.key, pin: pinOf(excerpts), excerpts });
      if (out.length >= MAX_PINS) return out;
    }
  }
  return out;
}

const Snapshot = z.object({ excerpts: z.array(z.object({ file: z.string(), lines: z.array(z.string()) })) });
const History = z.object({ pins: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(8) });

/**
 * The contents this machine has pinned, by pin, and the recent pins of each (directory, runner): what a
 * saved grant may have been pinned to. Files under the state directory, mode 0600.
 */
export class CausalHistory {
  readonly #root: string;
  constructor(env: Env = process.env) {
    this.#root = join(stateDir(env), "causal");
  }

  #indexPath(dir: string, key: string): string {
    return join(this.#root, `runner-${sha256Hex(`${dir}\0${key}`).slice(0, 32)}.json`);
  }

  /** The pins seen for this runner, newest first. */
  pins(dir: string, key: string): string[] {
    try {
      const parsed = History.safeParse(JSON.parse(readFileSync(this.#indexPath(dir, key), "utf8")));
      return parsed.success ? parsed.data.pins : [];
    } catch {
      return [];
    }
  }

  excerpts(pin: string): Excerpt[] | null {
    try {
      const parsed = Snapshot.safeParse(
        JSON.parse(readFileSync(join(this.#root, `pin-${pin}.json`), "utf8")),
      );
      return parsed.success ? parsed.data.excerpts : null;
    } catch {
      return null;
    }
  }

  remember(p: PinnedRunner): void {
    const known = this.pins(p.dir, p.key);
    if (known[0] === p.pin && existsSync(join(this.#root, `pin-${p.pin}.json`))) return;
    mkdirSync(this.#root, { recursive: true, mode: 0o700 });
    const snapshot = join(this.#root, `pin-${p.pin}.json`);
    if (!existsSync(snapshot)) atomicWrite(snapshot, JSON.stringify({ excerpts: p.excerpts }));
    const pins = [p.pin, ...known.filter((k) => k !== p.pin)].slice(0, 8);
    atomicWrite(this.#indexPath(p.dir, p.key), JSON.stringify({ pins }));
  }

  /** The earlier contents of this runner (newest first, at most four), each with what changed since. */
  earlier(p: PinnedRunner): { pin: string; changed: string }[] {
    const out: { pin: string; changed: string }[] = [];
    for (const old of this.pins(p.dir, p.key)) {
      if (old === p.pin) continue;
      const before = this.excerpts(old);
      if (before !== null) out.push({ pin: old, changed: causalChange(before, p.excerpts) });
      if (out.length === 4) break;
    }
    return out;
  }
}

function atomicWrite(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}
