// fd (fd-find 8.6, `fdfind` on Debian): the first operand is the pattern, the rest (`.` when none)
// are walked for names, skipping ignored files unless -I/-u. -x/-X run a command for each result:
// the command is judged as its own unit, with `{}` placeholders only known at run time.
import { DOT, listOrWalk, placeholders } from "../effects.ts";
import { flag, opt, type ProgramGrammar, runs } from "../spec.ts";

const PLACEHOLDER = /\{(\/|\/\/|\.|\/\.)?\}/;

export const fd: ProgramGrammar = {
  names: ["fd", "fdfind"],
  options: [
    ...[
      "-h --help",
      "-V --version",
      "-s --case-sensitive",
      "-i --ignore-case",
      "--regex",
      "-F --fixed-strings",
    ].map((n) => flag(n)),
    ...[
      "-a --absolute-path",
      "-l --list-details",
      "-p --full-path",
      "-0 --print0",
      "--prune",
      "-1",
      "-q --quiet",
    ].map((n) => flag(n)),
    ...["--show-errors", "--strip-cwd-prefix", "--one-file-system", "-g --glob", "-H --hidden"].map((n) =>
      flag(n),
    ),
    flag("-I --no-ignore --no-ignore-vcs --no-ignore-parent -u --unrestricted", "no-ignore"),
    flag("-L --follow", "follow"),
    opt("--and -E --exclude -e --extension", "pattern"),
    opt("-d --max-depth --min-depth --exact-depth -j --threads --max-results --batch-size", "number"),
    opt("-t --type -S --size --changed-within --changed-before -o --owner -c --color --path-separator"),
    opt("--ignore-file", "read"),
    runs("-x --exec -X --exec-batch", [";"]),
    opt("--base-directory", "list", { mode: "base" }),
    opt("--search-path", "walk", { mode: "search" }),
  ],
  permute: true,
  abbreviate: false,
  operands: ["pattern", "walk"],
  effect: "read",
  finish(p, out) {
    // fd puts a result's path wherever a placeholder appears in the command's words, and after the
    // last word when none does (`fd -g '*.env' -x cat` runs `cat ./.env`: red team, round 9).
    out.inner = out.inner.map((cmd) => {
      const marked = placeholders(cmd, PLACEHOLDER);
      return cmd.some((a) => a.value !== null && PLACEHOLDER.test(a.value))
        ? marked
        : [...marked, { value: null, raw: "{}", glob: false, tilde: false }];
    });
    if (p.has("base"))
      return {
        word: "--base-directory",
        reason: "fd --base-directory moves every path to another directory",
      };
    const search = p.values("search");
    out.paths = out.paths.filter((e) => !search.includes(e.arg));
    const paths = [...p.operands.slice(1), ...search];
    listOrWalk(
      p,
      out,
      { recursive: true, follow: p.has("follow") ? "all" : "none", dflt: DOT, ignores: !p.has("no-ignore") },
      paths,
    );
    return null;
  },
};
