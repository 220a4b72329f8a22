// rg (ripgrep 13.0): the first operand is the pattern unless -e/-f/--files/--type-list; the rest
// (`.` when none) are walked and every file's contents read, skipping what ignore files exclude
// (unless --no-ignore/-u), following symlinks only with -L. Options are exact (clap, no
// abbreviation). --pre and --hostname-bin run programs and -z runs decompressors: not understood.
import { DOT, listOrWalk } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const rg: ProgramGrammar = {
  names: ["rg"],
  options: [
    ...[
      "-h --help",
      "-V --version",
      "--auto-hybrid-regex",
      "--binary",
      "--block-buffered",
      "-b --byte-offset",
    ].map((n) => flag(n)),
    ...[
      "-s --case-sensitive",
      "--column",
      "-c --count",
      "--count-matches",
      "--crlf",
      "--debug",
      "--trace",
    ].map((n) => flag(n)),
    ...[
      "-l --files-with-matches",
      "--files-without-match",
      "-F --fixed-strings",
      "--glob-case-insensitive",
    ].map((n) => flag(n)),
    ...[
      "--heading",
      "--no-heading",
      "-i --ignore-case",
      "--ignore-file-case-insensitive",
      "--include-zero",
    ].map((n) => flag(n)),
    ...[
      "-v --invert-match",
      "--json",
      "--no-json",
      "--line-buffered",
      "-n --line-number",
      "-x --line-regexp",
    ].map((n) => flag(n)),
    ...[
      "--max-columns-preview",
      "--mmap",
      "--no-mmap",
      "-U --multiline",
      "--multiline-dotall",
      "--no-config",
    ].map((n) => flag(n)),
    ...["-I --no-filename", "-N --no-line-number", "--no-messages", "--no-pcre2-unicode", "--no-unicode"].map(
      (n) => flag(n),
    ),
    ...["--no-ignore-messages", "--no-require-git", "-0 --null", "--null-data", "--one-file-system"].map(
      (n) => flag(n),
    ),
    ...[
      "-o --only-matching",
      "--passthru --passthrough",
      "-P --pcre2",
      "--pcre2-version",
      "-p --pretty",
      "-q --quiet",
    ].map((n) => flag(n)),
    ...[
      "-S --smart-case",
      "--stats",
      "-a --text",
      "--trim",
      "--vimgrep",
      "-H --with-filename",
      "-w --word-regexp",
    ].map((n) => flag(n)),
    ...[
      "--no-context-separator",
      "--hidden -.",
      "--pcre2-unicode",
      "--unicode",
      "--no-stats",
      "--no-text",
    ].map((n) => flag(n)),
    flag("--files --type-list", "pattern"),
    flag("-L --follow", "follow"),
    flag("--no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global", "no-ignore"),
    flag("--no-ignore-parent --no-ignore-vcs -u --unrestricted", "no-ignore"),
    flag("-z --search-zip", "runs"),
    opt("--pre --hostname-bin", "exec", { mode: "runs" }),
    opt("-A --after-context -B --before-context -C --context -M --max-columns -m --max-count", "number"),
    opt("--max-depth --maxdepth -j --threads --dfa-size-limit --regex-size-limit --max-filesize", "number"),
    opt("--color --colors --context-separator --field-context-separator --field-match-separator"),
    opt("-E --encoding --engine --path-separator -r --replace --sort --sortr"),
    opt("-e --regexp", "pattern", { mode: "pattern" }),
    opt("-f --file", "read", { mode: "pattern" }),
    opt("-g --glob --iglob --pre-glob -t --type -T --type-not --type-add --type-clear", "pattern"),
    opt("--ignore-file", "read"),
  ],
  permute: true,
  abbreviate: false,
  operands: ["pattern", "walk"],
  effect: "read",
  finish(p, out) {
    const runs = p.options.find((o) => o.spec.mode === "runs");
    if (runs !== undefined)
      return { word: runs.word.raw, reason: `rg ${runs.name} runs other programs on the files it searches` };
    const paths = p.has("pattern") ? p.operands : p.operands.slice(1);
    const follow = p.has("follow") ? "all" : "args";
    listOrWalk(
      p,
      out,
      { recursive: true, follow, dflt: DOT, contents: true, ignores: !p.has("no-ignore") },
      paths,
    );
    for (const e of out.paths)
      if (e.access === "walk") e.contents = !p.has("--files") && !p.has("--type-list");
    return null;
  },
};
