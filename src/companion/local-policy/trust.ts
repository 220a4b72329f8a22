// Trusted project configs: `airlock trust` pins a project's permissions file to the sha256 of
// its content, so any later change to the file needs trust again. Stored in ~/.airlock/trusted.json (0600).
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { airlockHome, type Env } from "../cli/config.ts";

const TrustEntrySchema = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  trustedAt: z.string(),
});
const TrustFileSchema = z.object({ version: z.literal(1), trusted: z.array(TrustEntrySchema) });

export type TrustEntry = z.infer<typeof TrustEntrySchema>;

export function trustStorePath(env: Env = process.env): string {
  return join(airlockHome(env), "trusted.json");
}

export function contentHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A missing or unreadable store trusts nothing (fail closed). */
export function readTrustStore(env: Env = process.env): TrustEntry[] {
  let raw: string;
  try {
    raw = readFileSync(trustStorePath(env), "utf8");
  } catch {
    return [];
  }
  try {
    const parsed = TrustFileSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data.trusted : [];
  } catch {
    return [];
  }
}

/** True only when this exact content of this file was trusted. */
export function isTrusted(path: string, text: string, env: Env = process.env): boolean {
  const abs = resolve(path);
  const hash = contentHash(text);
  return readTrustStore(env).some((e) => e.path === abs && e.sha256 === hash);
}

/** Pins `path` to the hash of `text`, replacing any earlier pin of the same file. */
export function trustFile(path: string, text: string, env: Env = process.env, now = new Date()): TrustEntry {
  const abs = resolve(path);
  const entry: TrustEntry = { path: abs, sha256: contentHash(text), trustedAt: now.toISOString() };
  const entries = readTrustStore(env).filter((e) => e.path !== abs);
  entries.push(entry);
  const file = trustStorePath(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Write then rename so a crash never leaves a half-written store; 0600 because it decides what runs.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, trusted: entries }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return entry;
}

export function untrustFile(path: string, env: Env = process.env): boolean {
  const abs = resolve(path);
  const entries = readTrustStore(env);
  const kept = entries.filter((e) => e.path !== abs);
  if (kept.length === entries.length) return false;
  const file = trustStorePath(env);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, trusted: kept }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return true;
}
