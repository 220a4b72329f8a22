// clang-format (LLVM's clang/tools/clang-format/ClangFormat.cpp; LLVM's command line: `-x` and `--x`
// alike, `-x=v` or `-x v`, `@FILE` response files expanded) formats the files it names, standard input
// without any: it prints them formatted, or warnings quoting their lines (--dry-run/-n), or replacements
// as XML. Its style comes from `.clang-format`/`_clang-format` in each file's directory or above
// (`BasedOnStyle: InheritParentConfig` goes on upward), and `.clang-format-ignore` files hold patterns:
// guards/linter-configs.ts looks at the config files. -i rewrites the files, `--files` reads a list of
// them, `--assume-filename` moves where the style is looked for, and `--style=file:PATH` names a config:
// not understood.
import { responseFileWord } from "../response-files.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const clangFormat: ProgramGrammar = {
  names: ["clang-format"],
  options: [
    ...["-h -help --help", "--version", "-n --dry-run", "--Werror", "--Wno-clang-format-violations"].map(
      (n) => flag(n),
    ),
    ...["--sort-includes", "--verbose", "--dump-config", "--output-replacements-xml"].map((n) => flag(n)),
    ...["--fail-on-incomplete-format", "--fcolor-diagnostics", "--fno-color-diagnostics"].map((n) => flag(n)),
    opt("--ferror-limit --offset --length --cursor", "number"),
    opt("--style --fallback-style --lines --qualifier-alignment"),
    opt("--Wno-error", "string", { choices: ["unknown"] }),
  ],
  permute: true,
  abbreviate: false,
  singleDash: true,
  operands: ["read"],
  effect: "read",
  finish(p) {
    const file = p.values("--style").find((v) => v.value === null || /^file:/i.test(v.value));
    if (file !== undefined)
      return { word: file.raw, reason: "a style read from a named file (or one only known when it runs)" };
    return responseFileWord(p);
  },
};
