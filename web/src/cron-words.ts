// A cron expression in words ("At 09:00, Monday through Friday") for the schedule form, with cronstrue; an
// expression cronstrue cannot read is reported next to the field before anything is sent. The server's own parser
// (croner) still decides; its refusal is shown at the same place.
import cronstrue from "cronstrue";

export type CronWords = { ok: true; text: string } | { ok: false; error: string };

export function cronInWords(expression: string): CronWords {
  const trimmed = expression.trim();
  if (!trimmed) return { ok: false, error: "Enter a cron expression, e.g. 0 9 * * 1-5." };
  const fields = trimmed.split(/\s+/).length;
  if (fields < 5 || fields > 6)
    return {
      ok: false,
      error: `A cron expression has 5 fields (minute hour day month weekday); this has ${fields}.`,
    };
  try {
    return {
      ok: true,
      text: cronstrue.toString(trimmed, { use24HourTimeFormat: true, throwExceptionOnParseError: true }),
    };
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `Not a cron expression Airlock can read: ${said.replace(/^Error:\s*/, "")}` };
  }
}
