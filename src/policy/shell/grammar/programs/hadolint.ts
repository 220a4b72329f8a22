// hadolint (2.x, src/Hadolint/Config/Commandline.hs; optparse-applicative's default preferences: no
// abbreviation) lints the Dockerfiles it names (`-` is standard input) with its own parser and ShellCheck
// built in: it starts no program and prints rule findings and parse errors, which quote the file's lines.
// Its configuration is `.hadolint.yaml`/`.yml` in the directory it runs in, else the person's own under
// HOME, holding rule codes and registry names only; the HADOLINT_* variables hold the same. What a
// workspace config is on disk is guards/linter-configs.ts's. `-c`/`--config` and `--file-path-in-report`
// are not understood.
import { flag, opt, type ProgramGrammar } from "../spec.ts";

const FORMATS = [
  "tty",
  "json",
  "checkstyle",
  "codeclimate",
  "gitlab_codeclimate",
  "gnu",
  "codacy",
  "sonarqube",
];

export const hadolint: ProgramGrammar = {
  names: ["hadolint"],
  options: [
    ...["-h --help", "-v --version", "--no-fail", "--no-color", "-V --verbose"].map((n) => flag(n)),
    ...["--strict-labels", "--disable-ignore-pragma"].map((n) => flag(n)),
    opt("-f --format", "string", { choices: [...FORMATS, "sarif", "junit"] }),
    opt("-t --failure-threshold", "string", {
      choices: ["error", "warning", "info", "style", "ignore", "none"],
    }),
    opt("--error --warning --info --style --ignore --trusted-registry --require-label"),
  ],
  permute: true,
  abbreviate: false,
  operands: ["read"],
  effect: "read",
};
