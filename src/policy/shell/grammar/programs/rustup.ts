// rustup (1.2x), only the queries: `rustup show` (with `active-toolchain`, `home` or `profile`) and
// `rustup --version`, and the lists of what is installed (`rustup toolchain list`, `target list
// [--installed]`, `component list [--installed]`: they read rustup's home; strace shows no process run and no
// connection). All look up the active toolchain, the one a rust-toolchain file in the directory or
// above picks (its `path` names any directory's binaries; rustup before 1.28 installs a channel it names
// that is not installed), and `--version` runs that toolchain's rustc: the file is the disk's to see
// (disk-targets.ts). Any other subcommand installs, removes or runs something.
import { flag, type ProgramGrammar } from "../spec.ts";

const SHOWN = new Set(["active-toolchain", "home", "profile"]);
/** The subcommands whose `list` form only lists. */
const LISTED = new Set(["toolchain", "target", "component"]);

export const rustup: ProgramGrammar = {
  names: ["rustup"],
  options: [
    flag("-V --version", "version"),
    flag("-v --verbose"),
    flag("-q --quiet"),
    flag("-h --help", "help"),
    flag("--installed"),
  ],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  finish(p) {
    const [first, second, third] = p.operands;
    if (first === undefined)
      return p.has("version") || p.has("help")
        ? null
        : { word: "rustup", reason: "rustup without a subcommand is not understood here" };
    if (LISTED.has(first.value ?? "") && second?.value === "list" && third === undefined) return null;
    if (first.value !== "show")
      return { word: first.raw, reason: `rustup ${first.raw} may install, remove or run a toolchain` };
    if (third !== undefined || (second !== undefined && !SHOWN.has(second.value ?? "")))
      return {
        word: (third ?? second)?.raw ?? first.raw,
        reason: "rustup show takes one of active-toolchain, home, profile",
      };
    return null;
  },
};
