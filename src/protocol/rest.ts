// REST bodies that have no home in a topic module: path parameters, lists, settings, small acknowledgements.
import { z } from "zod";
import { EmergencyControls } from "./capability.ts";
import { GrantView } from "./grants.ts";
import { CapabilityPrompt, ResolvedPrompt } from "./prompts.ts";

const id = (prefix: string, what: string) =>
  z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{16}$`), `must be a ${what} id (${prefix}_…)`);

export const DeviceParams = z.object({ id: id("dev", "device") });
/** Prompts and proposals share the approval queue: a proposal id (`prp_…`) names its prompt. */
export const PromptParams = z.object({
  id: z
    .string()
    .regex(/^(prm|prp)_[A-Za-z0-9_-]{16}$/, "must be a prompt id (prm_…) or a proposal id (prp_…)"),
});
export const GrantParams = z.object({ id: id("grt", "grant") });
export const CallParams = z.object({ call_id: z.string().min(1).max(200) });
export const SessionParams = z.object({ session_id: z.string().min(1).max(200) });

export const Health = z.object({ ok: z.literal(true) });
export const VersionInfo = z.object({ version: z.string(), build_id: z.string() });

export const DecideQuery = z.object({ wait: z.enum(["true", "false"]).default("true") });
export const SessionEnded = z.object({ ended: z.literal(true), grants_removed: z.number().int() });
/** POST /v1/decisions/{call_id}/withdraw: false when the call was not this device's, or not waiting any more. */
export const CallWithdrawn = z.object({ call_id: z.string(), withdrawn: z.boolean() });

export const ApprovalsQuery = z.object({
  status: z.enum(["pending", "resolved"]).default("pending"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
/** `status=pending` lists CapabilityPrompt items, `status=resolved` ResolvedPrompt items. */
export const ApprovalList = z.object({ approvals: z.array(z.union([ResolvedPrompt, CapabilityPrompt])) });
export const ResolvedApproval = z.object({ prompt: ResolvedPrompt });

/** One saved grant (the shapes live with the other grant shapes, src/protocol/grants.ts). */
export const Grant = GrantView;
export type Grant = GrantView;
export { ConveyorGrantView as ConveyorGrant, GrantList, GrantRuleList } from "./grants.ts";
/** DELETE /v1/grants/{id}: a saved grant (grt_…) or a session grant (sg_…). */
export const AnyGrantParams = z.object({
  id: z
    .string()
    .regex(/^(grt|sg)_[A-Za-z0-9_-]{16}$/, "must be a grant id (grt_…) or a session grant id (sg_…)"),
});
export const GrantDeleted = z.object({ deleted: z.literal(true) });

export const EmergencyPatch = EmergencyControls.partial().refine((p) => Object.keys(p).length > 0, {
  message: "send at least one of readOnly, disableHighImpact, blockedTools",
});
/** The account policy is YAML text; the empty string means "none saved" (the default: ask for everything). */
export const PolicyView = z.object({
  policy: z.string(),
  updated_at: z.string().nullable(),
  emergency: EmergencyControls,
});
export const PolicyBody = z.strictObject({ policy: z.string().max(200_000) });
export const PolicySaved = z.object({ updated_at: z.string() });
export const ApprovalSettings = z.strictObject({
  prompt_timeout_ms: z.number().int().min(1_000).max(600_000),
});

export const AuditAccepted = z.object({ accepted: z.number().int() });
