// Wire shapes of connections (OAuth grants to Google and GitHub, docs/connectors.md): what the phone lists,
// starts and revokes. No token ever crosses this boundary; only who, what and when.
import { z } from "zod";

export const ConnectorProvider = z.enum(["google", "github"]);
export type ConnectorProvider = z.infer<typeof ConnectorProvider>;

/** `user`: the person's own account. `bot`: the assistant's own account. A connection is one or the other. */
export const ConnectorIdentity = z.enum(["user", "bot"]);
export type ConnectorIdentity = z.infer<typeof ConnectorIdentity>;

/**
 * What a connection is asked to allow, one provider scope set each (src/edge/connectors/oauth/providers.ts):
 * the phone asks only for the capabilities the person ticks, and a later connect adds to them (incremental consent).
 */
export const GoogleCapability = z.enum(["mail.read", "mail.compose", "calendar.read", "calendar.write"]);
export const GithubCapability = z.enum(["repo.public", "repo.private"]);
export type GoogleCapability = z.infer<typeof GoogleCapability>;
export type GithubCapability = z.infer<typeof GithubCapability>;
export type ConnectorCapability = GoogleCapability | GithubCapability;

const capabilitiesOf = <C extends z.ZodType>(capability: C) =>
  z
    .array(capability)
    .min(1, "Name at least one capability to ask for.")
    .max(8)
    .refine((list) => new Set(list).size === list.length, "A capability is named twice.");

export const StartConnection = z.discriminatedUnion("provider", [
  z
    .object({
      provider: z.literal("google"),
      identity: ConnectorIdentity,
      capabilities: capabilitiesOf(GoogleCapability),
    })
    .strict(),
  z
    .object({
      provider: z.literal("github"),
      identity: ConnectorIdentity,
      capabilities: capabilitiesOf(GithubCapability),
    })
    .strict(),
]);
export type StartConnection = z.infer<typeof StartConnection>;

export const ConnectionStarted = z.object({
  /** Where the browser goes next: the provider's consent page. */
  authorization_url: z.string().url(),
  /** Scopes asked for at the provider (what the consent page will list). */
  scopes: z.array(z.string()),
  expires_at: z.string(),
});

export const ConnectionView = z.object({
  id: z.string(),
  provider: ConnectorProvider,
  identity: ConnectorIdentity,
  /** An email for Google, a login for GitHub. */
  account: z.string(),
  /** Scopes the provider granted, as it names them. */
  scopes: z.array(z.string()),
  /** `broken`: the provider refused a refresh (revoked there, or expired); connect again. */
  status: z.enum(["active", "broken"]),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ConnectionView = z.infer<typeof ConnectionView>;

export const ConnectionList = z.object({
  connections: z.array(ConnectionView),
  /** Providers this server has OAuth client credentials for (the others cannot be connected yet). */
  configured: z.array(ConnectorProvider),
});
export type ConnectionList = z.infer<typeof ConnectionList>;

export const ConnectionParams = z.object({
  id: z.string().regex(/^con_[A-Za-z0-9_-]{16}$/, "must be a connection id (con_…)"),
});

export const ConnectionRevoked = z.object({
  id: z.string(),
  revoked: z.literal(true),
  /** Whether the provider confirmed the revocation (false: it was unreachable; the tokens are deleted here anyway). */
  provider_revoked: z.boolean(),
});

export const CallbackParams = z.object({ provider: ConnectorProvider });
export const CallbackQuery = z.object({
  state: z.string().min(1).max(200).optional(),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});
