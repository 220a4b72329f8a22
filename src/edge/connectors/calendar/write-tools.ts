// calendar.create and calendar.update (WRITE; EXFILTRATION when an invitee is outside the account's
// domain: invitations carry the event out), calendar.delete (DESTRUCTIVE). The class is judged at proposal time
// and again at run time, against the invitees actually sent and the account actually used.
import { z } from "zod";
import { approvalCovers, type RiskClass } from "../../../policy/risk-class.ts";
import type { ProposalSummary } from "../../../protocol/conveyor.ts";
import { hashOf } from "../../conveyor/canonical.ts";
import {
  type ConveyorTool,
  failed,
  type ProposalContext,
  type ToolContext,
  type ToolOutcome,
} from "../../conveyor/tool.ts";
import type { ConnectorSession } from "../api-call.ts";
import { domainOf, EmailAddress, isOutcome, OneLine, openSession, writeOutcome } from "../connector-tool.ts";
import { type ConnectorDeps, identityWords } from "../deps.ts";
import { CALENDAR_WRITE_SCOPES, calendarUrl, Event, whenText } from "./api.ts";
import { CalendarId, Instant } from "./read-tools.ts";

const TIMEOUT_MS = 20_000;
const EventId = z.string().regex(/^[A-Za-z0-9_-]{1,1024}$/, "a Calendar event id");
const Attendees = z.array(EmailAddress).max(100);

const CreateArgs = z
  .strictObject({
    calendar_id: CalendarId,
    title: OneLine(300).min(1),
    description: z.string().max(8_000).optional(),
    location: OneLine(500).optional(),
    start: Instant,
    end: Instant,
    attendees: Attendees.default([]),
  })
  .refine((a) => Date.parse(a.start) < Date.parse(a.end), "start must be before end");
type CreateArgs = z.infer<typeof CreateArgs>;

const UpdateArgs = z
  .strictObject({
    calendar_id: CalendarId,
    event_id: EventId,
    title: OneLine(300).min(1).optional(),
    description: z.string().max(8_000).optional(),
    location: OneLine(500).optional(),
    start: Instant.optional(),
    end: Instant.optional(),
    /** The whole new invitee list (invitees are told); absent: invitees unchanged and not notified. */
    attendees: Attendees.optional(),
  })
  .refine(
    (a) => [a.title, a.description, a.location, a.start, a.end, a.attendees].some((v) => v !== undefined),
    "change at least one field",
  );
type UpdateArgs = z.infer<typeof UpdateArgs>;

const DeleteArgs = z.strictObject({
  calendar_id: CalendarId,
  event_id: EventId,
  notify_attendees: z.boolean().default(false),
});
type DeleteArgs = z.infer<typeof DeleteArgs>;

/** Without the account's domain every invitee counts as outside (the higher class). */
const classOf = (attendees: readonly string[] | undefined, domain: string | null): RiskClass =>
  (attendees ?? []).some((x) => domain === null || domainOf(x) !== domain) ? "EXFILTRATION" : "WRITE";

/**
 * The run's own check: the account connected now may not be the one the card named (reconnected as another
 * account since), so the invitees about to be sent are judged against its domain. A class above the approved one
 * is refused before anything is sent. Without a known approved class (no proposal) the static class stands in.
 */
function beyondApproval(
  attendees: readonly string[] | undefined,
  account: string,
  ctx: ToolContext,
): ToolOutcome | null {
  const domain = domainOf(account);
  const actual = classOf(attendees, domain);
  const approved = ctx.approvedRiskClass ?? classOf(attendees, null);
  if (approvalCovers(approved, actual)) return null;
  const outside = (attendees ?? []).filter((x) => domainOf(x) !== domain);
  return failed(
    "permission_denied",
    `Not sent: ${outside.join(", ")} ${outside.length === 1 ? "is" : "are"} outside ${domain} (the domain of ${account}, the account this run acts as), which makes it ${actual}; the approval covered ${approved}.`,
    { remediation: "Propose it again: the card will name the outside invitees and ask for a confirmation." },
  );
}

async function accountOf(deps: ConnectorDeps, ctx: ProposalContext): Promise<string | null> {
  const access = await deps.tokens.access(ctx.userId, "google", ctx.identity).catch(() => null);
  return access && access.identity === ctx.identity ? access.account : null;
}

