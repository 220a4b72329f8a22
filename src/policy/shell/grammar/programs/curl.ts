// curl (7.88, Debian 12; 8.x): understood only as one GET or HEAD of a loopback address, the health check of a
// dev server (red team, round 22 over-asks: `curl -s localhost:3000`, `curl -sI http://127.0.0.1:8080/health`).
// The URL's host is `localhost` (curl answers it with loopback itself since 7.78, without /etc/hosts: proven
// with strace), 127.x.y.z or [::1], over http or https, with no user part and no glob; the options are a closed
// set that only shapes what is printed (-s -S -i -I -f -v, -m/--max-time, --connect-timeout, -o /dev/null, -w
// without `@FILE` or `%output{}`). Everything else is not understood: a body or another method (-d -F -T -X), a
// config file (-K), a file written (-o FILE, -O), a redirect followed out (-L), a proxy, a header, cookies, netrc,
// credentials, several URLs. Which program serves the port, and the agent's proxy variables, are the disk's to
// judge (guards/loopback-listeners.ts).

import type { Arg } from "../../wrappers.ts";
import { emptyEffects } from "../parse.ts";
import type { ProgramGrammar, Understanding } from "../spec.ts";

/** Flags that only shape what is printed (short and long spellings curl takes exactly). */
const FLAGS = new Set([
  ..."sSiIfv",
  "--silent",
  "--show-error",
  "--include",
  "--head",
  "--fail",
  "--fail-with-body",
  "--verbose",
  "--no-progress-meter",
  "--compressed",
]);
/** Options whose value is the next word (or, short, the rest of the cluster), each with what it may be. */
const VALUES: Readonly<Record<string, (v: string) => boolean>> = {
  m: isSeconds,
  "--max-time": isSeconds,
  "--connect-timeout": isSeconds,
  o: (v) => v === "/dev/null",
  "--output": (v) => v === "/dev/null",
  // `-w @FILE` reads the format from a file; curl 8.3's `%output{FILE}` writes what follows to one.
  w: isPrintedFormat,
  "--write-out": isPrintedFormat,
};

function isSeconds(v: string): boolean {
  return /^\d+(\.\d+)?$/.test(v);
}

function isPrintedFormat(v: string): boolean {
  return !v.startsWith("@") && !v.includes("%output");
}

/** An IPv4 loopback address as dotted decimals without leading zeros (curl reads `0127.1` as octal). */
function isLoopbackV4(host: string): boolean {
  const parts = host.split(".");
  return (
    parts.length === 4 &&
    parts[0] === "127" &&
    parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)
  );
}

/** The port a loopback URL names (its scheme's default when none), or null for any other URL. */
export function loopbackPort(url: string): number | null {
  const m = /^(?:(https?):\/\/)?([^/?#]*)([/?#].*)?$/s.exec(url);
  if (m === null) return null;
  const [, scheme, authority = "", rest = ""] = m;
  // curl globs `[a-b]` and `{a,b}` anywhere in a URL; blanks, controls and backslashes are not read here.
  if ([...rest].some((c) => c <= " " || c === "\x7f" || "[]{}\\".includes(c))) return null;
  const hp = /^(localhost|\[::1\]|[\d.]+)(?::(\d{1,5}))?$/.exec(authority);
  if (hp === null) return null;
  const [, host = "", port] = hp;
  if (host !== "localhost" && host !== "[::1]" && !isLoopbackV4(host)) return null;
  const n = port === undefined ? (scheme === "https" ? 443 : 80) : Number(port);
  return n >= 1 && n <= 65535 ? n : null;
}

/** Why a word of a curl call is not one loopback GET or HEAD, or the port it asks; words as bash passes them. */
export function loopbackRequest(words: readonly (string | null)[]): { port: number } | { refused: string } {
  let port: number | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === null || w === undefined) return { refused: "a word only known at run time" };
    if (w.startsWith("--")) {
      if (FLAGS.has(w)) continue;
      const check = VALUES[w];
      const value = words[++i];
      if (check === undefined || value == null || !check(value)) return { refused: w };
      continue;
    }
    if (w.startsWith("-") && w !== "-") {
      for (let k = 1; k < w.length; k++) {
        const c = w[k] as string;
        if (FLAGS.has(c)) continue;
        const check = VALUES[c];
        const glued = w.slice(k + 1);
        const value = glued !== "" ? glued : words[++i];
        if (check === undefined || value == null || !check(value)) return { refused: w };
        break;
      }
      continue;
    }
    if (port !== null) return { refused: w };
    port = loopbackPort(w);
    if (port === null) return { refused: w };
  }
  return port === null ? { refused: "curl" } : { port };
}

function judgeCurl(argv: readonly Arg[]): Understanding {
  // A glob bash expands may become other words, or several.
  const r = loopbackRequest(argv.slice(1).map((a) => (a.glob ? null : a.value)));
  if ("port" in r) return { understood: true, effects: emptyEffects("read") };
  return {
    understood: false,
    why: {
      word: r.refused,
      reason:
        "curl is understood only as one GET or HEAD of localhost, 127.x.y.z or [::1] with options that shape what it prints",
    },
    effects: emptyEffects("read"),
  };
}

export const curl: ProgramGrammar = {
  names: ["curl"],
  options: [],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgeCurl,
};
