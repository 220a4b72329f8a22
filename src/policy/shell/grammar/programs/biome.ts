// biome (1.x/2.x): check, lint, format, ci; --write/--fix rewrite files. Its configuration is
// JSON, but the binary comes from the project's node_modules.
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

export const biome = runner({
  names: ["biome"],
  options: [
    ...[
      "--write",
      "--fix",
      "--unsafe",
      "--apply",
      "--apply-unsafe",
      "--staged",
      "--changed",
      "--no-errors-on-unmatched",
    ].map((n) => flag(n)),
    ...["--verbose", "--error-on-warnings"].map((n) => flag(n)),
    opt("--config-path", "read"),
    opt(
      "--colors --diagnostic-level --max-diagnostics --reporter --since --files-max-size --log-level --vcs-root",
    ),
  ],
  subcommands: {
    check: true,
    lint: true,
    format: true,
    ci: true,
    version: false,
    explain: false,
    rage: false,
  },
  definedBy: ["biome.json", "biome.jsonc", "package.json", "node_modules"],
});
