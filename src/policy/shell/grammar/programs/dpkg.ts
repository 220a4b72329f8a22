// The Debian package database's queries (dpkg 1.21, apt 2.6): `dpkg -l`, `dpkg -L git`, `dpkg-query -W`,
// `apt list --installed`, `apt-cache policy git`. Each reads /var/lib/dpkg and apt's lists and prints (proven
// by strace: dpkg execs `dpkg-query --list -- …`, apt-cache execs `/usr/bin/dpkg --print-foreign-architectures`).
// Their configuration (/etc/dpkg, /etc/apt, ~/.dpkg.cfg) is the system's and the user's own, written only by
// a person (home-config.ts); what an assignment changes (DPKG_*, APT_CONFIG) asks (env-vars.ts). --admindir,
// --root, apt's -o and -c point them at other files or programs (-o Dir::Bin::dpkg=./x runs ./x): not listed.
import type { Arg } from "../../wrappers.ts";
import { emptyEffects } from "../parse.ts";
import { flag, opt, type ProgramGrammar, type Understanding } from "../spec.ts";

/** The query actions dpkg-query performs and dpkg hands to it, and the options that only shape what they print. */
const QUERIES = ["-l --list", "-L --listfiles", "-s --status", "-S --search", "-p --print-avail"];
const SHAPES = ["--no-pager", "-h --help", "--version"];

export const dpkgQuery: ProgramGrammar = {
  names: ["dpkg-query"],
  options: [
    ...[...QUERIES, ...SHAPES, "-W --show"].map((n) => flag(n)),
    // A format of ${Field} names printed for each package (dpkg-query(1) "Format syntax").
    opt("-f --showformat"),
  ],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
};

/** dpkg in the query forms it runs dpkg-query for; every other action installs, removes or configures. */
export const dpkg: ProgramGrammar = {
  names: ["dpkg"],
  options: [...QUERIES, ...SHAPES].map((n) => flag(n)),
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
};

/** The subcommands of apt and apt-cache that only print from the local lists, with the options each takes. */
const APT_LISTINGS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  apt: {
    list: ["--installed", "--upgradable", "--upgradeable", "--manual-installed", "-a", "--all-versions"],
    show: ["-a", "--all-versions"],
    search: ["-n", "--names-only", "-f", "--full"],
    policy: [],
    depends: ["--installed", "--recurse"],
    rdepends: ["--installed", "--recurse"],
  },
  "apt-cache": {
    policy: [],
    show: ["-a", "--all-versions", "--no-all-versions"],
    showpkg: [],
    search: ["-n", "--names-only", "-f", "--full"],
    depends: ["--installed", "--recurse"],
    rdepends: ["--installed", "--recurse"],
    madison: [],
    pkgnames: [],
  },
};
/** A package name or apt's glob of one (`python3*`, `git:amd64`): never a path, an option or a config word. */
const PACKAGE_WORD = /^[A-Za-z0-9][A-Za-z0-9+.:~*?_-]*$/;
const QUIET = new Set(["-q", "--quiet", "-h", "--help", "-v", "--version"]);

function refuse(word: string, reason: string): Understanding {
  return { understood: false, why: { word, reason }, effects: emptyEffects("read") };
}

/** apt or apt-cache: one listing subcommand, its own options, package names. */
function judgeAptListing(argv: readonly Arg[]): Understanding {
  const program = argv[0]?.value ?? "";
  const subs = APT_LISTINGS[program] ?? {};
  const words = argv.slice(1);
  const subIndex = words.findIndex((w) => !QUIET.has(w.value ?? ""));
  const sub = words[subIndex];
  const allowed = sub?.value == null ? undefined : subs[sub.value];
  if (sub === undefined || allowed === undefined)
    return refuse(sub?.raw ?? program, `not one of ${program}'s listings (${Object.keys(subs).join(", ")})`);
  for (const w of words.slice(subIndex + 1)) {
    const value = w.value;
    if (value === null) return refuse(w.raw, "it is only known at run time");
    if (value.startsWith("-") ? !allowed.includes(value) && !QUIET.has(value) : !PACKAGE_WORD.test(value))
      return refuse(
        w.raw,
        `not an option of ${program} ${sub.value} that only shapes what it prints, nor a package name`,
      );
  }
  return { understood: true, effects: emptyEffects("read") };
}

export const apt: ProgramGrammar = {
  names: ["apt", "apt-cache"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgeAptListing,
};
