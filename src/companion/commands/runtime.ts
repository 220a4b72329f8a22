// `airlock jobs|schedules|chat …`: the hosted runtime from a terminal. Like hooks, these are approver-only
// at the edge: set AIRLOCK_APPROVER_TOKEN to an approver device's token. Every command takes --json.
import { parseArgs } from "node:util";
import { z } from "zod";
import {
  type ChatMessage,
  CreateScheduleResponse,
  JobSummary,
  JobView,
  MessagePage,
  PostMessageResponse,
  RunNowResponse,
  ScheduleView,
  ThreadView,
} from "../../protocol/runtime.ts";
import { type Command, type CommandIo, ExitCode } from "../cli/command.ts";
import { DEFAULT_SERVER, edgeTimeoutMs, serverOverride } from "../cli/config.ts";
import { EdgeClient, EdgeError, messageForPerson } from "../edge/client.ts";
import { loadCredentials } from "../edge/credentials.ts";

const TOKEN_NOTE = `The edge lets only approver devices run jobs, schedules and chat: set AIRLOCK_APPROVER_TOKEN to
the token of a device paired as an approver. AIRLOCK_SERVER (or the paired server) says where the edge is.`;
const EXITS =
  "Exit codes: 0 done, 1 the edge refused (e.g. 400, 403, 404, 409), 2 bad arguments, 3 no credentials, 4 edge unreachable.";

type Values = Record<string, string | boolean | undefined>;
interface Spec {
  name: [string, string];
  usage: string;
  about: string;
  options?: Record<string, { type: "string" | "boolean" }>;
  /** Positional arguments required, by name. */
  args?: string[];
  run(edge: EdgeClient, args: string[], values: Values): Promise<{ json: unknown; text: string }>;
}

function client(io: CommandIo): EdgeClient | undefined {
  const approver = io.env.AIRLOCK_APPROVER_TOKEN?.trim();
  const stored = loadCredentials(io.env);
  const server = serverOverride(io.env) ?? (stored.ok ? stored.credentials.server : DEFAULT_SERVER);
  const token = approver || (stored.ok ? stored.credentials.token : undefined);
  return token ? new EdgeClient(server, token, edgeTimeoutMs(io.env)) : undefined;
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new EdgeError("invalid", `the edge's answer to ${what} did not match the contract`);
  return parsed.data;
}

const when = (iso: string | null) => (iso ? iso.replace(".000Z", "Z") : "-");
const jobLine = (j: z.infer<typeof JobSummary>) =>
  `${j.id}  ${j.state.padEnd(16)} ${when(j.created_at)}  ${j.title}${j.error ? `  (${j.error.code})` : ""}\n`;
const scheduleLine = (s: ScheduleView) =>
  `${s.id}  ${s.state.padEnd(8)} next ${when(s.next_run_at)}  ${s.kind} ${s.cron ?? s.every_seconds ?? s.at} ${s.timezone}  ${s.name}\n`;
const messageLine = (m: ChatMessage) =>
  `#${m.seq} ${m.role}${m.untrusted ? " (untrusted)" : ""}${m.tool ? ` ${m.tool.name}` : ""}: ${m.content || (m.tool_calls ?? []).map((c) => `[${c.name}]`).join(" ")}\n`;

function job(view: JobView): string {
  const steps = view.steps.map(
    (s) =>
      `  step ${s.index} ${s.model} (${s.attempt}): ${s.calls.map((c) => `${c.tool} ${c.status}`).join(", ") || "answer"}\n`,
  );
  return `${jobLine(view)}  spend ${view.spend.steps} steps, ${view.spend.tokens_in + view.spend.tokens_out} tokens, $${view.spend.cost_usd}\n${steps.join("")}${view.result ? `  result: ${view.result}\n` : ""}${view.error ? `  error: ${view.error.message}\n` : ""}`;
}

const budgetOptions = {
  title: { type: "string" },
  "max-tool-steps": { type: "string" },
  "max-cost-usd": { type: "string" },
} as const;
function task(instructions: string, v: Values) {
  const budgets: Record<string, number> = {};
  if (typeof v["max-tool-steps"] === "string") budgets.max_tool_steps = Number(v["max-tool-steps"]);
  if (typeof v["max-cost-usd"] === "string") budgets.max_cost_usd = Number(v["max-cost-usd"]);
  return {
    instructions,
    ...(typeof v.title === "string" ? { title: v.title } : {}),
    ...(Object.keys(budgets).length ? { budgets } : {}),
  };
}

