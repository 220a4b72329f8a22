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

export function readAttachment(ws: WebSocket): SocketState | undefined {
  const parsed = SocketAttachment.safeParse(ws.deserializeAttachment());
  return parsed.success ? parsed.data.airlock : undefined;
}

export function writeAttachment(ws: WebSocket, state: SocketState): void {
  ws.serializeAttachment({ airlock: state });
}

export const deviceTag = (deviceId: string) => `device:${deviceId}`;
export const roleTag = (role: ClientRole) => `role:${role}`;
