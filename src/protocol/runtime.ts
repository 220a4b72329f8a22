// Wire shapes of the hosted agent runtime: jobs, schedules, chat threads and messages, notifications,
// and the events streamed to dashboards while a turn runs (docs/runtime.md).
import { z } from "zod";
import { ProposalState, ProposalSummary } from "./conveyor.ts";
import { Budgets, BudgetsInput, Task } from "./task.ts";

export { Budgets, BudgetsInput, Task } from "./task.ts";

// ---- turns and jobs ----

export const Spend = z.object({
  steps: z.number().int(),
  model_calls: z.number().int(),
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  tool_tokens: z.number().int(),
  cost_usd: z.number(),
  wall_clock_ms: z.number().int(),
});
export type Spend = z.infer<typeof Spend>;

/** `partial`: an effect may have happened in part (a PARTIAL proposal); `failed` includes a FAILED one. */
export const JobState = z.enum([
  "queued",
  "running",
  "waiting_approval",
  "succeeded",
  "failed",
  "partial",
  "cancelled",
]);
export type JobState = z.infer<typeof JobState>;

/** What started a job: the API (a person), a schedule's wakeup, or a webhook delivery. */
export const JobTrigger = z.object({
  kind: z.enum(["api", "schedule", "webhook"]),
  ref: z.string().nullable(),
});
export type JobTrigger = z.infer<typeof JobTrigger>;

/** Why a turn ended without a final answer. */
export const RuntimeErrorCode = z.enum([
  "FAILED_MODEL_OUTPUT",
  "MODEL_UNAVAILABLE",
  "MODEL_NOT_CONFIGURED",
  "BUDGET_EXCEEDED",
  "CANCELLED",
  "INTERNAL",
  /** The model gave a final message, but an effect it asked for failed or ran in part. */
  "VERIFICATION_FAILED",
  /** The model's plan failed validation (terminal safety spec §6), after the repair and the fallback. */
  "PLAN_INVALID",
]);
export type RuntimeErrorCode = z.infer<typeof RuntimeErrorCode>;

export const RuntimeError = z.object({
  code: RuntimeErrorCode,
  message: z.string(),
  /** For BUDGET_EXCEEDED: which limit (`max_tool_steps`, …). */
  bound: z.string().optional(),
});
export type RuntimeError = z.infer<typeof RuntimeError>;

/** One call a step made: a read run inline, or an effect proposed to the conveyor. */
export const StepCall = z.object({
  call_id: z.string(),
  tool: z.string(),
  mode: z.enum(["inline", "proposal", "refused"]),
  status: z.string(),
  proposal_id: z.string().nullable(),
  /** The result was web or webhook content (labelled untrusted for the model). */
  untrusted: z.boolean(),
  detail: z.string(),
});
export type StepCall = z.infer<typeof StepCall>;

export const TurnStep = z.object({
  index: z.number().int(),
  model: z.string(),
  /** Which planner attempt produced this step: first answer, after a repair prompt, or the fallback model. */
  attempt: z.enum(["first", "repair", "fallback"]),
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  status: z.enum(["planned", "waiting", "done"]),
  calls: z.array(StepCall),
  at: z.string(),
});
export type TurnStep = z.infer<typeof TurnStep>;

export const JobProposal = z.object({
  id: z.string(),
  tool: z.string(),
  state: ProposalState,
  summary: ProposalSummary,
});

export const JobView = z.object({
  id: z.string(),
  title: z.string(),
  state: JobState,
  trigger: JobTrigger,
  instructions: z.string(),
  thread_id: z.string(),
  turn_id: z.string(),
  budgets: Budgets,
  spend: Spend,
  steps: z.array(TurnStep),
  proposals: z.array(JobProposal),
  /** The model's final message (its own words; `outcome` says what was verified). */
  result: z.string().nullable(),
  /** Derived from the envelopes of what the job did, never from the model's words; null until it ends. */
  outcome: z.object({ state: z.enum(["succeeded", "failed", "partial"]), summary: z.string() }).nullable(),
  error: RuntimeError.nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  cancel_requested_at: z.string().nullable(),
});
export type JobView = z.infer<typeof JobView>;

/** The list omits steps (GET /v1/jobs/{id} has them). */
export const JobSummary = JobView.omit({ steps: true, proposals: true });
export type JobSummary = z.infer<typeof JobSummary>;

export const CreateJobRequest = Task;
export type CreateJobRequest = Task;

export const JobListQuery = z.object({
  state: JobState.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** `next_cursor` of the previous page (older jobs). */
  cursor: z.string().max(200).optional(),
});

// ---- schedules ----

export const ScheduleKind = z.enum(["cron", "interval", "at"]);
export type ScheduleKind = z.infer<typeof ScheduleKind>;

export const EVERY_SECONDS_MIN = 60;
export const EVERY_SECONDS_MAX = 366 * 24 * 3600;

const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone, e.g. Europe/Berlin or UTC");

const ScheduleSpecFields = {
  cron: z.string().trim().min(9).max(120).optional(),
  every_seconds: z.number().int().min(EVERY_SECONDS_MIN).max(EVERY_SECONDS_MAX).optional(),
  /** RFC 3339 with an offset, or a local date-time (`2026-03-08T09:00:00`) read in `timezone`. */
  at: z.string().min(16).max(40).optional(),
};

