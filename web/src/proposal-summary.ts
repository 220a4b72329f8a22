// A proposal's one-line summary for lists and the detail header.

/** The backend-rendered summary: `{what, where, impact}` (or plain text from older servers). */
export function summaryText(p: Record<string, unknown>): string {
  const summary = p.summary;
  if (summary && typeof summary === "object") {
    const s = summary as Record<string, unknown>;
    return [s.what, s.where, s.impact]
      .filter((v): v is string => typeof v === "string" && v !== "")
      .join(" · ");
  }
  for (const key of ["summary", "justification"]) {
    const value = p[key];
    if (typeof value === "string") return value;
  }
  return "";
}
