// ps (procps-ng 4.0.2; `ps --help all`, ps(1)): UNIX options in `-` clusters (`-ef`, `-o pid,cmd`), BSD
// ones in clusters without a dash (`aux`), GNU long ones (`--sort=-pcpu`), mixed in one line. It reads
// /proc and prints processes: their command lines too, which any local user may read (/proc/PID/cmdline
// is world-readable), so that is no secret of this user's here (docs/policy.md, "ps"). Their environments
// are (/proc/PID/environ is the owner's alone): the BSD letter e prints them (`ps e`, `ps auxe`), and is
// not understood. Nor is any line where an e could become that letter: when the UNIX reading of the line
// fails (an unknown user or tty, a bad list, conflicting options), ps reads every word again as BSD, where
// `-ef` is e and f (`ps -auxe` prints environments). A line with an e anywhere is understood only in a form
// whose UNIX reading cannot fail: no names looked up, lists and format keys checked here, options that
// never conflict (each conflict measured on procps-ng 4.0.2).
import type { Arg } from "../../wrappers.ts";
import { emptyEffects } from "../parse.ts";
import type { NotUnderstood, ProgramGrammar, Understanding } from "../spec.ts";

/** What an option's value is: process numbers, names looked up (users, groups, ttys), a format, a sort order, a number, command names. */
type ValueKind = "pids" | "lookup" | "format" | "sort" | "number" | "names";

const UNIX_FLAGS = new Set("AadefFHjlwcNLTmMPyV");
const UNIX_VALUES: Readonly<Record<string, ValueKind>> = {
  C: "names",
  G: "lookup",
  g: "lookup",
  u: "lookup",
  U: "lookup",
  t: "lookup",
  p: "pids",
  q: "pids",
  s: "pids",
  o: "format",
  O: "format",
};
/** BSD letters, without e (every process's environment). */
const BSD_FLAGS = new Set("aTrxcfhjlnSsuvXwHmLVZg");
const BSD_VALUES: Readonly<Record<string, ValueKind>> = {
  p: "pids",
  q: "pids",
  t: "lookup",
  U: "lookup",
  o: "format",
  O: "format",
  k: "sort",
};
const LONG_FLAGS = new Set(
  ["deselect", "cumulative", "context", "forest", "headers", "no-headers", "help", "version", "info"].map(
    (n) => `--${n}`,
  ),
);
const LONG_VALUES: Readonly<Record<string, ValueKind>> = {
  "--pid": "pids",
  "--ppid": "pids",
  "--quick-pid": "pids",
  "--sid": "pids",
  "--group": "lookup",
  "--Group": "lookup",
  "--tty": "lookup",
  "--user": "lookup",
  "--User": "lookup",
  "--format": "format",
  "--sort": "sort",
  "--cols": "number",
  "--columns": "number",
  "--width": "number",
  "--lines": "number",
  "--rows": "number",
};

/** Every format (and sort) key of procps-ng 4.0.2, as `ps L` lists them. */
const KEYS = new Set(
  `%cpu %mem _left _left2 _right _right2 _unlimited _unlimited2 ag_id ag_nice args atime blocked bsdstart
  bsdtime c caught cgname cgroup cgroupns class cls cmd comm command context cp cpuid cputime cputimes cuc cuu
  drs dsiz egid egroup eip esp etime etimes euid euser exe f fgid fgroup flag flags fname fsgid fsgroup fsuid
  fsuser fuid fuser gid group ignored intpri ipcns label lastcpu lim longtname lsession lstart luid lwp lxc
  m_drs m_size m_trs machine maj_flt majflt min_flt minflt mntns netns ni nice nlwp numa oom oomadj opri ouid
  pagein pcpu pending pgid pgrp pid pidns pmem policy ppid pri pri_api pri_bar pri_baz pri_foo priority psr
  pss rbytes rchars rgid rgroup rops rss rssize rsz rtprio ruid ruser s sched seat sess session sgi_p sgi_rss
  sgid sgroup sid sig sig_block sig_catch sig_ignore sig_pend sigcatch sigignore sigmask size slice spid
  stackp start start_stack start_time stat state stime suid supgid supgrp suser svgid svgroup svuid svuser
  sz tgid thcount tid time timens times tname tpgid trs trss tsig tsiz tt tty tty4 tty8 ucmd ucomm uid
  uid_hack uname unit user userns uss util utsns uunit vsize vsz wbytes wcbytes wchan wchars wname wops zone`.split(
    /\s+/,
  ),
);

/** Whether ps takes the value as it is: a list of numbers, known keys (`pid=`, `cmd:40`, a header without a comma), names. */
function valueHolds(kind: ValueKind, v: string): boolean {
  const items = v.split(/[, ]/);
  switch (kind) {
    case "pids":
      return /^\d+([, ]\d+)*$/.test(v);
    case "number":
      return /^\d+$/.test(v);
    case "names":
      return /^[\w.+-]+(,[\w.+-]+)*$/.test(v);
    case "format":
      return items.every((i) => KEYS.has(/^([%\w]+)(:\d+)?(=.*)?$/.exec(i)?.[1] ?? ""));
    case "sort":
      return items.every((i) => KEYS.has(i.replace(/^[+-]/, "")));
    case "lookup":
      return false;
  }
}

