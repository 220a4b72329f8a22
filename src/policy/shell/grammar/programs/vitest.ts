// vitest (1-4) and jest (29): load their configuration (code) and run the test files.
import { runner } from "../runner.ts";
import { flag, opt, optional } from "../spec.ts";

export const vitest = runner({
  names: ["vitest"],
  options: [
    ...[
      "--run",
      "--watch -w",
      "--ui",
      "--silent",
      "--passWithNoTests",
      "--no-file-parallelism",
      "--bail",
    ].map((n) => flag(n)),
    ...["-u --update", "--allowOnly", "--globals", "--no-color", "-v"].map((n) => flag(n)),
    optional(
      "--coverage --reporter --project --pool --dir --root -r -t --testNamePattern --environment --shard",
    ),
    opt("-c --config", "exec"),
    opt("--outputFile", "write"),
  ],
  subcommands: { run: true, watch: true, dev: true, bench: true, related: true, list: true },
  definedBy: ["vitest.config.ts", "vitest.config.js", "vite.config.ts", "vite.config.js", "package.json"],
  check: () => null,
});

export const jest = runner({
  names: ["jest"],
  options: [
    ...[
      "--watch",
      "--watchAll",
      "--ci",
      "--coverage",
      "--runInBand -i",
      "--silent",
      "--verbose",
      "-u --updateSnapshot",
    ].map((n) => flag(n)),
    ...[
      "--passWithNoTests",
      "--detectOpenHandles",
      "--bail",
      "--onlyChanged -o",
      "--listTests",
      "--no-cache",
    ].map((n) => flag(n)),
    opt("-c --config", "exec"),
    opt("-t --testNamePattern --testPathPattern --maxWorkers -w --selectProjects --reporters --testTimeout"),
    opt("--outputFile", "write"),
  ],
  definedBy: ["jest.config.js", "jest.config.ts", "jest.config.mjs", "package.json"],
});
