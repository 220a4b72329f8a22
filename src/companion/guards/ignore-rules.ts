// The lines of an ignore file (.gitignore, .ignore, .rgignore) the judge relies on to skip a file, read
// as ripgrep reads them. A walk may skip a secret only where the judge's reading provably equals rg's
// (red team, round 10: a byte-order mark, `*.ENV`, `*.e[[:alpha:]]v` were hidden to the judge and read
// by rg). So only plain patterns are trusted: literal names, `*`, `?`, a whole-segment `**`, a leading
// or trailing `/`, a leading `!`, matched case-exact as rg's globset does. Any other ignoring line is
// dropped (the file counts as read), and any other `!` line whitelists everything below its file
// (walking more is never unsafe): dropping an ignore rule or widening a whitelist can only shrink the
// set of paths the judge takes for ignored, whatever the order of the lines.

export type IgnoreVerdict = "ignore" | "whitelist" | null;

export interface IgnoreRule {
  readonly whitelist: boolean;
  readonly dirOnly: boolean;
  readonly re: RegExp;
}

/** A pattern of only literal characters, `*`, `?` and whole-segment `**` (no class, escape, brace, blank). */
const PLAIN = /^[A-Za-z0-9._\-*?/+@%=~,:]+$/;

const MATCH_ALL: IgnoreRule = { whitelist: true, dirOnly: false, re: /^/ };

function segmentRe(seg: string): string {
  return seg
    .replace(/[.+^$()|\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
}

/** The rule rg builds from `pattern` (the line without its `!`), or null when it is not plain. */
function plainRule(pattern: string, whitelist: boolean): IgnoreRule | null {
  if (!PLAIN.test(pattern) || pattern.includes("//")) return null;
  let p = pattern;
  let anchored = false;
  if (p.startsWith("/")) {
    p = p.slice(1);
    anchored = true;
  }
  let dirOnly = false;
  if (p.endsWith("/")) {
    p = p.slice(0, -1);
    dirOnly = true;
  }
  if (p === "" || p.startsWith("/") || p.endsWith("/")) return null;
  const segs = p.split("/");
  if (segs.some((s) => s.includes("**") && s !== "**")) return null;
  // No slash: it matches at any depth (rg prefixes `**/`); `x/**` matches what is inside x, not x.
  if (!anchored && segs.length === 1 && segs[0] !== "**") segs.unshift("**");
  if (segs[segs.length - 1] === "**" && segs.length > 1) segs.push("*");
  let re = "";
  segs.forEach((s, i) => {
    const last = i === segs.length - 1;
    if (s === "**") re += last ? ".*" : "(?:.*/)?";
    else re += segmentRe(s) + (last ? "" : "/");
  });
  return { whitelist, dirOnly, re: new RegExp(`^${re}$`) };
}

/** The rules the judge trusts from an ignore file's text, in file order. */
export function ignoreRules(body: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of body.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line === "" || line.startsWith("#")) continue;
    const whitelist = line.startsWith("!");
    const rule = plainRule(whitelist ? line.slice(1) : line, whitelist);
    if (rule !== null) rules.push(rule);
    else if (whitelist) rules.push(MATCH_ALL);
  }
  return rules;
}

/** The last rule matching `rel` (relative to the file's directory, no trailing slash) decides. */
export function ignoreVerdict(rules: readonly IgnoreRule[], rel: string, isDir: boolean): IgnoreVerdict {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i] as IgnoreRule;
    if (r.dirOnly && !isDir) continue;
    if (r.re.test(rel)) return r.whitelist ? "whitelist" : "ignore";
  }
  return null;
}
