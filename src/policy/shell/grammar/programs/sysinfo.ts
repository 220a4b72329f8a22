// Programs that print facts about the system or the session (GNU coreutils 9.1, hostname 3.23,
// procps-ng 4.0.2's free, which reads /proc/meminfo):
// their operands are names or numbers, never files. `hostname NAME` sets the host name and
// printenv prints the environment (secret-output.ts makes a rule say `sensitive` for that).
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

const info = (
  names: string[],
  options: ProgramGrammar["options"],
  operands: ProgramGrammar["operands"] = [],
): ProgramGrammar => ({
  names,
  options: [...GNU_COMMON, ...options],
  permute: true,
  abbreviate: true,
  operands,
  effect: "read",
  ...(operands.length === 0
    ? {
        finish: (p) =>
          p.operands[0] === undefined
            ? null
            : { word: p.operands[0].raw, reason: `${names[0]} takes no operand` },
      }
    : {}),
});

export const whoami = info(["whoami"], []);
export const nproc = info(["nproc"], [flag("--all"), opt("--ignore", "number")]);
export const arch = info(["arch"], []);
export const uname = info(
  ["uname"],
  [
    ...["-a --all", "-s --kernel-name", "-n --nodename", "-r --kernel-release", "-v --kernel-version"].map(
      (n) => flag(n),
    ),
    ...["-m --machine", "-p --processor", "-i --hardware-platform", "-o --operating-system"].map((n) =>
      flag(n),
    ),
  ],
);
export const id = info(
  ["id"],
  [
    ...[
      "-a",
      "-Z --context",
      "-g --group",
      "-G --groups",
      "-n --name",
      "-r --real",
      "-u --user",
      "-z --zero",
    ].map((n) => flag(n)),
  ],
  ["string"],
);
// groups (coreutils) prints the groups of the users it names (itself without one), from the user database.
export const groups = info(["groups"], [], ["string"]);
// getconf (glibc 2.36) prints a configuration value, of the path it names for a pathconf one (a statfs,
// no file is opened). `-v SPEC` runs the getconf of another specification from GETCONF_DIR: not here.
export const getconf: ProgramGrammar = {
  ...info(["getconf"], [flag("-a")], ["string", "string"]),
  permute: false,
  abbreviate: false,
  finish: (p) =>
    p.operands.length > 2
      ? { word: p.operands[2]?.raw ?? "", reason: "getconf takes a name and a path" }
      : null,
};
export const printenv = info(["printenv"], [flag("-0 --null")], ["string"]);
export const seq = info(["seq"], [opt("-f --format -s --separator"), flag("-w --equal-width")], ["number"]);
export const sleep = info(["sleep"], [], ["number"]);
export const hostname: ProgramGrammar = {
  ...info(
    ["hostname"],
    [
      ...[
        "-s --short",
        "-f --fqdn --long",
        "-d --domain",
        "-i --ip-address",
        "-I --all-ip-addresses",
        "-A --all-fqdns",
      ].map((n) => flag(n)),
    ],
  ),
  abbreviate: false,
};
export const free = info(
  ["free"],
  [
    ...["-b --bytes", "-k --kibi", "-m --mebi", "-g --gibi", "--tebi", "--pebi", "--kilo", "--mega"].map(
      (n) => flag(n),
    ),
    ...["--giga", "--tera", "--peta", "-h --human", "--si", "-l --lohi", "-L --line", "-t --total"].map((n) =>
      flag(n),
    ),
    ...["-v --committed", "-w --wide", "-V"].map((n) => flag(n)),
    // `-s N` repeats every N seconds (until `-c N` times); `--help` and `--version` come with GNU_COMMON.
    opt("-s --seconds -c --count", "number"),
  ],
);
// uptime (procps-ng 4.0.2) reads /proc/uptime, /proc/loadavg and the login records.
export const uptime = info(["uptime"], [flag("-p --pretty"), flag("-s --since"), flag("-h"), flag("-V")]);
// lsb_release (Debian's lsb-release 12.0, a shell script: util-linux getopt, then operands ignored) prints
// fields of /etc/os-release. It sources the file LSB_OS_RELEASE names instead (env-vars.ts).
export const lsbRelease = info(
  ["lsb_release"],
  [
    ...["-h", "-v", "-i --id", "-d --description", "-r --release", "-c --codename", "-a --all"].map((n) =>
      flag(n),
    ),
    flag("-s --short"),
  ],
);
