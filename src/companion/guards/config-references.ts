// The user's own configuration files that name other files by path for a program to run or read as
// configuration (red team, round 16): git's include chain and program keys, the shells' start-up files'
// `source` lines, ssh's Include and commands, AWS credential_process, systemd user units, XDG autostart
// entries, kubeconfig exec plug-ins and docker's credential helpers. Each file read is stamped, so the
// caller can tell when any of them (or a directory listed) changed.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  awsReferences,
  commandPaths,
  desktopReferences,
  dockerReferences,
  type Expansion,
  kubeReferences,
  namesNothingKnown,
  type Reference,
  repoCommandPaths,
  repoReference,
  sshReferences,
  systemdReferences,
} from "../../policy/path-references.ts";
import { shellSources } from "../../policy/shell-sources.ts";
import { statEntry } from "./fs-entry.ts";
import { userLayerFiles } from "./git-config-layers.ts";
import { configEntries } from "./git-config-programs.ts";
import { programConfigPaths } from "./program-config-files.ts";

/** A reference and the configuration file that makes it. */
export interface Named extends Reference {
  from: string;
}

/** Reads files and lists directories, remembering each one's stamp (nothing there: "-"). */
export class StampedReader {
  readonly stamps = new Map<string, string>();

  read(path: string): string | null {
    this.stamp(path);
    try {
      return readFileSync(path, "utf8").slice(0, MAX_BYTES);
    } catch {
      return null; // absent or unreadable: the program cannot read it either
    }
  }

  list(dir: string): string[] {
    this.stamp(dir);
    try {
      return readdirSync(dir).sort();
    } catch {
      return [];
    }
  }

  private stamp(path: string): void {
    if (!this.stamps.has(path)) this.stamps.set(path, stampOf(path));
  }
}

/** What tells a file or directory changed: its inode, times and size; "-" when nothing is there. */
export function stampOf(path: string): string {
  try {
    const s = statEntry(path);
    return s === undefined ? "-" : `${s.ino}:${s.mtimeMs}:${s.ctimeMs}:${s.size}`;
  } catch {
    return "-";
  }
}

const MAX_BYTES = 1024 * 1024;
/** Include and source chains are followed this deep, and this many files in all. */
const MAX_DEPTH = 8;
const MAX_FILES = 128;

/** Shell start-up files under HOME (bash, sh, zsh, ksh, csh, fish), each read by its shell at start. */
const SHELL_FILES = [
  ...[".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout", ".bash_aliases"],
  ...[".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc"],
  ...[".cshrc", ".tcshrc", ".login", ".config/fish/config.fish"],
];
/** Directories whose every file a start-up file or the shell itself sources (Fedora's ~/.bashrc.d, fish's conf.d). */
const SHELL_DIRS = [".bashrc.d", ".config/fish/conf.d"];
const ZSH_FILES = [".zshenv", ".zshrc", ".zprofile", ".zlogin", ".zlogout"];

/** git-config(1) keys whose value is a command git runs (a user's own, with a `!` for aliases and helpers). */
const GIT_COMMANDS =
  /^(core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|diff\.external|sequence\.editor|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|pager\..+|gpg\.(.+\.)?program|credential\.(.+\.)?helper|alias\..+|merge\..+\.driver|(diff|merge)tool\..+\.cmd)$/;

class Collector {
  readonly out: Named[] = [];
  private readonly seen = new Set<string>();

  readonly reader: StampedReader;
  readonly home: string;

  constructor(reader: StampedReader, home: string) {
    this.reader = reader;
    this.home = home;
  }

  /** A file read once per look, within the bounds; its text, or null. */
  open(file: string): string | null {
    if (this.seen.has(file) || this.seen.size >= MAX_FILES) return null;
    this.seen.add(file);
    return this.reader.read(file);
  }

  add(from: string, refs: readonly Reference[], depth: number): void {
    for (const r of refs) {
      // A wholly unknown source deeper than the user's own start-up files is a framework loading its own
      // files (nvm.sh, oh-my-zsh.sh: `. "$file"`), under directories protected already.
      if (depth > 0 && r.follow === "shell" && namesNothingKnown(r.parts)) continue;
      this.out.push({ ...r, from });
      if (r.follow !== undefined && depth < MAX_DEPTH)
        for (const file of this.existing(r)) this.follow(r.follow, file, depth + 1);
    }
  }