const specs: Spec[] = [
  {
    name: ["jobs", "list"],
    usage: "airlock jobs list [--state STATE] [--json]",
    about: "Lists jobs, newest first.",
    options: { state: { type: "string" } },
    async run(edge, _args, v) {
      const q = typeof v.state === "string" ? `?state=${encodeURIComponent(v.state)}` : "";
      const page = parse(
        z.object({ jobs: z.array(JobSummary) }).loose(),
        await edge.request("GET", `/v1/jobs${q}`),
        "GET /v1/jobs",
      );
      return { json: page, text: page.jobs.map(jobLine).join("") || "no jobs\n" };
    },
  },
  {
    name: ["jobs", "show"],
    usage: "airlock jobs show <job_id> [--json]",
    about: "Shows a job: state, steps, spend, proposals, result.",
    args: ["job_id"],
    async run(edge, [id]) {
      const { job: view } = parse(
        z.object({ job: JobView }),
        await edge.request("GET", `/v1/jobs/${encodeURIComponent(id ?? "")}`),
        "GET /v1/jobs/{id}",
      );
      return { json: view, text: job(view) };
    },
  },
  {
    name: ["jobs", "create"],
    usage:
      'airlock jobs create "<instructions>" [--title T] [--max-tool-steps N] [--max-cost-usd X] [--json]',
    about: "Starts a job.",
    options: budgetOptions,
    args: ["instructions"],
    async run(edge, [instructions], v) {
      const { job: view } = parse(
        z.object({ job: JobView }),
        await edge.request("POST", "/v1/jobs", task(instructions ?? "", v)),
        "POST /v1/jobs",
      );
      return { json: view, text: jobLine(view) };
    },
  },
  {
    name: ["jobs", "cancel"],
    usage: "airlock jobs cancel <job_id> [--json]",
    about: "Cancels a job: it stops at its next step, and its waiting proposals are rejected.",
    args: ["job_id"],
    async run(edge, [id]) {
      const { job: view } = parse(
        z.object({ job: JobView }),
        await edge.request("POST", `/v1/jobs/${encodeURIComponent(id ?? "")}/cancel`),
        "cancel",
      );
      return { json: view, text: jobLine(view) };
    },
  },
  {
    name: ["schedules", "list"],
    usage: "airlock schedules list [--json]",
    about: "Lists schedules with their next run (UTC).",
    async run(edge) {
      const page = parse(
        z.object({ schedules: z.array(ScheduleView) }),
        await edge.request("GET", "/v1/schedules"),
        "GET /v1/schedules",
      );
      return { json: page, text: page.schedules.map(scheduleLine).join("") || "no schedules\n" };
    },
  },
  {
    name: ["schedules", "create"],
    usage:
      'airlock schedules create <name> (--cron "0 9 * * 1-5" | --every SECONDS | --at 2026-12-01T09:00:00) [--timezone Europe/Berlin] --instructions "…" [--json]',
    about: "Creates a schedule whose runs start the task as a job.",
    options: {
      ...budgetOptions,
      cron: { type: "string" },
      every: { type: "string" },
      at: { type: "string" },
      timezone: { type: "string" },
      instructions: { type: "string" },
    },
    args: ["name"],
    async run(edge, [name], v) {
      const kind = typeof v.cron === "string" ? "cron" : typeof v.every === "string" ? "interval" : "at";
      const body = {
        name,
        kind,
        ...(kind === "cron"
          ? { cron: v.cron }
          : kind === "interval"
            ? { every_seconds: Number(v.every) }
            : { at: v.at }),
        ...(typeof v.timezone === "string" ? { timezone: v.timezone } : {}),
        task: task(typeof v.instructions === "string" ? v.instructions : "", v),
      };
      const made = parse(
        CreateScheduleResponse,
        await edge.request("POST", "/v1/schedules", body),
        "POST /v1/schedules",
      );
      return { json: made, text: `${made.id}  next ${when(made.next_run_at)}\n` };
    },
  },
  ...(["pause", "resume"] as const).map(
    (verb): Spec => ({
      name: ["schedules", verb],
      usage: `airlock schedules ${verb} <schedule_id> [--json]`,
      about:
        verb === "pause"
          ? "Pauses a schedule (missed runs are not made up)."
          : "Resumes a schedule from now.",
      args: ["schedule_id"],
      async run(edge, [id]) {
        const { schedule } = parse(
          z.object({ schedule: ScheduleView }),
          await edge.request("PATCH", `/v1/schedules/${encodeURIComponent(id ?? "")}`, {
            paused: verb === "pause",
          }),
          "PATCH /v1/schedules/{id}",
        );
        return { json: schedule, text: scheduleLine(schedule) };
      },
    }),
  ),
  {
    name: ["schedules", "run-now"],
    usage: "airlock schedules run-now <schedule_id> [--json]",
    about: "Starts the schedule's task now; prints the job id.",
    args: ["schedule_id"],
    async run(edge, [id]) {
      const started = parse(
        RunNowResponse,
        await edge.request("POST", `/v1/schedules/${encodeURIComponent(id ?? "")}/run-now`),
        "run-now",
      );
      return { json: started, text: `${started.job_id}\n` };
    },
  },
  {
    name: ["chat", "new"],
    usage: "airlock chat new [--title T] [--json]",
    about: "Starts a chat thread; prints its id.",
    options: { title: { type: "string" } },
    async run(edge, _args, v) {
      const { thread } = parse(
        z.object({ thread: ThreadView }),
        await edge.request("POST", "/v1/chat/threads", typeof v.title === "string" ? { title: v.title } : {}),
        "POST /v1/chat/threads",
      );
      return { json: thread, text: `${thread.id}\n` };
    },
  },
  {
    name: ["chat", "send"],
    usage: 'airlock chat send <thread_id> "<message>" [--json]',
    about: "Posts a message; the reply is written in the thread (see chat show).",
    args: ["thread_id", "message"],
    async run(edge, [id, content]) {
      const posted = parse(
        PostMessageResponse,
        await edge.request("POST", `/v1/chat/threads/${encodeURIComponent(id ?? "")}/messages`, { content }),
        "POST messages",
      );
      return { json: posted, text: `${posted.message.id} (turn ${posted.turn_id})\n` };
    },
  },
  {
    name: ["chat", "show"],
    usage: "airlock chat show <thread_id> [--json]",
    about: "Prints a thread's latest messages.",
    args: ["thread_id"],
    async run(edge, [id]) {
      const page = parse(
        MessagePage,
        await edge.request("GET", `/v1/chat/threads/${encodeURIComponent(id ?? "")}/messages`),
        "GET messages",
      );
      return { json: page, text: page.messages.map(messageLine).join("") || "no messages\n" };
    },
  },
];

