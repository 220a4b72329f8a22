// What cannot be undone, leaves this machine or acts with more privilege than the user: the commands the
// risk rubric reserves HIGH for, whatever their grammar says (a grammar may one day understand `git push`;
// it stays outbound). Destructive git is also a concern every profile asks about (judge-bash.ts).
import { takesGlobalValue } from "./git.ts";
import { loopbackRequest } from "./grammar/programs/curl.ts";
import type { ExecUnit } from "./units.ts";

export type DangerKind = "destructive" | "outbound" | "privileged";

export interface Danger {
  kind: DangerKind;
  /** One line a person reads on the card. */
  reason: string;
}

/**
 * What a command does, for risk and for rules' `effect`: its grammar's effect, except that a program named
 * by a path (`./ls`, `/tmp/cat`) runs whatever that file holds, and `source`/`.` run the script they read.
 */
export function effectOf(unit: ExecUnit): ExecUnit["effect"] {
  if (unit.program.includes("/") || unit.program === "source" || unit.program === ".") return "run";
  return unit.effect;
}

/** The git subcommand and the words after it, past git's global options. */
export function gitSubcommand(argv: readonly string[]): { name: string; rest: string[] } | null {
  let i = 1;
  while (i < argv.length) {
    const w = argv[i] as string;
    if (!w.startsWith("-") || w === "-") break;
    i += takesGlobalValue(w) ? 2 : 1;
  }
  const name = argv[i];
  return name === undefined ? null : { name, rest: argv.slice(i + 1) };
}

/** A short-option cluster (`-fd`) or a long option given (`--force`, `--force=x`). */
function hasOption(rest: readonly string[], letters: string, longs: readonly string[]): boolean {
  for (const w of rest) {
    if (w === "--") return false;
    if (w.startsWith("--")) {
      const name = w.split("=")[0] as string;
      if (longs.some((l) => name === l || (l.endsWith("*") && name.startsWith(l.slice(0, -1))))) return true;
    } else if (w.startsWith("-") && w.length > 1 && [...w.slice(1)].some((c) => letters.includes(c)))
      return true;
  }
  return false;
}

const operands = (rest: readonly string[]) => rest.filter((w) => !w.startsWith("-"));

const REMOTE_CHANGES = new Set([
  "add",
  "rename",
  "remove",
  "rm",
  "set-head",
  "set-branches",
  "set-url",
  "prune",
  "update",
]);

/** Destructive git: what loses work or history, or changes where the repository sends it. */
export function destructiveGit(argv: readonly string[]): string | null {
  const sub = gitSubcommand(argv);
  if (sub === null) return null;
  const { name, rest } = sub;
  switch (name) {
    case "branch":
      return hasOption(rest, "DMCf", ["--force"]) ? "deletes, overwrites or renames a branch by force" : null;
    case "remote": {
      const action = operands(rest)[0];
      return action !== undefined && REMOTE_CHANGES.has(action)
        ? `changes where the repository fetches from and pushes to (git remote ${action})`
        : null;
    }
    case "reset":
      return hasOption(rest, "", ["--hard", "--merge"])
        ? "discards uncommitted changes (git reset --hard)"
        : null;
    case "push":
      return hasOption(rest, "fd", ["--force*", "--mirror", "--delete", "--prune"]) ||
        rest.some((w) => /^\+|^:./.test(w))
        ? "rewrites or deletes branches on the remote (forced push)"
        : null;
    case "clean":
      return hasOption(rest, "n", ["--dry-run"]) ? null : "deletes untracked files (git clean)";
    case "checkout":
      return rest.includes("--") ||
        rest.includes(".") ||
        hasOption(rest, "fB", ["--force", "--discard-changes", "--ours", "--theirs"]) ||
        (operands(rest).length > 1 && !hasOption(rest, "bt", ["--track", "--orphan"]))
        ? "discards uncommitted changes (git checkout of paths)"
        : null;
    case "restore":
      return hasOption(rest, "W", ["--worktree"]) || !hasOption(rest, "S", ["--staged"])
        ? "discards uncommitted changes (git restore)"
        : null;
    case "switch":
      return hasOption(rest, "fC", ["--force*", "--discard-changes"])
        ? "discards changes or overwrites a branch"
        : null;
    case "stash": {
      const action = operands(rest)[0];
      return action === "drop" || action === "clear" ? `deletes stashed changes (git stash ${action})` : null;
    }
    case "tag":
      return hasOption(rest, "df", ["--delete", "--force"]) ? "deletes or moves a tag" : null;
    case "update-ref":
      return hasOption(rest, "d", ["--stdin"]) ? "deletes or rewrites refs" : null;
    case "reflog": {
      const action = operands(rest)[0];
      return action === "expire" || action === "delete" ? "deletes reflog entries (the way back)" : null;
    }
    case "gc":
      return hasOption(rest, "", ["--prune*"]) ? "deletes unreachable objects" : null;
    case "filter-branch":
    case "filter-repo":
      return "rewrites the repository's history";
    case "rm":
      return hasOption(rest, "f", ["--force"]) ? "deletes files with uncommitted changes" : null;
    case "worktree":
      return operands(rest)[0] === "remove" && hasOption(rest, "f", ["--force"])
        ? "deletes a work tree with its changes"
        : null;
    default:
      return null;
  }
}

