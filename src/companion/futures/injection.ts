// Injection modes: what, if anything, the model is told about warmed futures when the prompt is submitted.
// `silent-futures` (the default) says nothing; futures are served only through the normal tools.
import type { InjectionMode } from "./switches.ts";
import type { Future } from "./workspace.ts";

/** `full` mode stops adding file contents past this many bytes. */
const MAX_FULL_BYTES = 64 * 1024;

function label(future: Future): string {
  return future.kind === "read" ? `read ${future.relative}` : `bash ${future.command}`;
}

export function injectionText(
  mode: InjectionMode,
  futures: readonly Future[],
  warming: readonly string[],
): string {
  const armed = futures.length + warming.length;
  switch (mode) {
    case "silent-futures":
    case "off":
      return "";
    case "verified-futures":
      return armed === 0
        ? ""
        : `[Airlock precognition] ${armed} read-only future(s) armed; they are served only when you call the tool.`;
    case "cache-index": {
      const keys = [...futures.map(label), ...warming.map((c) => `bash ${c} (warming)`)];
      return keys.length === 0
        ? ""
        : `[Airlock precognition] Warmed, served only when you call the tool: ${keys.join("; ")}`;
    }
    case "full": {
      const parts: string[] = [];
      let used = 0;
      for (const f of futures) {
        if (f.kind !== "read") continue;
        const text = f.bytes.toString("utf8");
        if (used + text.length > MAX_FULL_BYTES) break;
        used += text.length;
        parts.push(`<file path="${f.relative}">\n${text}\n</file>`);
      }
      return parts.length === 0 ? "" : `[Airlock precognition: warmed files]\n${parts.join("\n")}`;
    }
  }
}
