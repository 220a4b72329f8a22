// The runtime's side of a user's UserHub (RPC): proposals into the conveyor, emergency controls,
// withdrawing a cancelled job's proposals, and messages to the user's open dashboards.

import { ProposeResult } from "../hub/result.ts";
import { userHub } from "../hub/stub.ts";
import type { Caller } from "../hub/user-hub.ts";
import type { RuntimeHub } from "./ports.ts";

/** `decider` is who acts: the runtime itself (no device), or the person cancelling a job. */
export function runtimeHub(env: Env, userId: string, deviceId: string | null = null): RuntimeHub {
  const hub = userHub(env, userId);
  const caller: Caller = { userId, deviceId };
  return {
    async propose(request, source) {
      const result = ProposeResult.parse(await hub.propose(caller, request, source));
      return result.ok
        ? { ok: true, view: result.value.view }
        : { ok: false, code: result.code, message: result.message, details: result.details };
    },
    emergency: () => hub.emergency(caller),
    async withdrawProposal(proposalId) {
      const promptId = await hub.promptOfProposal(caller, proposalId);
      if (promptId) await hub.resolve(caller, promptId, "deny_once");
    },
    async broadcast(message) {
      await hub.broadcastRuntime(caller, message);
    },
  };
}
