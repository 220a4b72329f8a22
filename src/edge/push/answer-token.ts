// The answer token a prompt's push notification carries for its lock-screen buttons (Allow once / Deny): it may
// answer only that one prompt, only from the device the notification was encrypted to, only "once", and only until
// the prompt's deadline. It is signed (HMAC-SHA256 under TOKEN_PEPPER, in its own context), never stored: the
// prompt itself can be answered once, so a replay finds it already answered.
import { base64url, constantTimeEqual, hmacHex } from "../auth/crypto.ts";

const PREFIX = "pna_";
/** Separates these signatures from every other use of the pepper (token hashes, step-up). */
const CONTEXT = "airlock push answer v1\n";

export interface AnswerClaims {
  userId: string;
  deviceId: string;
  promptId: string;
  /** The prompt's deadline (ms since the epoch): the token is dead after it. */
  expiresAt: number;
}

function decodeClaims(part: string): AnswerClaims | null {
  try {
    const text = atob(part.replaceAll("-", "+").replaceAll("_", "/"));
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object") return null;
    const { u, d, p, e } = value as Record<string, unknown>;
    if (typeof u !== "string" || typeof d !== "string" || typeof p !== "string" || typeof e !== "number")
      return null;
    return { userId: u, deviceId: d, promptId: p, expiresAt: e };
  } catch {
    return null;
  }
}

export async function mintAnswerToken(pepper: string, claims: AnswerClaims): Promise<string> {
  const json = JSON.stringify({
    u: claims.userId,
    d: claims.deviceId,
    p: claims.promptId,
    e: claims.expiresAt,
  });
  const body = base64url(new TextEncoder().encode(json));
  return `${PREFIX}${body}.${await hmacHex(pepper, CONTEXT + body)}`;
}

/** The token's claims, or null when it is malformed, forged, altered or past its prompt's deadline. */
export async function verifyAnswerToken(
  pepper: string,
  token: string,
  now = Date.now(),
): Promise<AnswerClaims | null> {
  if (!token.startsWith(PREFIX) || token.length > 1_000) return null;
  const [body, signature, ...rest] = token.slice(PREFIX.length).split(".");
  if (!body || !signature || rest.length) return null;
  const expected = await hmacHex(pepper, CONTEXT + body);
  if (!constantTimeEqual(signature, expected)) return null;
  const claims = decodeClaims(body);
  if (!claims || claims.expiresAt <= now) return null;
  return claims;
}
