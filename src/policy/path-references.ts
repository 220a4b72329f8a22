// Paths a user's configuration names for a program to run or read as configuration (red team, round 16:
// ~/.ssh/config's `Include`, ~/.aws/config's credential_process, a systemd unit's ExecStart naming project
// files), read from each format's text. Pure: the disk side (which files, their include chains, the cache)
// is guards/config-references.ts; shell start-up files are read by shell-sources.ts.
import { parse as parseYaml } from "yaml";
import { parseBash } from "./shell/parser.ts";
import type { Word, WordPart } from "./shell/walk.ts";

/** One piece of a named path: text as written, a glob the program expands, or a part only known at run time. */
export type PathPart = { type: "lit"; value: string } | { type: "glob"; value: string } | { type: "any" };

/** A path a configuration names, absolute once expanded (parts), and what running or reading it does. */
export interface Reference {
  parts: PathPart[];
  /** A directory whose every file counts (a hooks directory, a plug-in directory). */
  below: boolean;
  /** What the naming file does with it, as a person reads it ("sources it", "runs it as credential_process"). */
  how: string;
  /** Another configuration of the same format: the disk side reads it too (an include chain). */
  follow?: "git" | "ssh" | "shell";
  /**
   * The parts are relative to the top of whichever git work tree the path is in (a relative core.hooksPath,
   * a program path git runs from the top): the disk side finds the tops at write time.
   */
  inRepo?: true;
}

/** What a path in a configuration expands against. */
export interface Expansion {
  home: string;
  /** Where a relative path lands (the including file's directory, ~/.ssh); null: relative names nothing known. */
  base: string | null;
}

const GLOB = /[*?]|\[[^\]/]*\]/g;

