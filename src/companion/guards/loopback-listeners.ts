// Which program a loopback GET reaches (`curl -s localhost:3000`, grammar/programs/curl.ts): the dev server the
// agent started in the workspace, or something else listening on the port, such as `kubectl proxy` (the
// cluster's API, secrets included), a Vault agent's auto-auth listener or a browser's debugging port, whose GET
// answers are not the project's. The port's listening sockets (/proc/net/tcp and tcp6, every address) must each
// belong to a process of this user whose working directory is inside the workspace; a port nothing listens on
// is refused by the kernel. A proxy in the agent's environment sends the request off this machine, and
// CURL_HOME or SSLKEYLOGFILE make curl read another configuration or write a file: each asks.
import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { type Context, realWorkspace } from "./disk-context.ts";
import { isWithin, realPathOf } from "./real-path.ts";

/** Variables curl reads that send the request elsewhere, or read or write files (curl(1) ENVIRONMENT). */
const CURL_VARIABLES = [
  ...["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy"],
  ...["NO_PROXY", "CURL_HOME", "SSLKEYLOGFILE"],
];

/** The socket inodes listening on `port`, from the kernel's tables; null when there are none to read (no /proc). */
function listeningInodes(port: number): Set<string> | null {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  let read = false;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address ends in :PORT; state 0A is LISTEN; the inode is the tenth field.
      if (f[1]?.endsWith(`:${hex}`) && f[3] === "0A" && f[9] !== undefined) inodes.add(f[9]);
    }
  }
  return read ? inodes : null;
}

interface Owner {
  pid: string;
  command: string;
  cwd: string;
}

function readOr(read: () => string, fallback: string): string {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The processes of this user holding each of `inodes`, by inode. */
function ownersOf(inodes: Set<string>): Map<string, Owner[]> {
  const out = new Map<string, Owner[]>();
  const me = process.getuid?.();
  for (const pid of readOr(() => readdirSync("/proc").join("\n"), "").split("\n")) {
    if (!/^\d+$/.test(pid)) continue;
    const dir = `/proc/${pid}`;
    try {
      if (statSync(dir).uid !== me) continue;
      for (const fd of readdirSync(`${dir}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readOr(() => readlinkSync(`${dir}/fd/${fd}`), ""))?.[1];
        if (inode === undefined || !inodes.has(inode)) continue;
        const owner = {
          pid,
          command: readOr(() => readFileSync(`${dir}/comm`, "utf8").trim(), "?"),
          cwd: readOr(() => readlinkSync(`${dir}/cwd`), ""),
        };
        out.set(inode, [...(out.get(inode) ?? []), owner]);
      }
    } catch {
      // A process that ended while it was looked at holds nothing now.
    }
  }
  return out;
}

/**
 * curl reads `$XDG_CONFIG_HOME/.curlrc` before ~/.curlrc (proven: an `output = FILE` there wrote FILE). The
 * person's own configuration directory is theirs; one inside the workspace is the agent's to write (round 23b).
 */
function configInWorkspace(ctx: Context): string | null {
  const dir = ctx.env.XDG_CONFIG_HOME ?? "";
  if (dir === "") return null;
  const r = realPathOf(dir);
  const real = r.ok ? r.real : dir;
  return isWithin(realWorkspace(ctx), real) || isWithin(ctx.workspace, dir) ? dir : null;
}

/** Why a GET of loopback port `t.port` may reach something other than the workspace's own server, or nothing. */
export function loopbackFacts(t: Extract<DiskTarget, { kind: "loopback" }>, ctx: Context): CallFact[] {
  const variable = CURL_VARIABLES.find((v) => (ctx.env[v] ?? "") !== "");
  if (variable !== undefined)
    return [
      {
        subject: t.shown,
        reason: `${variable} is set in the agent's environment: curl may send the request through a proxy, read another configuration or write a file`,
      },
    ];
  const rc = configInWorkspace(ctx);
  if (rc !== null)
    return [
      {
        subject: t.shown,
        reason: `XDG_CONFIG_HOME is \`${rc}\`, in the workspace: curl reads its .curlrc there, whose options (output, proxy, a header) the agent can write`,
      },
    ];
  const inodes = listeningInodes(t.port);
  if (inodes === null)
    return [{ subject: t.shown, reason: `Airlock cannot see which program listens on port ${t.port} here` }];
  const owners = ownersOf(inodes);
  const ws = realWorkspace(ctx);
  for (const inode of inodes) {
    const held = owners.get(inode) ?? [];
    if (held.length === 0)
      return [
        {
          subject: t.shown,
          reason: `port ${t.port} is served by a process Airlock cannot see (another user's, or the system's)`,
        },
      ];
    const outside = held.find((o) => o.cwd === "" || !isWithin(ws, o.cwd));
    if (outside !== undefined)
      return [
        {
          subject: t.shown,
          reason: `port ${t.port} is served by \`${outside.command}\` (pid ${outside.pid}), started in \`${outside.cwd || "?"}\`, not in the workspace: what it answers is not the project's`,
        },
      ];
  }
  return [];
}
