// Wire shapes of bootstrap, pairing, recovery and devices.
import { z } from "zod";
import { DeviceRole } from "./roles.ts";

/** How a device talks to the edge: `browser` gets the session cookie, `companion` (the CLI) a bearer token. */
export const DeviceKind = z.enum(["companion", "browser"]);
export type DeviceKind = z.infer<typeof DeviceKind>;

/**
 * The role each kind of device is paired as: a browser is the person's approver, the CLI a companion.
 * A code for one role binds only its kind, so an approver token never lands in a file the agent reads.
 */
export const ROLE_OF_KIND = { browser: "approver", companion: "companion" } as const satisfies Record<
  DeviceKind,
  DeviceRole
>;

export const PairingCodeText = z.string().regex(/^\d{8}$/, "must be the 8-digit pairing code");

/**
 * The recovery code: 24 Crockford base32 characters (120 bits), shown once, stored only as an HMAC.
 * Spaces, dashes and case are forgiven on input.
 */
export const RecoveryCodeText = z
  .string()
  .max(64)
  .transform((s) => s.toUpperCase().replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^[0-9A-HJKMNP-TV-Z]{24}$/, "must be the 24-character recovery code"));

export const MintCodeRequest = z.strictObject({
  /** The role the new device will have; a phone usually mints `companion` codes for a dev machine. */
  role: DeviceRole.default("companion"),
});
export type MintCodeRequest = z.infer<typeof MintCodeRequest>;

export const RecoveryMintRequest = z.strictObject({
  recovery_code: RecoveryCodeText,
  role: DeviceRole.default("approver"),
});

export const PairingCode = z.object({ code: PairingCodeText, role: DeviceRole, expires_at: z.string() });
export type PairingCode = z.infer<typeof PairingCode>;

export const BindRequest = z.strictObject({
  code: PairingCodeText,
  device_name: z.string().trim().min(1).max(100),
  kind: DeviceKind,
});
export type BindRequest = z.infer<typeof BindRequest>;

export const BindResponse = z.object({
  device_id: z.string(),
  user_id: z.string(),
  token: z.string(),
  expires_at: z.string(),
  role: DeviceRole,
});
export type BindResponse = z.infer<typeof BindResponse>;

export const Device = z.object({
  id: z.string(),
  name: z.string(),
  kind: DeviceKind,
  role: DeviceRole,
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  current: z.boolean(),
});
export type Device = z.infer<typeof Device>;
export const DeviceList = z.object({ devices: z.array(Device) });
export const DeviceRevoked = z.object({ id: z.string(), revoked: z.literal(true) });

export const BootstrapRequest = z.strictObject({ owner_name: z.string().trim().min(1).max(100).optional() });
export const BootstrapResponse = z.object({
  user_id: z.string(),
  /** An approver pairing code for the person's first phone or browser. */
  code: PairingCodeText,
  role: DeviceRole,
  expires_at: z.string(),
  /** Shown once: mints approver codes when no approver device is at hand. */
  recovery_code: z.string(),
});
export const AdminPairingCode = PairingCode.extend({ user_id: z.string() });
export const RecoveryCode = z.object({ recovery_code: z.string() });
