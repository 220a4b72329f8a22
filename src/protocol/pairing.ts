// Wire shapes of bootstrap, pairing and devices.
import { z } from "zod";

export const DeviceKind = z.enum(["companion", "browser"]);
export type DeviceKind = z.infer<typeof DeviceKind>;

export const PairingCode = z.object({ code: z.string().regex(/^\d{8}$/), expires_at: z.string() });
export type PairingCode = z.infer<typeof PairingCode>;

export const BindRequest = z.strictObject({
  code: z.string().regex(/^\d{8}$/, "must be the 8-digit pairing code"),
  device_name: z.string().trim().min(1).max(100),
  kind: DeviceKind,
});
export type BindRequest = z.infer<typeof BindRequest>;

export const BindResponse = z.object({
  device_id: z.string(),
  user_id: z.string(),
  token: z.string(),
  expires_at: z.string(),
});
export type BindResponse = z.infer<typeof BindResponse>;

export const Device = z.object({
  id: z.string(),
  name: z.string(),
  kind: DeviceKind,
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  current: z.boolean(),
});
export type Device = z.infer<typeof Device>;

export const BootstrapRequest = z.strictObject({ owner_name: z.string().trim().min(1).max(100).optional() });
export const BootstrapResponse = z.object({ user_id: z.string(), code: z.string(), expires_at: z.string() });
