// Calendar v3 as the tools use it: paths under /calendar/v3, the Event and FreeBusy shapes they read, and
// the scopes each kind of call needs (least privileged first).
import { z } from "zod";

const G = "https://www.googleapis.com/auth/";
export const CALENDAR_READ_SCOPES = [
  `${G}calendar.events.readonly`,
  `${G}calendar.readonly`,
  `${G}calendar.events`,
  `${G}calendar`,
];
export const CALENDAR_FREEBUSY_SCOPES = [`${G}calendar.freebusy`, ...CALENDAR_READ_SCOPES];
export const CALENDAR_WRITE_SCOPES = [`${G}calendar.events`, `${G}calendar`];

export function calendarUrl(base: string, path: string, query: Record<string, string> = {}): string {
  const url = new URL(`/calendar/v3/${path}`, base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

const When = z.object({
  dateTime: z.string().optional(),
  date: z.string().optional(),
  timeZone: z.string().optional(),
});

export const Event = z.object({
  id: z.string(),
  status: z.string().optional(),
  htmlLink: z.string().optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  location: z.string().optional(),
  start: When.optional(),
  end: When.optional(),
  organizer: z.object({ email: z.string().optional() }).optional(),
  attendees: z.array(z.object({ email: z.string(), responseStatus: z.string().optional() })).optional(),
});
export type Event = z.infer<typeof Event>;

export const EventList = z.object({ items: z.array(Event).optional(), nextPageToken: z.string().optional() });

export const FreeBusy = z.object({
  calendars: z.record(
    z.string(),
    z.object({
      busy: z.array(z.object({ start: z.string(), end: z.string() })).optional(),
      errors: z.array(z.object({ reason: z.string().optional() })).optional(),
    }),
  ),
});

export const whenText = (w: Event["start"]) => w?.dateTime ?? w?.date ?? "?";
