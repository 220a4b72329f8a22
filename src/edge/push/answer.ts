// A lock-screen button tapped (the service worker posts it): the answer token names the one prompt and the device
// the notification went to; that device must still be a live approver of the user. The hub then answers like any
// approver's "once" answer (a high-risk allow is still refused there without its confirmation), audited as that
// device's decision.
import { and, eq, isNull } from "drizzle-orm";
import type { PushAnswerDecision } from "../../protocol/dashboard.ts";
import type { ResolvedPrompt } from "../../protocol/prompts.ts";
import { openDb } from "../db/client.ts";
import { devices } from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { unwrap } from "../hub/call.ts";
import { userHub } from "../hub/stub.ts";
import { verifyAnswerToken } from "./answer-token.ts";

const refused = () =>
  new ApiError(
    403,
    "forbidden",
    "This notification can no longer answer: it expired, was altered, or its device was removed. Open Airlock to answer.",
  );

export async function answerFromPush(
  env: Env,
  token: string,
  decision: PushAnswerDecision,
  now = Date.now(),
): Promise<ResolvedPrompt> {
  const claims = await verifyAnswerToken(env.TOKEN_PEPPER, token, now);
  if (!claims) throw refused();
  const [device] = await openDb(env.DB)
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(
        eq(devices.id, claims.deviceId),
        eq(devices.userId, claims.userId),
        eq(devices.role, "approver"),
        isNull(devices.revokedAt),
      ),
    )
    .limit(1);
  if (!device) throw refused();
  const caller = { userId: claims.userId, deviceId: claims.deviceId };
  return unwrap(await userHub(env, claims.userId).resolve(caller, claims.promptId, decision));
}
