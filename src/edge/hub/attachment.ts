// Per-socket state kept in the websocket attachment, so it survives hibernation.
import { z } from "zod";
import { ClientRole } from "../../protocol/socket.ts";

export const SocketAttachment = z.object({
  airlock: z.object({
    // Sockets hibernated before roles were renamed carry "dashboard", the approver's old name.
    role: z.preprocess((v) => (v === "dashboard" ? "approver" : v), ClientRole),
    deviceId: z.string(),
    userId: z.string(),
    connectedAt: z.number(),
    client: z.object({ name: z.string(), version: z.string().optional() }).optional(),
  }),
});
export type SocketState = z.infer<typeof SocketAttachment>["airlock"];

// Parsed once per socket object: deserializing and validating the attachment on every message was a tenth
// of a decision's time. A socket woken from hibernation is a new object, so it is read afresh.
const parsedStates = new WeakMap<WebSocket, SocketState>();

export function readAttachment(ws: WebSocket): SocketState | undefined {
  const known = parsedStates.get(ws);
  if (known) return known;
  const parsed = SocketAttachment.safeParse(ws.deserializeAttachment());
  if (!parsed.success) return undefined;
  parsedStates.set(ws, parsed.data.airlock);
  return parsed.data.airlock;
}

export function writeAttachment(ws: WebSocket, state: SocketState): void {
  ws.serializeAttachment({ airlock: state });
  parsedStates.delete(ws);
}

export const deviceTag = (deviceId: string) => `device:${deviceId}`;
export const roleTag = (role: ClientRole) => `role:${role}`;