/** Text with its unquoted glob characters as glob parts. */
export function globParts(text: string): PathPart[] {
  const out: PathPart[] = [];
  let at = 0;
  for (const m of text.matchAll(GLOB)) {
    if (m.index > at) out.push({ type: "lit", value: text.slice(at, m.index) });
    out.push({ type: "glob", value: m[0] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ type: "lit", value: text.slice(at) });
  return out;
}

/** `~` and `~/…` from home, a relative path from the base; null for `~user` or a relative path without a base. */
export function absolutePath(text: string, x: Expansion): string | null {
  if (text === "~" || text.startsWith("~/")) return x.home + text.slice(1);
  if (text.startsWith("/")) return text;
  if (text === "" || text.startsWith("~") || x.base === null) return null;
  return `${x.base}/${text}`;
}

/** A written path (globs allowed) as a reference, or null when it names nothing known. */
export function pathReference(
  text: string,
  x: Expansion,
  how: string,
  extra: Partial<Pick<Reference, "below" | "follow">> = {},
): Reference | null {
  const path = absolutePath(text.trim(), x);
  return path === null ? null : { parts: globParts(path), below: extra.below ?? false, how, ...extra };
}

/**
 * A sourced file whose whole name is only known at run time (`. "$f"`): any of the project's shell scripts
 * may be it. Narrower than every write, as the brief of the fix asks; wider than nothing.
 */
const ANY_SCRIPT = /\.(sh|bash|zsh|ksh|fish|csh)$/;

function partSource(p: PathPart): string {
  if (p.type === "any") return ".*";
  if (p.type === "lit") return p.value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (p.value === "*") return "[^/]*";
  if (p.value === "?") return "[^/]";
  const body = p.value.slice(1, -1).replace(/^!/, "^").replace(/\\/g, "\\\\");
  return `[${body}]`;
}

/** A path none of whose names is known (`. "$1"`): only `/` is written out. */
export function namesNothingKnown(parts: readonly PathPart[]): boolean {
  return !parts.some((p) => p.type === "lit" && p.value.replace(/\//g, "") !== "");
}

/** A reference as a test of a whole path (and, for a directory, of every path below it). */
export function referencePattern(parts: readonly PathPart[], below: boolean): RegExp {
  if (namesNothingKnown(parts)) return ANY_SCRIPT;
  try {
    return new RegExp(`^${parts.map(partSource).join("")}${below ? "(?:/.*)?" : ""}$`);
  } catch {
    return new RegExp(`^${parts.map((p) => (p.type === "lit" ? partSource(p) : ".*")).join("")}`);
  }
}

/** The words of a command line as a shell splits them (quotes removed); null when it does not parse. */
function shellWords(command: string): Word[] | null {
  try {
    return parseBash(command).events.flatMap((e) =>
      e.kind === "stmt" && e.cmd?.type === "call" ? e.cmd.args : [],
    );
  } catch {
    return null;
  }
}

/** A word's text when every part is literal (quoted or not); `$HOME` counts as home. */
function literalWord(parts: readonly WordPart[], home: string): string | null {
  let out = "";
  for (const p of parts) {
    if (p.type === "lit" || p.type === "sgl") out += p.value;
    else if (p.type === "param" && p.name === "HOME") out += home;
    else if (p.type === "dbl") {
      const inner = literalWord(p.parts, home);
      if (inner === null) return null;
      out += inner;
    } else return null;
  }
  return out;
}

/**
 * Every absolute (or `~`) path among the words of a command a configuration runs: the program and the
 * scripts and files it is given (`python3 /proj/creds.py`, `env X=1 /proj/bin/server`). A command that
 * does not parse is split at blanks, its quotes dropped.
 */
export function commandPaths(command: string, home: string, how: string): Reference[] {
  const text = command.replace(/^\s*!/, "");
  const words =
    shellWords(text)?.map((w) => literalWord(w.parts, home)) ??
    text.split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ""));
  const out: Reference[] = [];
  for (const word of words) {
    if (word === null || !/^(~\/|\/)/.test(word)) continue;
    const r = pathReference(word, { home, base: null }, how);
    if (r !== null) out.push(r);
  }
  return out;
}

/**
 * A path relative to a git work tree's top (`tools/hooks`, `./bin/gpg-wrap`), as the reference git makes of
 * it when it runs there; null for an absolute, `~`, empty or climbing one (`../x` is another tree's).
 */
export function repoReference(text: string, how: string, below = false): Reference | null {
  const rel = text
    .trim()
    .replace(/^(\.\/+)+/, "")
    .replace(/\/+$/, "");
  if (rel === "" || rel === "." || /^[~/]/.test(rel) || /(^|\/)\.\.(\/|$)/.test(rel)) return null;
  return { parts: globParts(rel), below, how, inRepo: true };
}

/**
 * The relative paths among the words of a command git runs from the work tree's top (`tools/fsmon`,
 * `ssh -F conf/ssh_config`, `!scripts/cred.sh get`): those with a `/`, as a bare name is looked up on PATH.
 */
export function repoCommandPaths(command: string, home: string, how: string): Reference[] {
  const text = command.replace(/^\s*!/, "");
  const words =
    shellWords(text)?.map((w) => literalWord(w.parts, home)) ??
    text.split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ""));
  return words.flatMap((word) =>
    word === null || !word.includes("/") || word.startsWith("-") ? [] : (repoReference(word, how) ?? []),
  );
}

