// shfmt (mvdan/sh v3, cmd/shfmt/main.go; Go's flag package: `-x` and `--x` alike, whole words, options
// end at the first operand) formats the files it names and the shell scripts below the directories it
// names (a walk that skips .git/.svn/.hg and follows no link but a named one), standard input without
// any: it prints them formatted, or their diffs (-d), or lists them (-l). Its only configuration is
// EditorConfig (`.editorconfig` above each file: formatting values, no path), which
// guards/linter-configs.ts looks at. -w rewrites the files: not understood, as are the JSON forms.
import { listOrWalk } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const shfmt: ProgramGrammar = {
  names: ["shfmt"],
  options: [
    ...[
      "--version",
      "-h --help",
      "-d --diff",
      "-l --list",
      "--apply-ignore",
      "-p --posix",
      "-s --simplify",
    ].map((n) => flag(n)),
    ...["-bn --binary-next-line", "-ci --case-indent", "-sr --space-redirects", "-kp --keep-padding"].map(
      (n) => flag(n),
    ),
    ...["-fn --func-next-line", "-mn --minify"].map((n) => flag(n)),
    opt("-i --indent", "number"),
    opt("-ln --language-dialect", "string", { choices: ["bash", "posix", "mksh", "bats", "zsh", "auto"] }),
    opt("--detect", "string", { choices: ["default", "exec", "all"] }),
  ],
  permute: false,
  abbreviate: false,
  singleDash: true,
  operands: ["walk"],
  effect: "read",
  finish(p, out) {
    listOrWalk(p, out, { recursive: true, follow: "args", dflt: null, contents: true });
    return null;
  },
};
