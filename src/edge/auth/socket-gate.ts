// What a hub socket may send: the size and depth bounds of a raw message, and the role check of a parsed one.

import { jsonTextDepth, MAX_JSON_DEPTH, MAX_SOCKET_MESSAGE_BYTES } from "../../protocol/limits.ts";
import {
  AUTHORITY,
  type DeviceRole,
  roleRefusal,
  SOCKET_MESSAGE_AUTHORITY,
  socketMessageAllowed,
} from "../../protocol/roles.ts";
import { CLOSE_CODES } from "../../protocol/socket.ts";
import type { AuditEntry } from "../audit/audit-log.ts";

export type RawAdmission =
  | { ok: true; value: unknown }
  /** Too big to even look at: close the socket (the client learns why from the close code). */
  | { ok: false; close: { code: number; reason: string } }
  /** Readable but not acceptable: answer with an `error` message and keep the socket. */
  | { ok: false; error: { code: string; message: string; details?: unknown } };

const encoder = new TextEncoder();

function byteLength(raw: string | ArrayBuffer): number {
  if (typeof raw !== "string") return raw.byteLength;
  // UTF-8 needs at most 3 bytes per UTF-16 unit: skip the encode when the text is surely small enough.
  return raw.length * 3 <= MAX_SOCKET_MESSAGE_BYTES ? raw.length : encoder.encode(raw).byteLength;
}

/**
 * Bounds a raw message before anything parses it: one 3 MB tool_request used to stall the runtime for
 * seconds and a few crashed it, and deep nesting crashed the Durable Object call.
 */
export function admitRaw(raw: string | ArrayBuffer): RawAdmission {
  if (byteLength(raw) > MAX_SOCKET_MESSAGE_BYTES) {
    return {
      ok: false,
      close: { code: CLOSE_CODES.message_too_big, reason: `message over ${MAX_SOCKET_MESSAGE_BYTES} bytes` },
    };
  }
  const text = typeof raw === "string" ? raw : new TextDecoder().decode(raw);
  const depth = jsonTextDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    return {
      ok: false,
      error: {
        code: "invalid_json",
        message: `The message nests ${depth} levels deep; the limit is ${MAX_JSON_DEPTH}.`,
        details: { depth, max_depth: MAX_JSON_DEPTH },
      },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: { code: "invalid_json", message: "Messages are JSON objects." } };
  }
}

export interface SocketRefusal {
  error: { code: "forbidden"; message: string; details: unknown };
  audit: AuditEntry;
}

/** Null when a socket of `role` may send `type`; otherwise the error to send back and the audit entry. */
export function refuseByRole(
  socket: { role: DeviceRole; userId: string; deviceId: string },
  message: { type: string; promptId?: string },
): SocketRefusal | null {
  if (socketMessageAllowed(socket.role, message.type)) return null;
  const action = SOCKET_MESSAGE_AUTHORITY[message.type as keyof typeof SOCKET_MESSAGE_AUTHORITY] ?? "connect";
  const details = { action, role: socket.role, required_role: AUTHORITY[action], message: message.type };
  return {
    error: { code: "forbidden", message: roleRefusal(socket.role, action), details },
    audit: {
      userId: socket.userId,
      deviceId: socket.deviceId,
      actor: `device:${socket.deviceId}`,
      event: "auth.role_refused",
      target: message.promptId ?? message.type,
      details: { ...details, via: "socket" },
    },
  };
}