type EventFields = {
  calendar_id: string;
  title?: string;
  start?: string;
  end?: string;
  attendees?: readonly string[];
};

function eventSummary(
  verb: string,
  a: EventFields,
  account: string | null,
  identity?: ProposalContext["identity"],
): ProposalSummary {
  const who =
    a.attendees === undefined
      ? "invitees unchanged"
      : a.attendees.length
        ? `invites ${a.attendees.join(", ")} (they are emailed)`
        : "no invitees";
  const when = a.start || a.end ? `${a.start ?? "same start"} → ${a.end ?? "same end"}` : "same time";
  return {
    what: `${verb} event "${a.title ?? "(title unchanged)"}"`,
    where: `Google Calendar ${a.calendar_id}${account ? ` of ${account}` : ""}${identity ? ` (${identityWords(identity)})` : ""}`,
    impact: `${when}; ${who}.`,
  };
}

const eventBody = (a: Partial<CreateArgs>) => ({
  ...(a.title === undefined ? {} : { summary: a.title }),
  ...(a.description === undefined ? {} : { description: a.description }),
  ...(a.location === undefined ? {} : { location: a.location }),
  ...(a.start === undefined ? {} : { start: { dateTime: a.start } }),
  ...(a.end === undefined ? {} : { end: { dateTime: a.end } }),
  ...(a.attendees === undefined ? {} : { attendees: a.attendees.map((email) => ({ email })) }),
});

const eventResult = (account: string, e: Event) => ({
  account,
  id: e.id,
  link: e.htmlLink ?? null,
  title: e.summary ?? "",
  start: whenText(e.start),
  end: whenText(e.end),
  attendees: (e.attendees ?? []).map((x) => x.email),
});

/** What Calendar answered a create or a change with, as the run's result. */
function eventWritten(account: string, json: unknown, done: "created" | "updated"): ToolOutcome {
  const event = Event.safeParse(json);
  if (!event.success) return failed("command_error", "Calendar answered an event Airlock cannot read");
  return writeOutcome(eventResult(account, event.data), `${done} ${event.data.id}`);
}

/** The run's session, refused before anything is sent when its account makes the invitees a higher class. */
async function inviteSession(
  deps: ConnectorDeps,
  ctx: ToolContext,
  attendees: readonly string[] | undefined,
): Promise<ConnectorSession | ToolOutcome> {
  const session = await openSession(deps, ctx, "google", CALENDAR_WRITE_SCOPES);
  if (isOutcome(session)) return session;
  return beyondApproval(attendees, session.account, ctx) ?? session;
}

/**
 * A create's or change's card and class: without the connection every invitee counts as outside; with it, the
 * account's domain decides (and the card names the account).
 */
function eventCard(deps: ConnectorDeps, verb: string) {
  return {
    summary: (a: EventFields) => eventSummary(verb, a, null),
    async contextual(a: EventFields, ctx: ProposalContext) {
      const account = await accountOf(deps, ctx);
      return {
        riskClass: classOf(a.attendees, account ? domainOf(account) : null),
        summary: eventSummary(verb, a, account, ctx.identity),
      };
    },
  };
}