function command(spec: Spec): Command {
  const label = `airlock ${spec.name.join(" ")}`;
  return {
    name: spec.name,
    help: `Usage: ${spec.usage}\n\n${spec.about}\n\n${TOKEN_NOTE}\n\n${EXITS}\n`,
    async run(args, io) {
      let parsed: ReturnType<typeof parseArgs>;
      try {
        parsed = parseArgs({
          args,
          options: { json: { type: "boolean" }, ...spec.options },
          allowPositionals: true,
        });
      } catch (error) {
        io.stderr(`${label}: ${error instanceof Error ? error.message : String(error)}\n`);
        return ExitCode.usage;
      }
      const wanted = spec.args ?? [];
      if (parsed.positionals.length !== wanted.length) {
        io.stderr(`${label}: expected ${wanted.map((a) => `<${a}>`).join(" ") || "no arguments"}\n`);
        return ExitCode.usage;
      }
      const edge = client(io);
      if (!edge) {
        io.stderr(`${label}: no token: set AIRLOCK_APPROVER_TOKEN\n`);
        return ExitCode.config;
      }
      try {
        const out = await spec.run(edge, parsed.positionals, parsed.values as Values);
        io.stdout(parsed.values.json ? `${JSON.stringify(out.json)}\n` : out.text);
        return ExitCode.ok;
      } catch (error) {
        if (!(error instanceof EdgeError)) throw error;
        io.stderr(`${label}: ${messageForPerson(error)}\n`);
        return error.kind === "unreachable" ? ExitCode.unavailable : ExitCode.failure;
      }
    },
  };
}

export const runtimeCommands: Command[] = specs.map(command);
