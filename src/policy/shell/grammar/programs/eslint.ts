// eslint (8/9): loads its configuration (eslint.config.js is code) and plugins, then lints files;
// --fix rewrites them.
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

export const eslint = runner({
  names: ["eslint"],
  options: [
    ...[
      "--fix",
      "--fix-dry-run",
      "--cache",
      "--quiet",
      "--no-eslintrc",
      "--no-ignore",
      "--color",
      "--no-color",
      "-v",
    ].map((n) => flag(n)),
    ...[
      "--no-error-on-unmatched-pattern",
      "--report-unused-disable-directives",
      "--debug",
      "--print-config",
    ].map((n) => flag(n)),
    opt("-c --config", "exec"),
    opt("-f --format --ext --max-warnings --rule --parser --plugin --cache-location --ignore-pattern"),
    opt("-o --output-file", "write"),
  ],
  definedBy: [
    "eslint.config.js",
    "eslint.config.mjs",
    "eslint.config.cjs",
    "eslint.config.ts",
    ".eslintrc.js",
    ".eslintrc.cjs",
    "package.json",
  ],
});
