// The permissions.yaml `airlock init` writes, for one of three profiles. A profile is plain rules the person
// can read and edit, built on what the judge knows of each part of a call (its `effect` and `risk`, whether it
// is understood, reaches a secret or walks a tree): what a profile does not allow asks the phone.

export const PROFILES = ["cautious", "balanced", "autonomous"] as const;
export type Profile = (typeof PROFILES)[number];
export const DEFAULT_PROFILE: Profile = "balanced";

/** One line per profile, as init offers them. */
export const PROFILE_SUMMARY: Record<Profile, string> = {
  cautious: "reads run; every write and command asks",
  balanced:
    "reads and understood read-only commands run, so do file edits inside the workspace (touch, mkdir, tee and sed -i too); tests, builds, other shell writes, network and anything not understood ask",
  autonomous:
    "everything understood inside the workspace runs (edits, shell writes, tests, builds, installs); only what is destructive, outbound, outside the workspace or not understood asks",
};

/** YAML single-quoted scalars need only `'` doubled. */
const yamlQuoted = (s: string) => `'${s.replace(/'/g, "''")}'`;

const INSIDE = `(path == cwd || path.startsWith(cwd + "/"))`;

/**
 * Files every user can read that describe the system, by exact real path (a symlink is judged by its
 * target on disk: a link to a secret asks). /etc/os-release is itself a link to /usr/lib/os-release.
 */
const SYSTEM_DESCRIPTIONS = [
  ...["/etc/os-release", "/usr/lib/os-release", "/etc/lsb-release", "/etc/debian_version", "/etc/issue"],
  ...["/etc/alpine-release", "/etc/redhat-release", "/etc/fedora-release"],
  // The machine's names and the shells it offers: what `hostname` and `getent hosts` print to anyone.
  ...["/etc/hosts", "/etc/hostname", "/etc/timezone", "/etc/shells", "/etc/resolv.conf"],
  ...["/proc/version", "/proc/cpuinfo", "/proc/meminfo", "/proc/loadavg", "/proc/uptime"],
  // The reading process's own cgroup paths, mount table and status (guards/real-path.ts names them so).
  ...["/proc/mounts", "/proc/self/cgroup", "/proc/self/mounts", "/proc/self/mountinfo", "/proc/self/status"],
  // Empty to every reader (`tail -f /dev/null`, `diff a /dev/null`).
  "/dev/null",
];

/** Home directories at their usual places: the starter is the same text for every user. */
const ANY_HOME = "/(root|home/[^/]+|Users/[^/]+)";

/**
 * Directories of installed software's source and documentation, what an editor's go-to-definition opens: C
 * headers, Python's standard library and system packages, the packages' documentation, Go's standard
 * library (Debian's /usr/lib/go-1.N/src is a link into /usr/share; the upstream tarball's /usr/local/go),
 * and what the toolchains unpacked in the home directory: crates from the registry (~/.cargo/registry/src),
 * Go modules (~/go/pkg/mod: a module path's first element has a dot, so cache/, with its VCS clones and
 * their remotes, is not one), Rust's standard library, pyenv's interpreters' libraries and the user's
 * site-packages. A file there is one of many copies of public code: no program keeps a credential there
 * (a secret's name is denied before this rule, and a link out to a secret still asks on disk).
 */
const SYSTEM_SOURCES = [
  "^/usr/include/",
  "^/usr/lib/python3(\\.[0-9]+)?/",
  "^/usr/share/doc/",
  "^/usr/(lib|share)/go(-[0-9.]+)?/src/",
  "^/usr/local/go/src/",
  `^${ANY_HOME}/\\.cargo/registry/src/`,
  `^${ANY_HOME}/go/pkg/mod/[^/]*\\.[^/]*/`,
  `^${ANY_HOME}/\\.rustup/toolchains/[^/]+/lib/rustlib/src/`,
  `^${ANY_HOME}/\\.pyenv/versions/[^/]+/lib/python3(\\.[0-9]+)?/`,
  `^${ANY_HOME}/\\.local/lib/python3(\\.[0-9]+)?/site-packages/`,
].join("|");