/** A word that cannot be a file name a program is given: redirections, expansions, quotes, assignments, URLs. */
const NOT_A_NAME = /[<>|;&()`"'{}$=]|:\/\//;

/**
 * A path a program resolves from the directory it is started in (vim's `source .vimrc.local`, ssh's
 * `ProxyCommand ./tools/p.sh`, red team round 19): whichever project the person opens, so that path below
 * any directory (`../x` from any directory is x in another). null for an absolute, `~`, `$VAR`, empty or
 * vim-special (`%`, `#`, `<sfile>`) one.
 */
export function cwdReference(text: string, how: string, below = false): Reference | null {
  const rel = text
    .trim()
    .replace(/^(\.\.?\/+)+/, "")
    .replace(/\/+$/, "");
  if (rel === "" || rel === "." || rel === ".." || /^[~/$%#<]/.test(rel) || NOT_A_NAME.test(rel)) return null;
  return { parts: [{ type: "any" }, ...globParts(`/${rel}`)], below, how };
}

/**
 * The relative paths among the words of a command a program runs through the shell in its current
 * directory (`./tools/p.sh %h`, `--require=./x.js`): those with a `/`, as a bare name is looked up on PATH.
 */
export function cwdCommandPaths(command: string, home: string, how: string): Reference[] {
  const text = command.replace(/^\s*!/, "");
  const words =
    shellWords(text)?.map((w) => literalWord(w.parts, home)) ??
    text.split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ""));
  return words.flatMap((word) => {
    const value = word?.startsWith("-") ? word.replace(/^-[^=]*=?/, "") : word;
    return value?.includes("/") ? (cwdReference(value, how) ?? []) : [];
  });
}

/** A program name looked up on PATH: one reference per directory (an empty or relative one is any directory). */
export function onPath(program: string, pathVar: string, how: string): Reference[] {
  return pathVar.split(":").map((dir) => ({
    parts: dir.startsWith("/")
      ? [{ type: "lit", value: `${dir.replace(/\/$/, "")}/${program}` }]
      : [{ type: "any" }, { type: "lit", value: `/${program}` }],
    below: false,
    how,
  }));
}

/** ssh_config(5) keywords whose value is a command ssh runs (through the user's shell). */
const SSH_COMMANDS = /^(proxycommand|localcommand|knownhostscommand)$/;
/** ssh_config(5) keywords naming a library ssh loads. */
const SSH_LIBRARIES = /^(pkcs11provider|securitykeyprovider)$/;

/** ssh runs a command through the shell in the caller's directory: a relative path is any project's. */
function sshCommandPaths(command: string, home: string, how: string): Reference[] {
  return [
    ...commandPaths(command, home, how),
    ...cwdCommandPaths(command, home, `${how}, from whichever directory ssh is started in`),
  ];
}

/** An ssh_config line's arguments: blank-separated, double quotes grouping. */
function sshArgs(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
}

/** ssh's own tokens in a path: `%d` (home), `${HOME}`; any other `%x` or `${VAR}` is only known at run time. */
function sshPath(text: string, home: string): string {
  return text.replace(/%d/g, home).replace(/\$\{HOME\}/g, home);
}

/**
 * What an ssh configuration names (ssh_config(5)): `Include` files (globs allowed; relative ones are in
 * ~/.ssh, or /etc/ssh from the system file), the commands of ProxyCommand, LocalCommand,
 * KnownHostsCommand and `Match exec`, and the provider libraries it loads.
 */
export function sshReferences(text: string, x: Expansion): Reference[] {
  const out: Reference[] = [];
  for (const raw of text.split("\n")) {
    const m = /^\s*([A-Za-z0-9]+)\s*(?:=\s*|\s+)(.*?)\s*$/.exec(raw);
    if (!m || raw.trimStart().startsWith("#")) continue;
    const key = (m[1] as string).toLowerCase();
    const value = m[2] as string;
    if (key === "include")
      for (const arg of sshArgs(value)) {
        const r = pathReference(sshPath(arg, x.home), x, "includes it as ssh configuration", {
          follow: "ssh",
        });
        if (r !== null) out.push(...unknownTokens(r));
      }
    else if (SSH_COMMANDS.test(key)) out.push(...sshCommandPaths(value, x.home, `runs it (${m[1]})`));
    else if (SSH_LIBRARIES.test(key)) {
      const r = pathReference(sshPath(value, x.home), x, `loads it into ssh (${m[1]})`);
      if (r !== null) out.push(r);
    } else if (key === "match") {
      const args = sshArgs(value);
      for (let i = 0; i < args.length - 1; i++)
        if (args[i]?.toLowerCase() === "exec")
          out.push(...sshCommandPaths(args[i + 1] as string, x.home, "runs it (Match exec)"));
    }
  }
  return out;
}

/** A `%x` or `${VAR}` left in a path is any text. */
function unknownTokens(r: Reference): Reference[] {
  const parts = r.parts.flatMap((p): PathPart[] =>
    p.type !== "lit"
      ? [p]
      : p.value
          .split(/(%[a-zA-Z%]|\$\{[^}]*\})/)
          .map((s, i) => (i % 2 === 1 ? { type: "any" } : { type: "lit", value: s })),
  );
  return [{ ...r, parts: parts.filter((p) => p.type !== "lit" || p.value !== "") }];
}

