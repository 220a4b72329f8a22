// Block devices and mounts (util-linux 2.38's lsblk and findmnt) and iproute2's `ip` in its listing forms:
// they read /sys, /proc and netlink and print. lsblk --sysroot and findmnt -F/--tab-file read another
// directory's or file's tables and print what they hold, findmnt -N another task's, --poll waits for
// changes: not listed. `mount` (util-linux 2.38) with no operand and only -l lists the mount table
// (/proc/self/mountinfo), as findmnt does; any operand, -a or -t … mounts or may. Any `ip` form that is not OBJECT [show|list] [words] changes the network or runs a
// command (`ip netns exec`).

import type { Arg } from "../../wrappers.ts";
import { noOperand } from "../effects.ts";
import { emptyEffects } from "../parse.ts";
import { flag, opt, optional, type ProgramGrammar, type Understanding } from "../spec.ts";

const VERSION = [flag("-h --help"), flag("-V --version")];

export const lsblk: ProgramGrammar = {
  names: ["lsblk"],
  options: [
    ...VERSION,
    ...["-A --noempty", "-D --discard", "-J --json", "-M --merge", "-O --output-all", "-P --pairs"].map((n) =>
      flag(n),
    ),
    ...["-S --scsi", "-a --all", "-b --bytes", "-d --nodeps", "-f --fs", "-i --ascii", "-l --list"].map((n) =>
      flag(n),
    ),
    ...["-m --perms", "-n --noheadings", "-p --paths", "-r --raw", "-s --inverse", "-t --topology"].map((n) =>
      flag(n),
    ),
    ...["-y --shell", "-z --zoned"].map((n) => flag(n)),
    optional("-T --tree"),
    opt("-E --dedup -I --include -e --exclude -o --output -x --sort"),
    opt("-w --width", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["list"],
  effect: "read",
};

export const findmnt: ProgramGrammar = {
  names: ["findmnt"],
  options: [
    ...VERSION,
    ...["-s --fstab", "-m --mtab", "-k --kernel", "-A --all", "-a --ascii", "-b --bytes"].map((n) => flag(n)),
    ...["-C --nocanonicalize", "-c --canonicalize", "-D --df", "-e --evaluate", "-f --first-only"].map((n) =>
      flag(n),
    ),
    ...["-i --invert", "-J --json", "-l --list", "-n --noheadings", "--output-all", "-P --pairs"].map((n) =>
      flag(n),
    ),
    ...["--pseudo", "--shadowed", "-R --submounts", "-r --raw", "--real", "--tree", "-U --uniq"].map((n) =>
      flag(n),
    ),
    ...["-u --notruncate", "-v --nofsroot", "-y --shell", "-x --verify", "--verbose", "--vfs-all"].map((n) =>
      flag(n),
    ),
    opt("-d --direction", "string", { choices: ["forward", "backward"] }),
    opt("-O --options -o --output -S --source -t --types"),
    opt("-T --target -M --mountpoint", "list"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["list"],
  effect: "read",
};

/**
 * mount's listing form: mount.c lists when no source, target or -a is given; -l adds labels, -h and -V
 * print. -t alone also lists but is a mount's option in every other form: not listed.
 */
export const mount: ProgramGrammar = {
  names: ["mount"],
  options: [...VERSION, flag("-l --show-labels")],
  permute: true,
  abbreviate: true,
  operands: [],
  effect: "read",
  finish(p) {
    return noOperand(p, "mount given an operand mounts it");
  },
};

/** ip's global options that only shape what it prints (`ip -br -c a`); -batch, -netns, -all, -resolve (DNS) and -force are not here. */
const IP_FLAGS = new Set([
  ...["-4", "-6", "-0", "-br", "-brief", "-c", "-color", "-s", "-stats", "-statistics", "-d", "-details"],
  ...["-j", "-json", "-p", "-pretty", "-o", "-oneline", "-h", "-human", "-human-readable", "-V", "-Version"],
]);
/** ip's objects in the order ip.c tries them: a word names the first one it is a prefix of (`ip a`, `ip net` is netns). */
const IP_TABLE = [
  ...["address", "addrlabel", "maddress", "route", "rule", "neighbor", "neighbour", "ntable", "ntbl", "link"],
  ...["l2tp", "fou", "ila", "macsec", "tunnel", "tuntap", "tap", "token", "tcpmetrics", "tcp_metrics"],
  ...["monitor", "xfrm", "mroute", "mrule", "netns", "netconf", "vrf", "sr", "nexthop", "mptcp", "ioam"],
  ...["stats", "help"],
];
/** The objects whose bare, `show` or `list` form only prints. */
const IP_LISTED = new Set([
  "address",
  "addrlabel",
  "maddress",
  "route",
  "rule",
  "neighbor",
  "neighbour",
  "link",
]);
const IP_LISTING = new Set(["show", "list"]);

function refuse(word: string, reason: string): Understanding {
  return { understood: false, why: { word, reason }, effects: emptyEffects("read") };
}

export function judgeIp(argv: readonly Arg[]): Understanding {
  let i = 1;
  for (; i < argv.length && (argv[i]?.value ?? "-").startsWith("-"); i++)
    if (!IP_FLAGS.has(argv[i]?.value ?? ""))
      return refuse(argv[i]?.raw ?? "-", "not an ip option that only shapes output");
  const object = argv[i];
  if (object === undefined) return refuse("ip", "ip without an object prints its usage");
  const word = object.value ?? "";
  const named = word === "" ? undefined : IP_TABLE.find((o) => o.startsWith(word));
  if (named === undefined || !IP_LISTED.has(named)) return refuse(object.raw, "not an ip object listed here");
  const action = argv[i + 1];
  if (action !== undefined && !IP_LISTING.has(action.value ?? ""))
    return refuse(action.raw, "ip changes the network in every form but show and list");
  const unknown = argv.slice(i + 2).find((a) => a.value === null);
  if (unknown !== undefined) return refuse(unknown.raw, "it is only known at run time");
  return { understood: true, effects: emptyEffects("read") };
}

export const ip: ProgramGrammar = {
  names: ["ip"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgeIp,
};
