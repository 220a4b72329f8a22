// ss (iproute2 6.1) and netstat (net-tools 2.10), both getopt_long: print the system's sockets from the
// kernel (netlink, /proc/net). -p shows which processes hold them, from /proc/PID/fd, which is no secret of
// this user's (docs/policy.md, "ps"). ss's operands are its filter (`state listening`, `sport = :3000`),
// never files; its -F reads the filter from a file and -D writes raw socket data to one (`-` is standard
// input and output). ss -K closes sockets and -N enters another network namespace: not understood.
// netstat ignores operands; they are refused here, as words it does not place.
import { noOperand, raise } from "../effects.ts";
import { flag, type NotUnderstood, opt, type ProgramGrammar } from "../spec.ts";

const FAMILIES = ["inet", "inet6", "link", "unix", "netlink", "vsock", "tipc", "xdp", "help"];

/** ss's filter words (ss(8), iproute2 6.1 ssfilter.y): keywords and operators. */
const FILTER_WORDS = new Set([
  ..."dst src dport sport dev fwmark cgroup autobound inode and or not".split(" "),
  ..."eq ne gt lt ge le == != = > < >= <= && || !".split(" "),
]);
/** States, which ss takes only right after `state` or `exclude` (elsewhere the filter reads a word as a host). */
const STATES = new Set([
  ..."all connected synchronized bucket big established syn-sent syn-recv fin-wait-1 fin-wait-2".split(" "),
  ..."time-wait closed close-wait last-ack listening closing".split(" "),
]);
const STATE_KEYWORDS = new Set(["state", "exclude", "excluded"]);
/**
 * A numeric address, port or prefix: `:3000`, `*:80`, `10.0.0.1:22`, `10.0.0.0/8`, `[::1]:22`, `0x10/0xff`; a port
 * may be a service's name (`:ssh`), which /etc/services answers on the machine.
 */
const NUMERIC =
  /^(?:\*|\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?|\[[0-9A-Fa-f:.]+\](?:\/\d{1,3})?)?(?::(?:\*|\d+|[a-z][a-z0-9-]*))?$|^\d+$|^0x[0-9a-f]+(?:\/0x[0-9a-f]+)?$/i;

/** The first filter token that may be a host name (looked up), or null. */
function filterLookup(words: readonly (string | null)[]): NotUnderstood | null {
  let previous = "";
  for (const word of words) {
    if (word === null)
      return { word: "$…", reason: "an ss filter word only known at run time may be a host name" };
    for (const token of word.split(/[\s()]+/).filter((t) => t !== "")) {
      const lower = token.toLowerCase();
      const known =
        FILTER_WORDS.has(lower) ||
        STATE_KEYWORDS.has(lower) ||
        (STATE_KEYWORDS.has(previous) && STATES.has(lower)) ||
        NUMERIC.test(token);
      // `dev NAME` names a network interface, which the kernel knows by that name.
      const device = previous === "dev" && /^[\w.:-]+$/.test(token);
      previous = lower;
      if (known || device) continue;
      return { word, reason: `ss looks \`${token}\` up as a host name in the DNS: a name it sends out` };
    }
  }
  return null;
}

export const ss: ProgramGrammar = {
  names: ["ss"],
  options: [
    ...["-h --help", "-V --version", "-n --numeric", "-r --resolve", "-a --all", "-l --listening"].map((n) =>
      flag(n),
    ),
    ...["-o --options", "-e --extended", "-m --memory", "-p --processes", "-T --threads", "-i --info"].map(
      (n) => flag(n),
    ),
    ...["--tipcinfo", "-s --summary", "--tos", "--cgroup", "-b --bpf", "-E --events", "-Z --context"].map(
      (n) => flag(n),
    ),
    ...["-z --contexts", "-4 --ipv4", "-6 --ipv6", "-0 --packet", "-t --tcp", "-M --mptcp", "-S --sctp"].map(
      (n) => flag(n),
    ),
    ...["-u --udp", "-d --dccp", "-w --raw", "-x --unix", "--tipc", "--vsock", "--xdp", "-H --no-header"].map(
      (n) => flag(n),
    ),
    ...["-O --oneline", "--inet-sockopt"].map((n) => flag(n)),
    opt("-f --family", "string", { choices: FAMILIES }),
    opt("-A --query --socket"),
    opt("-D --diag", "write"),
    opt("-F --filter", "read"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  finish(p, out) {
    if (out.paths.some((e) => e.access === "write")) raise(out, "write");
    return filterLookup(p.operands.map((a) => a.value));
  },
};

export const netstat: ProgramGrammar = {
  names: ["netstat"],
  options: [
    ...["-V --version", "-h --help", "-i --interfaces", "-r --route", "-M --masquerade", "-g --groups"].map(
      (n) => flag(n),
    ),
    ...["-s --statistics", "-v --verbose", "-W --wide", "-n --numeric", "--numeric-hosts"].map((n) =>
      flag(n),
    ),
    ...["--numeric-ports", "--numeric-users", "-N --symbolic", "-e --extend", "-p --programs"].map((n) =>
      flag(n),
    ),
    ...["-o --timers", "-c --continuous", "-l --listening", "-a --all", "-F --fib", "-C --cache"].map((n) =>
      flag(n),
    ),
    ...["-Z --context", "-t --tcp", "-u --udp", "-U --udplite", "-S --sctp", "-w --raw", "-x --unix"].map(
      (n) => flag(n),
    ),
    ...["--ax25", "--ipx", "--netrom", "--inet", "--inet6", "-4", "-6"].map((n) => flag(n)),
    opt("-A --protocol"),
  ],
  permute: true,
  abbreviate: true,
  operands: [],
  effect: "read",
  finish(p) {
    return noOperand(p, "netstat takes no operand");
  },
};
