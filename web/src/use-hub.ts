// The live link of a paired dashboard: one HubSocket (the only transport for prompts and decisions), the approvals
// state it feeds, emergency controls, and the decision outbox (undo window, offline queue, resend on welcome).
import { useCallback, useEffect, useReducer, useRef, useState } from "preact/hooks";
import type { EmergencyControls, PromptDecision } from "../../src/protocol/capability.ts";
import type { ProposalView } from "../../src/protocol/conveyor.ts";
import type { CapabilityPrompt, ResolvedPrompt } from "../../src/protocol/prompts.ts";
import type { RuntimeServerMessage } from "../../src/protocol/runtime.ts";
import { CLOSE_CODES } from "../../src/protocol/session.ts";
import type { ServerMessage } from "../../src/protocol/socket.ts";
import { ApiError, api, socketUrl } from "./api.ts";
import { approvalsReducer, emptyApprovals, openPrompts } from "./approvals-state.ts";
import type { DecisionOutbox, OutboxEntry, SendResult } from "./decision-outbox.ts";
import { HubSocket, type LinkState } from "./hub-socket.ts";
import { capabilityLabel } from "./labels.ts";
import { loadValidators } from "./load-validators.ts";

export interface Hub {
  link: LinkState;
  /** Cards in display order, lingering settled ones included (see `settledOf`). */
  cards: CapabilityPrompt[];
  /** Open prompts only. */
  pending: CapabilityPrompt[];
  settledOf(promptId: string): ResolvedPrompt | undefined;
  resolved: ResolvedPrompt[];
  emergency: EmergencyControls | null;
  setEmergency(controls: EmergencyControls): void;
  deviceId: string | null;
  /** Server time minus local time, from the welcome, so countdowns match the hub's clock. */
  clockOffsetMs: number;
  /** The last thing worth announcing to a screen reader ("New request: …"). */
  announcement: string;
  outbox(promptId: string): OutboxEntry | undefined;
  /** Queues a decision, sent over the socket when live (the hub holds a saving one for its undo window). */
  decide(
    prompt: CapabilityPrompt,
    decision: PromptDecision,
    extra?: { token?: string; message?: string },
  ): void;
  undo(promptId: string): void;
  /** Fetches the single-use token a high-risk allow needs (passkey step-up first when one is registered). */
  confirm(prompt: CapabilityPrompt): Promise<string>;
  /** A proposal's latest state as the socket reported it (`proposal_updated`), by proposal id. */
  proposalOf(proposalId: string): ProposalView | undefined;
  /** The hosted runtime's live messages (chat text as it is written, stored messages, job progress). */
  onRuntime(listener: (message: RuntimeServerMessage) => void): () => void;
}

const RUNTIME_TYPES: ReadonlySet<string> = new Set(["chat_delta", "chat_message", "job_updated"]);
const isRuntime = (m: ServerMessage): m is RuntimeServerMessage => RUNTIME_TYPES.has(m.type);

