// The live link of a paired dashboard: one HubSocket, the approvals state it feeds, emergency controls, and the
// decide/confirm actions (over the socket, or REST when the socket is down).
import { useCallback, useEffect, useReducer, useRef, useState } from "preact/hooks";
import { z } from "zod";
import type { EmergencyControls, PromptDecision } from "../../src/protocol/capability.ts";
import { CapabilityPrompt, ConfirmationToken, ResolvedPrompt } from "../../src/protocol/prompts.ts";
import type { ServerMessage } from "../../src/protocol/socket.ts";
import { ApiError, api, isPaired, socketUrl } from "./api.ts";
import { approvalsReducer, emptyApprovals } from "./approvals-state.ts";
import { CLOSE_REVOKED, HubSocket, type LinkState } from "./hub-socket.ts";
import { capabilityLabel } from "./labels.ts";

const PendingList = z.object({ approvals: z.array(CapabilityPrompt) });
const ResolvedList = z.object({ approvals: z.array(ResolvedPrompt) });
const Resolved = z.object({ prompt: ResolvedPrompt });

export interface Hub {
  link: LinkState;
  pending: CapabilityPrompt[];
  resolved: ResolvedPrompt[];
  emergency: EmergencyControls | null;
  setEmergency(controls: EmergencyControls): void;
  deviceId: string | null;
  /** Server time minus local time, from the welcome, so countdowns match the hub's clock. */
  clockOffsetMs: number;
  /** The last thing worth announcing to a screen reader ("New request: …"). */
  announcement: string;
  decide(prompt: CapabilityPrompt, decision: PromptDecision, confirmationToken?: string): Promise<void>;
  /** Fetches the single-use token a high-risk allow needs. */
  confirm(prompt: CapabilityPrompt): Promise<string>;
}

const restRoute: Record<PromptDecision, { action: "approve" | "reject"; scope: string }> = {
  allow_once: { action: "approve", scope: "once" },
  allow_session: { action: "approve", scope: "session" },
  allow_always: { action: "approve", scope: "always" },
  deny_once: { action: "reject", scope: "once" },
  deny_always: { action: "reject", scope: "always" },
};

export function useHub(onUnpaired: (reason: string) => void): Hub {
  const [link, setLink] = useState<LinkState>("connecting");
  const [approvals, dispatch] = useReducer(approvalsReducer, emptyApprovals);
  const [emergency, setEmergency] = useState<EmergencyControls | null>(null);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [clockOffsetMs, setClockOffset] = useState(0);
  const [announcement, setAnnouncement] = useState("");
  const socket = useRef<HubSocket | null>(null);
  const unpaired = useRef(onUnpaired);
  unpaired.current = onUnpaired;

  const loadSnapshots = useCallback(async () => {
    dispatch({ type: "sync_started" });
    const [pending, resolved] = await Promise.allSettled([
      api("/v1/approvals?status=pending&limit=50", PendingList),
      api("/v1/approvals?status=resolved&limit=50", ResolvedList),
    ]);
    if (resolved.status === "fulfilled")
      dispatch({ type: "resolved_snapshot", prompts: resolved.value.approvals });
    if (pending.status === "fulfilled")
      dispatch({ type: "pending_snapshot", prompts: pending.value.approvals });
    const failure = [pending, resolved].find((r) => r.status === "rejected");
    if (
      failure?.status === "rejected" &&
      failure.reason instanceof ApiError &&
      failure.reason.status === 401
    ) {
      unpaired.current("This device is no longer paired.");
    }
  }, []);

  useEffect(() => {
    const onMessage = (message: ServerMessage) => {
      switch (message.type) {
        case "welcome":
          setDeviceId(message.deviceId);
          setEmergency(message.emergency);
          setClockOffset(Date.parse(message.serverTime) - Date.now());
          void loadSnapshots();
          return;
        case "capability_prompt":
          setAnnouncement(
            `New request from ${message.data.agent.name}: ${capabilityLabel[message.data.capability]}.`,
          );
          dispatch({ type: "prompt", prompt: message.data });
          return;
        case "prompt_updated":
          dispatch({ type: "prompt", prompt: message.data });
          return;
        case "prompt_resolved":
          dispatch({ type: "resolved", prompt: message.data });
          return;
        case "emergency_updated":
          setEmergency(message.data);
          return;
        default:
          return;
      }
    };
    const onClose = (code: number) => {
      if (code === CLOSE_REVOKED) {
        unpaired.current("This device was revoked. Pair it again to keep approving.");
        return;
      }
      // A socket that fails to open looks the same as a network drop; ask the API whether we are still paired.
      isPaired().then(
        (paired) => paired || unpaired.current("This device is no longer paired."),
        () => {
          // Unreachable: the socket keeps retrying and the indicator already says so.
        },
      );
    };
    const hub = new HubSocket(socketUrl(), { onMessage, onState: setLink, onClose });
    socket.current = hub;
    hub.start();
    // Until the socket says welcome, the REST snapshot fills the page.
    void loadSnapshots();
    return () => {
      hub.stop();
      socket.current = null;
    };
  }, [loadSnapshots]);

  const decide = useCallback(
    async (prompt: CapabilityPrompt, decision: PromptDecision, confirmationToken?: string) => {
      const hub = socket.current;
      if (hub?.live) {
        let answered = false;
        try {
          const response = await hub.decide({
            type: "capability_decision",
            promptId: prompt.promptId,
            decision,
            ...(confirmationToken ? { confirmationToken } : {}),
          });
          answered = true;
          if (!response.success) throw new Error(response.error ?? "Airlock refused the decision.");
          const resolved = ResolvedPrompt.safeParse(response.data);
          if (resolved.success) dispatch({ type: "resolved", prompt: resolved.data });
          return;
        } catch (error) {
          // A refusal is final; only a dropped link falls through to REST.
          if (answered) throw error;
        }
      }
      const route = restRoute[decision];
      const body =
        route.action === "approve" && confirmationToken
          ? { scope: route.scope, confirmation_token: confirmationToken }
          : { scope: route.scope };
      const result = await api(
        `/v1/approvals/${encodeURIComponent(prompt.promptId)}/${route.action}`,
        Resolved,
        {
          method: "POST",
          body,
        },
      );
      dispatch({ type: "resolved", prompt: result.prompt });
    },
    [],
  );

  const confirm = useCallback(async (prompt: CapabilityPrompt) => {
    const answer = await api(
      `/v1/approvals/${encodeURIComponent(prompt.promptId)}/confirm`,
      ConfirmationToken,
      {
        method: "POST",
      },
    );
    return answer.token;
  }, []);

  return {
    link,
    pending: approvals.pending,
    resolved: approvals.resolved,
    emergency,
    setEmergency,
    deviceId,
    clockOffsetMs,
    announcement,
    decide,
    confirm,
  };
}