export function calendarCreate(deps: ConnectorDeps): ConveyorTool<CreateArgs> {
  return {
    name: "calendar.create",
    description: "Create an event (title, start, end, optional invitees, who are emailed an invitation).",
    schema: CreateArgs,
    riskClass: (a) => classOf(a.attendees, null),
    connection: "google",
    external: true,
    // The event's id comes from the run's key: a second insert is refused as a duplicate, never a second event.
    idempotentDownstream: true,
    grantCoversHigh: false,
    ...eventCard(deps, "Create"),
    grantScope: (a) =>
      `calendar:${a.calendar_id}:create${a.attendees.length ? ` invite:${[...a.attendees].sort().join(",")}` : ""}`,
    timeoutMs: () => TIMEOUT_MS * 2,
    async execute(a, ctx) {
      const session = await inviteSession(deps, ctx, a.attendees);
      if (isOutcome(session)) return session;
      // Calendar ids are base32hex (0-9a-v): "airlock" and 32 hex of the key's SHA-256 is one, and short of
      // the 40-hex run the redactor hides, so the id the model is shown still works for an update.
      const id = `airlock${(await hashOf({ key: ctx.idempotencyKey })).slice(0, 32)}`;
      const base = deps.endpoints().calendar;
      const path = `calendars/${encodeURIComponent(a.calendar_id)}/events`;
      const made = await session.request({
        method: "POST",
        url: calendarUrl(base, path, { sendUpdates: a.attendees.length ? "all" : "none" }),
        json: { id, ...eventBody(a) },
        read: false,
        timeoutMs: TIMEOUT_MS,
      });
      if (!made.ok && made.status === 409) {
        // Created by an earlier attempt of this very run: answer with that event.
        const got = await session.request({
          method: "GET",
          url: calendarUrl(base, `${path}/${id}`),
          read: true,
          timeoutMs: TIMEOUT_MS,
        });
        const existing = got.ok ? Event.safeParse(got.json) : undefined;
        if (existing?.success)
          return writeOutcome(
            { ...eventResult(session.account, existing.data), already_created: true },
            `event ${id} already existed`,
          );
        return made.outcome;
      }
      if (!made.ok) return made.outcome;
      return eventWritten(session.account, made.json, "created");
    },
  };
}

export function calendarUpdate(deps: ConnectorDeps): ConveyorTool<UpdateArgs> {
  return {
    name: "calendar.update",
    description:
      "Change an event's title, description, location, time or invitees (a new list replaces the old; invitees are told).",
    schema: UpdateArgs,
    riskClass: (a) => classOf(a.attendees, null),
    connection: "google",
    external: true,
    // Invitees are emailed on each change: never sent twice on its own.
    idempotentDownstream: false,
    grantCoversHigh: false,
    ...eventCard(deps, "Change"),
    grantScope: (a) => `calendar:${a.calendar_id}:update:${a.event_id}`,
    timeoutMs: () => TIMEOUT_MS * 2,
    async execute(a, ctx) {
      const session = await inviteSession(deps, ctx, a.attendees);
      if (isOutcome(session)) return session;
      const changed = await session.request({
        method: "PATCH",
        url: calendarUrl(
          deps.endpoints().calendar,
          `calendars/${encodeURIComponent(a.calendar_id)}/events/${a.event_id}`,
          {
            sendUpdates: a.attendees === undefined ? "none" : "all",
          },
        ),
        json: eventBody(a),
        read: false,
        timeoutMs: TIMEOUT_MS,
      });
      if (!changed.ok) return changed.outcome;
      return eventWritten(session.account, changed.json, "updated");
    },
  };
}

export function calendarDelete(deps: ConnectorDeps): ConveyorTool<DeleteArgs> {
  return {
    name: "calendar.delete",
    description: "Delete an event (optionally telling its invitees).",
    schema: DeleteArgs,
    riskClass: () => "DESTRUCTIVE",
    connection: "google",
    external: true,
    // Deleting twice deletes once (the second answer is 410 Gone).
    idempotentDownstream: true,
    grantCoversHigh: false,
    summary: (a) => ({
      what: `Delete event ${a.event_id}`,
      where: `Google Calendar ${a.calendar_id}`,
      impact: a.notify_attendees
        ? "Removes the event and emails its invitees."
        : "Removes the event (invitees are not emailed).",
    }),
    grantScope: (a) => `calendar:${a.calendar_id}:delete`,
    timeoutMs: () => TIMEOUT_MS * 2,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "google", CALENDAR_WRITE_SCOPES);
      if (isOutcome(session)) return session;
      const gone = await session.request({
        method: "DELETE",
        url: calendarUrl(
          deps.endpoints().calendar,
          `calendars/${encodeURIComponent(a.calendar_id)}/events/${a.event_id}`,
          {
            sendUpdates: a.notify_attendees ? "all" : "none",
          },
        ),
        read: false,
        timeoutMs: TIMEOUT_MS,
      });
      if (!gone.ok && gone.status === 410)
        return writeOutcome(
          { account: session.account, id: a.event_id, already_deleted: true },
          "already deleted",
        );
      if (!gone.ok) return gone.outcome;
      return writeOutcome(
        { account: session.account, id: a.event_id, deleted: true },
        `deleted ${a.event_id}`,
      );
    },
  };
}
