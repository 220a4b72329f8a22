// tsc (TypeScript 5): compiles the project (tsconfig.json); emits files unless --noEmit. The
// compiler itself comes from the project's node_modules, so it counts as project code.
import { responseFileWord } from "../response-files.ts";
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

export const tsc = runner({
  names: ["tsc"],
  options: [
    ...[
      "--noEmit",
      "-b --build",
      "-w --watch",
      "--pretty",
      "--listFiles",
      "--listEmittedFiles",
      "--strict",
    ].map((n) => flag(n)),
    ...[
      "--incremental",
      "--skipLibCheck",
      "--showConfig",
      "--extendedDiagnostics",
      "--diagnostics",
      "--init",
      "-v",
    ].map((n) => flag(n)),
    opt("-p --project", "read"),
    opt("--outDir --declarationDir --tsBuildInfoFile", "write"),
    opt("-t --target -m --module --moduleResolution --lib --jsx --locale"),
  ],
  check: responseFileWord,
  definedBy: ["tsconfig.json", "package.json", "node_modules"],
});
