// Wire shapes of the dashboard's own routes: Web Push subscriptions, passkeys and step-up, policy tools.
import { z } from "zod";
import { DecisionRequest } from "./decisions.ts";

const base64url = (min: number, max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url")
    .min(min)
    .max(max);

export const VapidKey = z.object({ public_key: z.string() });

/** A browser's PushSubscription.toJSON(): p256dh is a 65-byte P-256 point, auth a 16-byte secret. */
export const PushSubscribeRequest = z.strictObject({
  endpoint: z.string().url().max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(86, 88), auth: base64url(22, 24) }),
});
export const PushUnsubscribeRequest = z.strictObject({ endpoint: z.string().max(2000) });
export const PushSubscriptionList = z.object({
  subscriptions: z.array(
    z.object({
      id: z.string(),
      device_id: z.string(),
      /** Only the push service's host: the endpoint itself is a capability URL. */
      service: z.string(),
      created_at: z.string(),
      last_sent_at: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
});
export const Created = z.object({ id: z.string() });
export const Deleted = z.object({ deleted: z.boolean() });
export const PushTestResult = z.object({ sent: z.number().int(), subscriptions: z.number().int() });

/** The lock-screen buttons of a prompt's notification: what a push answer may decide (never "always"). */
export const PushAnswerDecision = z.enum(["allow_once", "deny_once"]);
export type PushAnswerDecision = z.infer<typeof PushAnswerDecision>;
/** A notification's button tapped: the answer token from the push (it names the one prompt) and the button. */
export const PushAnswerRequest = z.strictObject({
  token: z.string().min(1).max(1000),
  decision: PushAnswerDecision,
});
export const PushAnswerResult = z.object({
  prompt_id: z.string(),
  resolution: z.string(),
});

export const PasskeyList = z.object({
  passkeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      device_id: z.string().nullable(),
      /** The RP ID it signs for and the origin it was registered on (null: saved before hosts were kept). */
      rp_id: z.string().nullable().optional(),
      origin: z.string().nullable().optional(),
      /** Whether it can sign a step-up on the host this list was asked from (the dashboard offers app lock then). */
      signs_here: z.boolean().optional(),
      created_at: z.string(),
      last_used_at: z.string().nullable(),
    }),
  ),
});
/** WebAuthn options JSON (@simplewebauthn's PublicKeyCredential*OptionsJSON), passed to the browser as is. */
export const WebAuthnOptions = z.record(z.string(), z.unknown());
/** The browser's credential JSON; @simplewebauthn/server checks every field of it. */
const CredentialJson = z.record(z.string(), z.unknown());
export const PasskeyRegisterRequest = z.strictObject({
  name: z.string().trim().min(1).max(100).default("Passkey"),
  response: CredentialJson,
});
export const StepUpRequest = z.strictObject({ response: CredentialJson });
export const StepUpToken = z.object({ token: z.string(), expires_at: z.string() });
export const PasskeyParams = z.object({ id: z.string().min(1).max(300) });

export const PolicyValidateRequest = z.strictObject({ policy: z.string().max(200_000) });
export const PolicyValidation = z.object({ ok: z.boolean(), errors: z.array(z.unknown()) });
export const PolicyExplainRequest = z.strictObject({
  tool: DecisionRequest.shape.tool,
  input: DecisionRequest.shape.input,
  cwd: DecisionRequest.shape.cwd,
  agent: z.string().min(1).max(200).optional(),
  /** A draft to explain instead of the saved account policy. */
  policy: z.string().max(200_000).optional(),
});
export const PolicyExplanation = z.object({
  action: z.string(),
  rule: z.string().nullable(),
  layer: z.string(),
  risk: z.string(),
  capability: z.string(),
  scope: z.string(),
  message: z.string().nullable(),
});

/** Live allow_session grants (GET /v1/grants/session): each ends with its agent session or after a day unused. */
export const SessionGrantList = z.object({
  grants: z.array(
    z.object({
      id: z.string(),
      session_id: z.string(),
      agent_id: z.string(),
      capability: z.string(),
      scope_pattern: z.string().nullable(),
      created_at: z.string(),
      last_used_at: z.string(),
    }),
  ),
});
export const SessionGrantParams = z.object({
  id: z.string().regex(/^sg_[A-Za-z0-9_-]{16}$/, "must be a session grant id (sg_…)"),
});