function oneSpec(
  v: { kind?: ScheduleKind; cron?: string; every_seconds?: number; at?: string },
  ctx: z.RefinementCtx,
): void {
  if (!v.kind) return;
  const field = { cron: "cron", interval: "every_seconds", at: "at" } as const;
  const wanted = field[v.kind];
  for (const name of ["cron", "every_seconds", "at"] as const) {
    const present = v[name] !== undefined;
    if (name === wanted && !present)
      ctx.addIssue({ code: "custom", path: [name], message: `required for kind ${v.kind}` });
    if (name !== wanted && present)
      ctx.addIssue({ code: "custom", path: [name], message: `not allowed for kind ${v.kind}` });
  }
}

export const CreateScheduleRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    kind: ScheduleKind,
    ...ScheduleSpecFields,
    timezone: TimeZone.default("UTC"),
    task: Task,
  })
  .superRefine(oneSpec);
export type CreateScheduleRequest = z.infer<typeof CreateScheduleRequest>;

export const CreateScheduleResponse = z.object({
  id: z.string(),
  /** RFC 3339, UTC (`…Z`); null when an `at` schedule has nothing left to run. */
  next_run_at: z.string().nullable(),
});

/** Pause or resume, rename, change the timing (kind with its field) or the task. */
export const PatchScheduleRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    paused: z.boolean().optional(),
    kind: ScheduleKind.optional(),
    ...ScheduleSpecFields,
    timezone: TimeZone.optional(),
    task: Task.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind) oneSpec(v, ctx);
    else if (v.cron !== undefined || v.every_seconds !== undefined || v.at !== undefined)
      ctx.addIssue({ code: "custom", path: ["kind"], message: "send kind with cron, every_seconds or at" });
  });
export type PatchScheduleRequest = z.infer<typeof PatchScheduleRequest>;

export const ScheduleView = z.object({
  id: z.string(),
  name: z.string(),
  kind: ScheduleKind,
  cron: z.string().nullable(),
  every_seconds: z.number().int().nullable(),
  at: z.string().nullable(),
  timezone: z.string(),
  task: Task,
  /** `finished`: an `at` schedule that ran (or whose time passed). */
  state: z.enum(["active", "paused", "finished"]),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_job_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ScheduleView = z.infer<typeof ScheduleView>;

export const RunNowResponse = z.object({ job_id: z.string() });

// ---- chat ----

export const CreateThreadRequest = z.strictObject({ title: z.string().trim().min(1).max(200).optional() });

export const ThreadView = z.object({
  id: z.string(),
  title: z.string(),
  job_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ThreadView = z.infer<typeof ThreadView>;

export const ChatRole = z.enum(["user", "assistant", "tool"]);

export const ChatMessage = z.object({
  id: z.string(),
  thread_id: z.string(),
  /** Position in the thread, from 1. */
  seq: z.number().int(),
  role: ChatRole,
  content: z.string(),
  turn_id: z.string().nullable(),
  /** Web or webhook content: shown as data, never as instructions. */
  untrusted: z.boolean(),
  /** On an assistant message that called tools: which, with their arguments as JSON text. */
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).nullable(),
  /** On a tool message: the call it answers. */
  tool: z.object({ call_id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const PostMessageRequest = z.strictObject({
  content: z.string().trim().min(1).max(16_000),
  /** The same id sent again answers the same message and turn (a retry after a lost answer). */
  client_message_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, "8–64 letters, digits, - or _")
    .optional(),
  budgets: BudgetsInput.optional(),
});

export const PostMessageResponse = z.object({ message: ChatMessage, turn_id: z.string() });

export const MessageListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Messages before this seq (older page); `next_cursor` of the previous answer. */
  before: z.coerce.number().int().min(1).optional(),
  /** Messages after this seq (catch up). */
  after: z.coerce.number().int().min(0).optional(),
});

export const MessagePage = z.object({
  messages: z.array(ChatMessage),
  /** Pass as `before` for the older page; null at the start of the thread. */
  next_cursor: z.number().int().nullable(),
});

// ---- notifications ----

export const NotificationView = z.object({
  id: z.string(),
  /** `intervention`: something waits for the person; `proactive`: a job or the notify tool reports. */
  kind: z.enum(["intervention", "proactive"]),
  title: z.string(),
  body: z.string(),
  job_id: z.string().nullable(),
  proposal_id: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type NotificationView = z.infer<typeof NotificationView>;

export const NotificationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

// ---- streamed to dashboards (hub socket) ----

export const ChatDelta = z.object({
  thread_id: z.string(),
  turn_id: z.string(),
  /** The message this text will be stored as (its id in the chat_message that follows). */
  message_id: z.string(),
  /** A new attempt (repair, fallback model) restarts the text: drop what came before. */
  attempt: z.number().int(),
  delta: z.string(),
});

export const RuntimeServerMessage = z.discriminatedUnion("type", [
  /** Text of a reply as the model writes it. */
  z.object({ type: z.literal("chat_delta"), data: ChatDelta }),
  /** A message was stored in a thread (the final form of a streamed reply, a tool result, …). */
  z.object({ type: z.literal("chat_message"), data: ChatMessage }),
  /** A job changed state or made progress (steps, spend). */
  z.object({ type: z.literal("job_updated"), data: JobSummary }),
]);
export type RuntimeServerMessage = z.infer<typeof RuntimeServerMessage>;