interface Given {
  /** Options as they count for conflicts: `-f`, `Bu`, `--forest`, `-o`. */
  options: string[];
  /** Values that may fail the UNIX reading (an unknown user, a bad list or key), each as written. */
  mayFail: string[];
}

function take(kind: ValueKind, value: Arg | undefined, given: Given): NotUnderstood | null {
  if (value === undefined) return { word: "ps", reason: "an option of ps lacks its value" };
  if (value.value === null) return { word: value.raw, reason: "a ps value only known at run time" };
  if (!valueHolds(kind, value.value)) given.mayFail.push(value.raw);
  return null;
}

/** One cluster of letters (`-ef`, `aux`, `-opid`): a letter that takes a value takes the rest, or the next word. */
function cluster(
  argv: readonly Arg[],
  i: number,
  prefix: "-" | "B",
  given: Given,
): { next: number; why: NotUnderstood | null } {
  const a = argv[i] as Arg;
  const v = a.value as string;
  const letters = prefix === "-" ? v.slice(1) : v;
  const [flags, values] = prefix === "-" ? [UNIX_FLAGS, UNIX_VALUES] : [BSD_FLAGS, BSD_VALUES];
  for (let k = 0; k < letters.length; k++) {
    const c = letters[k] as string;
    given.options.push(`${prefix}${c}`);
    const kind = Object.hasOwn(values, c) ? values[c] : undefined;
    if (kind !== undefined) {
      const rest = letters.slice(k + 1);
      const glued = rest === "" ? undefined : { ...a, value: rest, raw: rest };
      const value = glued ?? argv[i + 1];
      return { next: glued ? i + 1 : i + 2, why: take(kind, value, given) };
    }
    if (!flags.has(c))
      return {
        next: i + 1,
        why: {
          word: a.raw,
          reason:
            prefix === "B" && c === "e"
              ? "ps e prints every process's environment, secrets included"
              : `ps has no ${prefix === "-" ? "-" : "BSD option "}${c} understood here`,
        },
      };
  }
  return { next: i + 1, why: null };
}

/** Options that fail together (measured): thread displays with each other and with forest displays. */
const THREADS_OR_FOREST = ["-L", "-T", "-m", "-H", "--forest"];
/** A format of one's own (-o, -O) fails beside a format option (`-el -o pid`, `-ejO pid`) and -O after -o. */
const OWN_FORMAT = ["-o", "--format", "-O"];
const FORMATS = ["-f", "-F", "-l", "-j", "-c", "-y"];

/** Why a line with an e in it may fail its UNIX reading (ps then reads it again as BSD), or null. */
function mayFailWhy(given: Given): string | null {
  const has = (o: string) => given.options.includes(o);
  if (given.mayFail.length > 0)
    return `\`${given.mayFail[0]}\` is not known to hold (a name looked up, a list or key not checked here)`;
  if (given.options.some((o) => o.startsWith("B"))) return "BSD letters beside UNIX ones may conflict";
  if (["-q", "--quick-pid", "-N", "--deselect"].some(has)) return "-q and -N conflict with other selections";
  if (has("-y") && !has("-l")) return "-y without -l fails";
  if (THREADS_OR_FOREST.filter(has).length > 1)
    return "thread displays conflict with each other and with forests";
  const own = OWN_FORMAT.filter(has);
  if (own.length > 0 && (FORMATS.some(has) || (has("-O") && own.length > 1)))
    return "a format of its own conflicts with other format options";
  return null;
}

function judgePs(argv: readonly Arg[]): Understanding {
  const effects = emptyEffects("read");
  const given: Given = { options: [], mayFail: [] };
  const no = (why: NotUnderstood): Understanding => ({ understood: false, why, effects });
  for (let i = 1; i < argv.length; ) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) return no({ word: a.raw, reason: "a ps word only known at run time may be e" });
    if (v.startsWith("--")) {
      const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
      given.options.push(name);
      if (LONG_FLAGS.has(v)) {
        i++;
        continue;
      }
      const kind = Object.hasOwn(LONG_VALUES, name) ? LONG_VALUES[name] : undefined;
      if (kind === undefined) return no({ word: a.raw, reason: `ps has no option ${name} understood here` });
      const inline = v.includes("=") ? { ...a, value: v.slice(name.length + 1) } : undefined;
      const why = take(kind, inline ?? argv[i + 1], given);
      if (why !== null) return no(why);
      i += inline ? 1 : 2;
      continue;
    }
    if (/^\d+$/.test(v)) {
      i++; // a process number (BSD)
      continue;
    }
    const { next, why } = cluster(argv, i, v.startsWith("-") && v.length > 1 ? "-" : "B", given);
    if (why !== null) return no(why);
    i = next;
  }
  const e = argv.slice(1).find((w) => w.value?.includes("e"));
  const why = e === undefined ? null : mayFailWhy(given);
  if (e !== undefined && why !== null)
    return no({
      word: e.raw,
      reason: `${why}: when ps's UNIX reading fails, it reads every word again as BSD, where this e prints environments`,
    });
  return { understood: true, effects };
}

export const ps: ProgramGrammar = {
  names: ["ps"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgePs,
};
