// prettier (3): loads its configuration (which may be code) and plugins, formats files; --write
// rewrites them.
import { specifierNotUnderstood } from "../module-specifier.ts";
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

export const prettier = runner({
  names: ["prettier"],
  options: [
    ...[
      "--check -c",
      "--write -w",
      "-l --list-different",
      "--cache",
      "--no-config",
      "--no-semi",
      "--single-quote",
    ].map((n) => flag(n)),
    ...["--ignore-unknown -u", "--no-error-on-unmatched-pattern", "--log-level", "-v"].map((n) => flag(n)),
    opt("--config", "exec"),
    opt("--plugin", "exec"),
    opt("--ignore-path", "read"),
    opt(
      "--parser --print-width --tab-width --trailing-comma --end-of-line --cache-location --stdin-filepath",
    ),
  ],
  definedBy: ["package.json", ".prettierrc", ".prettierrc.js", "prettier.config.js", ".prettierrc.mjs"],
  // A plugin is imported as node resolves it: a URL or a package name is code never judged.
  check: (p) =>
    p
      .values("--plugin")
      .map((v) => specifierNotUnderstood("prettier", v))
      .find((r) => r !== null) ?? null,
});