/**
 * Globally installed node packages (npm's prefix, nvm's versions): their sources, typings and manifests, by
 * extension, since npm's own package may hold its builtin configuration (`npm/npmrc`, where a
 * `--location=builtin` token goes) under a name the secret rules do not know.
 */
const NODE_GLOBAL_SOURCES = `^(/usr(/local)?|${ANY_HOME}/\\.nvm/versions/node/[^/]+)/lib/node_modules/.+\\.(js|mjs|cjs|ts|mts|cts|json|map|md)$`;

/**
 * A file directly in a shared temporary directory: the agent's scratch output (`> /tmp/out.txt`). On disk
 * only the user's own regular file counts (guards/scratch-files.ts): a link, another user's file or a socket
 * asks, and the secret rules and the content scan apply as anywhere. Only WRITES there are allowed: the
 * user's own files in /tmp include credentials other programs keep there by habit (the X server's cookie
 * /tmp/serverauth.*, curl cookie jars, PHP sessions, saved HAR files with tokens; red team round 19, r19-11),
 * and nothing on disk tells the agent's build log from them.
 */
const SCRATCH = "^/(var/)?tmp/[^/]+$";

interface StarterRule {
  name: string;
  why: string;
  condition: string;
  action: "allow" | "deny";
  message?: string;
}

// Order matters (first match): the recursive read comes before the plain one, whose match would stop
// the search and leave the recursive concern unnamed.
const READS: StarterRule[] = [
  {
    name: "Secrets",
    why: "a read of a secret (.env, keys, ~/.ssh, cloud credentials …) never runs",
    condition: `tool in ["read", "grep", "find", "ls"] && sensitive`,
    action: "deny",
    message: "Secret files are off limits to agents.",
  },
  {
    name: "Search the workspace",
    why: "grep -r, rg: only where the companion walked the tree first (walked), so a reachable secret still asks",
    condition: `tool == "read" && recursive && walked && ${INSIDE}`,
    action: "allow",
  },
  {
    name: "Read the workspace",
    why: "files inside the project, by file tools and by shell commands alike",
    condition: `tool in ["read", "grep", "find", "ls"] && ${INSIDE}`,
    action: "allow",
  },
  {
    name: "Read system descriptions",
    why: "the distribution's release files and the kernel's public summaries (/etc/os-release, /proc/cpuinfo): everyone may read them and they hold nothing of anyone's",
    condition: `tool == "read" && !recursive && !glob && path in ${JSON.stringify(SYSTEM_DESCRIPTIONS)}`,
    action: "allow",
  },
  {
    name: "Read system sources",
    why: "C headers, Python's and Go's standard libraries, packages' documentation, the sources toolchains unpacked (/usr/include/stdio.h, /usr/lib/python3.11/os.py, /usr/lib/go/src/fmt/print.go, ~/.cargo/registry/src/…/serde-1.0.200/src/lib.rs, ~/go/pkg/mod/…, ~/.rustup/toolchains/…/rustlib/src, ~/.pyenv/versions/…, global node packages' sources): installed public files, one at a time",
    condition: `tool == "read" && !recursive && !glob && (path.matches(${JSON.stringify(SYSTEM_SOURCES)}) || path.matches(${JSON.stringify(NODE_GLOBAL_SOURCES)}))`,
    action: "allow",
  },
  {
    name: "Read-only commands",
    why: "understood by their grammar and only looking (ls, cat, grep, git status …); each file they read is judged above",
    condition: `tool == "bash" && effect == "read" && risk == "low"`,
    action: "allow",
  },
];

