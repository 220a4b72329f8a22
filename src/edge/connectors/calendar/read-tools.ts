// calendar.list and calendar.freebusy (READ). Event titles and descriptions are other people's words:
// labelled untrusted like every connector read.
import { z } from "zod";
import { type ConveyorTool, failed } from "../../conveyor/tool.ts";
import { isOutcome, openSession, readOutcome, readTool } from "../connector-tool.ts";
import type { ConnectorDeps } from "../deps.ts";
import {
  CALENDAR_FREEBUSY_SCOPES,
  CALENDAR_READ_SCOPES,
  calendarUrl,
  EventList,
  FreeBusy,
  whenText,
} from "./api.ts";

const TIMEOUT_MS = 15_000;
export const CalendarId = z
  .string()
  .min(1)
  .max(254)
  .regex(/^[^\s/?#]+$/, "a calendar id (e.g. primary or an address)")
  .default("primary");
export const Instant = z.iso.datetime({ offset: true });

const ListArgs = z
  .strictObject({
    calendar_id: CalendarId,
    time_min: Instant,
    time_max: Instant,
    query: z.string().max(200).optional(),
    max_results: z.number().int().min(1).max(100).default(25),
  })
  .refine((a) => Date.parse(a.time_min) < Date.parse(a.time_max), "time_min must be before time_max");
type ListArgs = z.infer<typeof ListArgs>;

const FreeBusyArgs = z
  .strictObject({
    time_min: Instant,
    time_max: Instant,
    calendars: z.array(z.string().min(1).max(254)).min(1).max(20).default(["primary"]),
  })
  .refine((a) => Date.parse(a.time_min) < Date.parse(a.time_max), "time_min must be before time_max");
type FreeBusyArgs = z.infer<typeof FreeBusyArgs>;

export function calendarList(deps: ConnectorDeps): ConveyorTool<ListArgs> {
  return {
    name: "calendar.list",
    description: "List events of a calendar between two instants (RFC 3339), soonest first.",
    schema: ListArgs,
    ...readTool("google"),
    summary: (a) => ({
      what: "List calendar events",
      where: `Google Calendar ${a.calendar_id}`,
      impact: `None: reads events from ${a.time_min} to ${a.time_max}.`,
    }),
    grantScope: (a) => `calendar:${a.calendar_id}:read`,
    timeoutMs: () => TIMEOUT_MS * 3,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "google", CALENDAR_READ_SCOPES);
      if (isOutcome(session)) return session;
      const got = await session.request({
        method: "GET",
        url: calendarUrl(deps.endpoints().calendar, `calendars/${encodeURIComponent(a.calendar_id)}/events`, {
          timeMin: a.time_min,
          timeMax: a.time_max,
          singleEvents: "true",
          orderBy: "startTime",
          maxResults: String(a.max_results),
          ...(a.query ? { q: a.query } : {}),
        }),
        read: true,
        timeoutMs: TIMEOUT_MS,
      });
      if (!got.ok) return got.outcome;
      const list = EventList.safeParse(got.json);
      if (!list.success)
        return failed("command_error", "Calendar answered an event list Airlock cannot read");
      const events = (list.data.items ?? []).map((e) => ({
        id: e.id,
        summary: e.summary ?? "",
        start: whenText(e.start),
        end: whenText(e.end),
        location: e.location ?? null,
        attendees: (e.attendees ?? []).map((x) => x.email),
      }));
      const text = events.length
        ? events
            .map(
              (e) =>
                `- ${e.start} → ${e.end}: "${e.summary}" (id ${e.id})${e.attendees.length ? ` with ${e.attendees.join(", ")}` : ""}`,
            )
            .join("\n")
        : "No events in that window.";
      return readOutcome({ account: session.account, events, text }, `${events.length} events`);
    },
  };
}

export function calendarFreeBusy(deps: ConnectorDeps): ConveyorTool<FreeBusyArgs> {
  return {
    name: "calendar.freebusy",
    description: "When calendars are busy between two instants (no event details).",
    schema: FreeBusyArgs,
    ...readTool("google"),
    summary: (a) => ({
      what: "Check free/busy",
      where: `Google Calendar ${a.calendars.join(", ")}`,
      impact: `None: reads busy times from ${a.time_min} to ${a.time_max}.`,
    }),
    grantScope: () => "calendar:freebusy",
    timeoutMs: () => TIMEOUT_MS * 3,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "google", CALENDAR_FREEBUSY_SCOPES);
      if (isOutcome(session)) return session;
      const got = await session.request({
        method: "POST",
        url: calendarUrl(deps.endpoints().calendar, "freeBusy"),
        json: { timeMin: a.time_min, timeMax: a.time_max, items: a.calendars.map((id) => ({ id })) },
        // A query, not a change: safe to ask again.
        read: true,
        timeoutMs: TIMEOUT_MS,
      });
      if (!got.ok) return got.outcome;
      const fb = FreeBusy.safeParse(got.json);
      if (!fb.success) return failed("command_error", "Calendar answered free/busy Airlock cannot read");
      const calendars = Object.entries(fb.data.calendars).map(([id, c]) => ({
        id,
        busy: c.busy ?? [],
        errors: (c.errors ?? []).map((e) => e.reason ?? "error"),
      }));
      const text = calendars
        .map(
          (c) =>
            `${c.id}: ${c.errors.length ? `error ${c.errors.join(", ")}` : c.busy.length ? c.busy.map((b) => `${b.start}–${b.end}`).join(", ") : "free"}`,
        )
        .join("\n");
      return readOutcome({ account: session.account, calendars, text }, `${calendars.length} calendars`);
    },
  };
}