/** `credential_process` lines of an AWS config (any profile): the program and files it is given. */
export function awsReferences(text: string, home: string): Reference[] {
  return [...text.matchAll(/^\s*credential_process\s*=\s*(.+?)\s*$/gm)].flatMap((m) =>
    commandPaths(m[1] as string, home, "runs it as an AWS credential_process"),
  );
}

/**
 * A systemd unit's (or drop-in's) commands, systemd.service(5): every Exec*= line, its prefixes (`-@:+!`)
 * dropped and `%h` as home, and the files EnvironmentFile= loads (its environment: LD_PRELOAD…).
 */
export function systemdReferences(text: string, home: string): Reference[] {
  const out: Reference[] = [];
  for (const m of text.matchAll(/^\s*(Exec[A-Za-z]+|EnvironmentFile)\s*=\s*(.*?)\s*$/gm)) {
    const value = (m[2] as string).replace(/%h/g, home);
    if (m[1] === "EnvironmentFile") {
      const r = pathReference(
        value.replace(/^-/, ""),
        { home, base: null },
        "loads its environment (systemd)",
      );
      if (r !== null) out.push(r);
    } else out.push(...commandPaths(value.replace(/^[-@:+!]+/, ""), home, `runs it (systemd ${m[1]})`));
  }
  return out;
}

/** An XDG autostart entry's Exec= and TryExec= (field codes such as %f dropped): run at every login. */
export function desktopReferences(text: string, home: string): Reference[] {
  return [...text.matchAll(/^\s*(Exec|TryExec)\s*=\s*(.*?)\s*$/gm)].flatMap((m) =>
    commandPaths((m[2] as string).replace(/%[a-zA-Z]/g, ""), home, "runs it at login (XDG autostart)"),
  );
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * A kubeconfig's credential programs: users[].user.exec's command (a name with a `/` is relative to the
 * kubeconfig's directory, a bare name is looked up on PATH) and the paths among its args, and an
 * auth-provider's cmd-path. A file that does not parse names nothing (kubectl refuses it too).
 */
export function kubeReferences(text: string, x: Expansion, pathVar: string): Reference[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return [];
  }
  const how = "runs it for kubectl's credentials (kubeconfig exec)";
  const out: Reference[] = [];
  for (const entry of Array.isArray(record(doc).users) ? (record(doc).users as unknown[]) : []) {
    const user = record(record(entry).user);
    const exec = record(user.exec);
    const provider = record(record(user["auth-provider"]).config);
    for (const command of [exec.command, provider["cmd-path"]]) {
      if (typeof command !== "string" || command === "") continue;
      if (!command.includes("/")) out.push(...onPath(command, pathVar, how));
      else {
        const r = pathReference(command, x, how);
        if (r !== null) out.push(r);
      }
    }
    for (const arg of strings(exec.args)) {
      const r = /^(~\/|\/)/.test(arg) ? pathReference(arg, x, how) : null;
      if (r !== null) out.push(r);
    }
  }
  return out;
}

/**
 * Docker's config.json: credsStore and credHelpers name `docker-credential-NAME`, looked up on PATH at
 * every pull and push; cliPluginsExtraDirs are directories of `docker-*` plug-ins.
 */
export function dockerReferences(text: string, home: string, pathVar: string): Reference[] {
  let doc: Record<string, unknown>;
  try {
    doc = record(JSON.parse(text));
  } catch {
    return [];
  }
  const helpers = [doc.credsStore, ...Object.values(record(doc.credHelpers))].filter(
    (h): h is string => typeof h === "string" && /^[\w.-]+$/.test(h),
  );
  const out = [...new Set(helpers)].flatMap((h) =>
    onPath(`docker-credential-${h}`, pathVar, "runs it as docker's credential helper"),
  );
  for (const dir of strings(doc.cliPluginsExtraDirs)) {
    const r = pathReference(dir, { home, base: null }, "runs docker plug-ins from it", { below: true });
    if (r !== null) out.push(r);
  }
  return out;
}