export function useHub(onUnpaired: (reason: string) => void): Hub {
  const [link, setLink] = useState<LinkState>("connecting");
  const [approvals, dispatch] = useReducer(approvalsReducer, emptyApprovals);
  const [emergency, setEmergency] = useState<EmergencyControls | null>(null);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [clockOffsetMs, setClockOffset] = useState(0);
  const [announcement, setAnnouncement] = useState("");
  const [proposals, setProposals] = useState<ReadonlyMap<string, ProposalView>>(new Map());
  const [, setOutboxVersion] = useState(0);
  const socket = useRef<HubSocket | null>(null);
  const runtimeListeners = useRef(new Set<(message: RuntimeServerMessage) => void>());
  // Built with the validators (it parses what it restores from sessionStorage); nothing can be decided before a
  // card exists, and no card exists before the validators parsed its message.
  const outbox = useRef<DecisionOutbox | null>(null);
  useEffect(() => {
    let current = true;
    loadValidators().then(
      (v) => {
        if (!current) return;
        outbox.current ??= new v.DecisionOutbox(() => setOutboxVersion((n) => n + 1), v.sessionOutboxStore);
        setOutboxVersion((n) => n + 1);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  const clockOffset = useRef(0);
  clockOffset.current = clockOffsetMs;
  const unpaired = useRef(onUnpaired);
  unpaired.current = onUnpaired;

  const flush = useCallback(() => {
    const hub = socket.current;
    if (!hub?.live) return;
    void outbox.current?.flush(async (entry): Promise<SendResult> => {
      try {
        const response = await hub.decide({
          type: "capability_decision",
          promptId: entry.promptId,
          decision: entry.decision,
          ...(entry.confirmationToken ? { confirmationToken: entry.confirmationToken } : {}),
          ...(entry.message ? { message: entry.message } : {}),
          ...(entry.pattern ? { pattern: entry.pattern } : {}),
          ...(entry.undoMs ? { undoMs: entry.undoMs } : {}),
        });
        if (!response.success)
          return { ok: false, final: true, error: response.error ?? "Airlock refused it." };
        // Loaded already: the response itself was parsed by them.
        const v = await loadValidators();
        const held = v.HeldDecision.safeParse(response.data);
        if (held.success)
          return { ok: true, heldUntil: Date.parse(held.data.commitAt) - clockOffset.current };
        const resolved = v.ResolvedPrompt.safeParse(response.data);
        if (resolved.success) dispatch({ type: "resolved", prompt: resolved.data, now: Date.now() });
        return { ok: true };
      } catch (error) {
        // The link dropped before an answer: keep it queued; the next welcome sends it again (the hub's
        // answer to a repeat is "already resolved", never a second decision).
        return { ok: false, final: false, error: error instanceof Error ? error.message : "Not sent." };
      }
    });
  }, []);

  // Held decisions leave their undo window on time (the hub commits them); lingering cards collapse on time.
  useEffect(() => {
    const timer = setInterval(() => {
      const now = Date.now();
      outbox.current?.release(now);
      dispatch({ type: "tick", now });
      flush();
    }, 250);
    return () => clearInterval(timer);
  }, [flush]);

  useEffect(() => {
    const loadResolved = () =>
      api("/v1/approvals?status=resolved&limit=50", (v) => v.ResolvedList).then(
        (list) => dispatch({ type: "resolved_snapshot", prompts: list.approvals }),
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 401)
            unpaired.current("This device is no longer paired.");
        },
      );
    const onMessage = (message: ServerMessage) => {
      if (isRuntime(message)) {
        for (const listener of runtimeListeners.current) listener(message);
        return;
      }
      switch (message.type) {
        case "welcome":
          setDeviceId(message.deviceId);
          setEmergency(message.emergency);
          setClockOffset(Date.parse(message.serverTime) - Date.now());
          dispatch({ type: "sync_started" });
          void loadResolved();
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
          dispatch({ type: "resolved", prompt: message.data, now: Date.now() });
          return;
        case "emergency_updated":
          setEmergency(message.data);
          return;
        case "proposal_updated": {
          const view = message.data;
          setProposals((old) => new Map(old).set(view.id, view));
          return;
        }
        default:
          return;
      }
    };
    const onClose = (code: number) => {
      if (code === CLOSE_CODES.revoked)
        unpaired.current("This device was revoked. Pair it again to keep approving.");
    };
    const onSynced = () => {
      dispatch({ type: "synced" });
      flush();
    };
    const hub = new HubSocket(socketUrl(), { onMessage, onState: setLink, onClose, onSynced });
    socket.current = hub;
    hub.start();
    return () => {
      hub.stop();
      socket.current = null;
    };
  }, [flush]);

  const decide = useCallback(
    (
      prompt: CapabilityPrompt,
      decision: PromptDecision,
      extra: { token?: string; message?: string; pattern?: string } = {},
    ) => {
      const added = outbox.current?.add(
        {
          promptId: prompt.promptId,
          decision,
          ...(extra.token ? { confirmationToken: extra.token } : {}),
          ...(extra.message ? { message: extra.message } : {}),
          ...(extra.pattern ? { pattern: extra.pattern } : {}),
        },
        Date.now(),
      );
      if (added) flush();
    },
    [flush],
  );

  const undo = useCallback(async (promptId: string) => {
    const box = outbox.current;
    if (box?.undo(promptId, Date.now()) !== "ask_hub") return;
    try {
      const hub = socket.current;
      if (!hub) throw new Error("Not connected.");
      const response = await hub.decide({ type: "undo_decision", promptId });
      if (response.success) box.undone(promptId);
      else box.undoRefused(promptId, response.error ?? "Too late to undo.");
    } catch (error) {
      const why = error instanceof Error ? error.message : "Not sent.";
      box.undoRefused(promptId, `Could not undo (${why}); Airlock commits the answer when its window ends.`);
    }
  }, []);

  const confirm = useCallback(async (prompt: CapabilityPrompt) => {
    const answer = await api(
      `/v1/approvals/${encodeURIComponent(prompt.promptId)}/confirm`,
      (v) => v.ConfirmationToken,
      { method: "POST" },
    );
    return answer.token;
  }, []);

  const onRuntime = useCallback((listener: (message: RuntimeServerMessage) => void) => {
    runtimeListeners.current.add(listener);
    return () => {
      runtimeListeners.current.delete(listener);
    };
  }, []);

  return {
    link,
    cards: approvals.pending,
    pending: openPrompts(approvals),
    settledOf: (id) => approvals.settled.get(id)?.prompt,
    resolved: approvals.resolved,
    emergency,
    setEmergency,
    deviceId,
    clockOffsetMs,
    announcement,
    outbox: (id) => outbox.current?.get(id),
    decide,
    undo: (id) => void undo(id),
    confirm,
    proposalOf: (id) => proposals.get(id),
    onRuntime,
  };
}