  /** The files a reference names now: itself, or what its glob (in the last name only) matches. */
  private existing(r: Reference): string[] {
    if (r.parts.every((p) => p.type === "lit"))
      return [r.parts.map((p) => (p.type === "lit" ? p.value : "")).join("")];
    const text = r.parts.map((p) => (p.type === "any" ? "\0" : p.value)).join("");
    const dir = dirname(text);
    if (text.includes("\0") || /[*?[]/.test(dir)) return [];
    const test = globRegExp(text.slice(dir.length + 1));
    return this.reader
      .list(dir)
      .filter((n) => test.test(n))
      .map((n) => join(dir, n));
  }

  follow(kind: NonNullable<Reference["follow"]>, file: string, depth: number): void {
    // The system's scripts (bash-completion's loader, /etc/profile.d) source the distribution's own files.
    if (kind === "shell" && depth > 0 && /^\/(usr|etc)\//.test(file)) return;
    const text = this.open(file);
    if (text === null) return;
    if (kind === "shell") this.add(file, shellSources(text, this.home), depth);
    else if (kind === "ssh") this.add(file, sshReferences(text, this.sshBase(file)), depth);
    else this.add(file, this.gitReferences(text, file), depth);
  }

  /** ssh_config(5): a relative Include is in ~/.ssh from the user's files, /etc/ssh from the system's. */
  private sshBase(file: string): Expansion {
    return { home: this.home, base: file.startsWith("/etc/ssh/") ? "/etc/ssh" : join(this.home, ".ssh") };
  }

  /**
   * A git configuration file's includes (relative to the including file, `~` from home; every includeIf
   * taken as active), its absolute core.hooksPath and init.templateDir, and its commands' paths.
   */
  private gitReferences(text: string, file: string): Reference[] {
    const refs: Reference[] = [];
    const x = { home: this.home, base: dirname(file) };
    for (const { key, value } of configEntries(text)) {
      const path = value.startsWith("~") ? x.home + value.slice(1) : value;
      if (/^(include|includeif\..+)\.path$/.test(key)) {
        const target = path.startsWith("/") ? path : path === "" ? null : join(x.base, path);
        if (target !== null && !/^~[^/]/.test(value))
          refs.push({
            parts: [{ type: "lit", value: target }],
            below: false,
            how: "includes it as git configuration",
            follow: "git",
          });
      } else if (key === "core.hookspath" && !path.startsWith("/")) {
        // Relative: from the top of each work tree git runs hooks in (githooks(5)).
        const r = repoReference(path, "runs git hooks from it in every repository (core.hooksPath)", true);
        if (r !== null) refs.push(r);
      } else if ((key === "core.hookspath" || key === "init.templatedir") && path.startsWith("/"))
        refs.push({
          parts: [{ type: "lit", value: path }],
          below: true,
          how:
            key === "core.hookspath"
              ? "runs git hooks from it (core.hooksPath)"
              : "copies its hooks into every new repository (init.templateDir)",
        });
      else if (GIT_COMMANDS.test(key)) {
        const how = `runs it (git ${key})`;
        // git runs these from the work tree's top, where a relative program or file is the repository's.
        // A plain alias is git's own subcommand and words; only a `!` alias is a shell command.
        const shell = !key.startsWith("alias.") || value.trimStart().startsWith("!");
        refs.push(
          ...commandPaths(value, this.home, how),
          ...(shell ? repoCommandPaths(value, this.home, `${how} in every repository`) : []),
        );
      }
    }
    return refs;
  }
}

function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]")
    .replace(/\[!/g, "[^");
  try {
    return new RegExp(`^${body}$`);
  } catch {
    return /(?!)/;
  }
}

function xdgConfig(env: NodeJS.ProcessEnv, home: string): string {
  return env.XDG_CONFIG_HOME || join(home, ".config");
}

/** Every file of the directory (and of its `NAME.d/` drop-in directories) whose name ends in one of these. */
function unitFiles(c: Collector, dir: string, endings: RegExp): string[] {
  return c.reader.list(dir).flatMap((name) => {
    if (name.endsWith(".d"))
      return c.reader
        .list(join(dir, name))
        .filter((n) => n.endsWith(".conf"))
        .map((n) => join(dir, name, n));
    return endings.test(name) ? [join(dir, name)] : [];
  });
}

/**
 * What a work tree's own repository configuration names (its `config`, `config.worktree` and their includes):
 * a relative hooksPath or program path is from that work tree's top, as git runs it there.
 */
export function repoConfigPaths(reader: StampedReader, files: readonly string[], home: string): Named[] {
  const c = new Collector(reader, home);
  for (const f of files) c.follow("git", f, 0);
  return c.out;
}

/** Reads every configuration this module knows under the user's home and environment. */
export function namedPaths(reader: StampedReader, env: NodeJS.ProcessEnv, home: string): Named[] {
  const c = new Collector(reader, home);
  const zdot = env.ZDOTDIR ? ZSH_FILES.map((f) => join(env.ZDOTDIR as string, f)) : [];
  const shellDirs = SHELL_DIRS.flatMap((d) => c.reader.list(join(home, d)).map((n) => join(home, d, n)));
  for (const f of [...SHELL_FILES.map((f) => join(home, f)), ...zdot, ...shellDirs]) c.follow("shell", f, 0);
  for (const f of userLayerFiles(env)) c.follow("git", f, 0);
  for (const f of [join(home, ".ssh", "config"), "/etc/ssh/ssh_config"]) c.follow("ssh", f, 0);
  const pathVar = env.PATH ?? "";
  const each = (files: string[], refsOf: (text: string, file: string) => Reference[]) => {
    for (const f of files) {
      const text = c.open(f);
      if (text !== null) c.add(f, refsOf(text, f), MAX_DEPTH);
    }
  };
  each([env.AWS_CONFIG_FILE || join(home, ".aws", "config")], (t) => awsReferences(t, home));
  const units = [
    join(xdgConfig(env, home), "systemd", "user"),
    join(home, ".local", "share", "systemd", "user"),
  ];
  each(
    units.flatMap((d) => unitFiles(c, d, /\.(service|socket|timer|path|mount)$/)),
    (t) => systemdReferences(t, home),
  );
  each(unitFiles(c, join(xdgConfig(env, home), "autostart"), /\.desktop$/), (t) =>
    desktopReferences(t, home),
  );
  const kube = env.KUBECONFIG
    ? env.KUBECONFIG.split(":").filter((f) => f !== "")
    : [join(home, ".kube", "config")];
  each(kube, (t, f) => kubeReferences(t, { home, base: dirname(f) }, pathVar));
  each([join(env.DOCKER_CONFIG || join(home, ".docker"), "config.json")], (t) =>
    dockerReferences(t, home, pathVar),
  );
  for (const { from, refs } of programConfigPaths((f) => c.open(f), env, home)) c.add(from, refs, MAX_DEPTH);
  return c.out;
}