/**
 * The agent's own bookkeeping: its todo list and plan, its questions to the person, a sub-agent (whose every
 * call reaches the hook and is judged as the agent's own). None touches a file, a process or the network, and
 * an allow here still leaves the agent's own dialog (Claude Code's plan approval) to run. A background shell's
 * output and the list of shells (BashOutput, Copilot's read_bash, list_bash) show what a command judged when it
 * started prints, and Copilot's report_intent only sets its status line. Stopping a background task (TaskStop,
 * Copilot's stop_bash) ends a process: not listed, it asks.
 */
const BOOKKEEPING_TOOLS = [
  ...["session.todo_write", "session.todo_read", "session.update_plan", "session.update_topic"],
  ...["session.shell_output", "session.shell_list", "session.report_intent"],
  ...["session.task_create", "session.task_get", "session.task_update", "session.task_list"],
  ...["session.subagent", "ui.enter_plan_mode", "ui.exit_plan_mode", "ui.ask_user_question"],
];

const BOOKKEEPING: StarterRule = {
  name: "Agent bookkeeping",
  why: "todo lists, plans, questions to you and sub-agents (each of whose calls is judged like the agent's own)",
  condition: `tool in ${JSON.stringify(BOOKKEEPING_TOOLS)}`,
  action: "allow",
};

const EDITS: StarterRule[] = [
  {
    name: "Edit the workspace",
    why: "the agent's file edits inside the project (a file that decides what runs, .git/ or .vscode/, still asks)",
    condition: `tool in ["write", "edit"] && ${INSIDE}`,
    action: "allow",
  },
  {
    name: "Write scratch files",
    why: "a new file, or one of yours, directly in /tmp or /var/tmp (`> /tmp/out.txt`); nothing runs it unless a later call, judged itself, does",
    condition: `tool in ["write", "edit"] && !recursive && !glob && path.matches(${JSON.stringify(SCRATCH)})`,
    action: "allow",
  },
];

// Before "Edit the workspace": its match would stop the search and leave the recursive concern unnamed.
const MOVE_TREES: StarterRule = {
  name: "Move trees in the workspace",
  why: "mv or cp -r of a directory writes everything below it; a protected file below still asks",
  condition: `tool == "write" && recursive && ${INSIDE}`,
  action: "allow",
};

const WORKSPACE_COMMANDS: StarterRule[] = [
  {
    name: "Shell writes",
    why: "mkdir, touch, cp, mv, sed -i: every file they write is judged by the rule above",
    condition: `tool == "bash" && effect == "write" && risk != "high"`,
    action: "allow",
  },
  {
    name: "Run the project",
    why: "tests, builds, linters, scripts, installs; nothing outbound or destructive (those are high risk)",
    condition: `tool == "bash" && effect == "run" && risk != "high"`,
    action: "allow",
  },
];

export function profileRules(profile: Profile): StarterRule[] {
  if (profile === "cautious") return [...READS, BOOKKEEPING];
  if (profile === "balanced") return [...READS, BOOKKEEPING, ...EDITS];
  return [...READS, BOOKKEEPING, MOVE_TREES, ...EDITS, ...WORKSPACE_COMMANDS];
}

export function starterPolicy(profile: Profile = DEFAULT_PROFILE): string {
  const rules = profileRules(profile)
    .map(
      (r) =>
        `  - name: ${r.name}\n    # ${r.why}\n    condition: ${yamlQuoted(r.condition)}\n    action: ${r.action}\n` +
        (r.message === undefined ? "" : `    message: ${r.message}\n`),
    )
    .join("");
  return `# Airlock's starter policy, profile "${profile}" (${PROFILE_SUMMARY[profile]}).
# Written by "airlock init --profile ${profile}". The first matching rule decides; edit freely.
# Whatever no rule allows asks your phone. Never allowed by any rule here: what the judge does not understand,
# destructive git (branch -D, reset --hard, push --force, remote add …) and anything high risk.
# "airlock policy explain --tool bash --input '{"command":"git push"}'" shows how a call is decided.
version: 1
default_action: ask
rules:
${rules}`;
}