/** Programs whose whole job is to send, publish or act on remote systems. */
const OUTBOUND_PROGRAMS = new Set([
  ...["curl", "wget", "ssh", "scp", "sftp", "rsync", "nc", "ncat", "netcat", "socat", "telnet", "ftp"],
  ...["aws", "gcloud", "az", "doctl", "kubectl", "helm", "terraform", "tofu", "pulumi", "flyctl", "fly"],
  ...["vercel", "netlify", "heroku", "firebase", "wrangler", "twine", "sendmail", "mail", "mutt"],
]);

/** Subcommands of package managers and forges that publish or post. */
const PUBLISH = new Set([
  "publish",
  "unpublish",
  "deprecate",
  "yank",
  "owner",
  "dist-tag",
  "login",
  "adduser",
  "upload",
]);
const FORGE_WRITES =
  /^(create|merge|close|reopen|delete|comment|edit|review|upload|run|set|login|logout|token|transfer|archive|fork|sync)$/;

const PRIVILEGED = new Set([
  ...["sudo", "doas", "su", "pkexec", "runuser", "chroot", "mount", "umount", "systemctl", "launchctl"],
  ...["iptables", "nft", "shutdown", "reboot", "halt", "poweroff", "fdisk", "parted", "insmod", "modprobe"],
]);

/** `mount` or `mount -l`: the set-user-id mount only prints the caller's own mount table (grammar/programs/devices.ts). */
function listsMounts(program: string, argv: readonly string[]): boolean {
  return program === "mount" && argv.slice(1).every((w) => w === "-l" || w === "--show-labels");
}

/** curl's words after its name as bash passes them; a glob is not known (it may become other words). */
function curlWords(unit: ExecUnit): (string | null)[] {
  return unit.words.slice(1).map((w) => (w.glob ? null : w.value));
}

/** The danger of a command, or null when it is none of destructive, outbound or privileged. */
export function dangerOf(unit: ExecUnit): Danger | null {
  const { program, argv } = unit;
  if (program === "git") {
    const destructive = destructiveGit(argv);
    if (destructive !== null) return { kind: "destructive", reason: destructive };
    const sub = gitSubcommand(argv)?.name;
    if (sub === "push" || sub === "send-email" || sub === "request-pull")
      return { kind: "outbound", reason: `sends to a remote (git ${sub})` };
    return null;
  }
  if ((PRIVILEGED.has(program) && !listsMounts(program, argv)) || program.startsWith("mkfs"))
    return { kind: "privileged", reason: `runs with more privilege than yours (${program})` };
  // One GET or HEAD of a loopback address stays on this machine (grammar/programs/curl.ts).
  if (OUTBOUND_PROGRAMS.has(program) && !(program === "curl" && "port" in loopbackRequest(curlWords(unit))))
    return { kind: "outbound", reason: `sends data off this machine or acts on remote systems (${program})` };
  const words = argv.slice(1).filter((w) => !w.startsWith("-"));
  if (["npm", "pnpm", "yarn", "bun", "cargo", "poetry", "gem", "uv", "hatch", "flit"].includes(program)) {
    const sub = words[0];
    if (sub !== undefined && PUBLISH.has(sub))
      return { kind: "outbound", reason: `publishes to a registry (${program} ${sub})` };
  }
  if (["docker", "podman"].includes(program) && (words[0] === "push" || words[0] === "login"))
    return { kind: "outbound", reason: `sends to a registry (${program} ${words[0]})` };
  if (
    (program === "gh" || program === "glab") &&
    (words[0] === "api" || words.slice(1, 2).some((w) => FORGE_WRITES.test(w)))
  )
    return {
      kind: "outbound",
      reason: `posts to ${program === "gh" ? "GitHub" : "GitLab"} (${program} ${words.slice(0, 2).join(" ")})`,
    };
  if (unit.effect === "destroy") return { kind: "destructive", reason: "deletes or overwrites data" };
  return null;
}
