// go (1.19-1.24): `go <command> [arguments]`, no options before the command. build, test, run, vet,
// generate and install compile and run the module's code (go generate runs any //go:generate command):
// runners. list, doc, fmt, env, version and help are placed word by word (go-reads.ts). Every other
// command (get, mod, work, clean, tool, bug, fix, telemetry) downloads, writes or runs: not understood.
// A go.mod `toolchain` line (or GOTOOLCHAIN) makes any go command download and run that release, and
// go.mod/go.work linked onto a secret is quoted back: the disk's to see (disk-targets.ts).
import type { Arg } from "../../wrappers.ts";
import { emptyEffects, understand } from "../parse.ts";
import { runner } from "../runner.ts";
import type { ProgramGrammar, Understanding } from "../spec.ts";
import { flag, opt } from "../spec.ts";
import { goDoc, goEnv, goFmt, goHelp, goList, goVersion } from "./go-reads.ts";

/** The build flags the runners take (`go help build`); -o and -coverprofile write the file they name. */
const BUILD_FLAGS = [
  ...["-v", "-x", "-race", "-cover", "-short", "-json", "-n", "-a", "-failfast", "-trimpath"].map((n) =>
    flag(n),
  ),
  opt("-run -skip -bench -benchtime -timeout -tags -p -count -ldflags -gcflags -mod -covermode -cpu"),
  opt("-o -coverprofile", "write"),
];

const runs = (name: string) =>
  runner({ names: [`go ${name}`], options: BUILD_FLAGS, definedBy: ["go.mod", "go.sum"], singleDash: true });

/** Each command go understands here, by its name as the first word. */
export const GO_COMMANDS: Readonly<Record<string, ProgramGrammar>> = {
  build: { ...runs("build"), permute: false },
  // `go test ./... -run X`: test flags may follow the packages.
  test: runs("test"),
  run: { ...runs("run"), permute: false },
  vet: { ...runs("vet"), permute: false },
  generate: { ...runs("generate"), permute: false },
  install: { ...runs("install"), permute: false },
  list: goList,
  doc: goDoc,
  fmt: goFmt,
  env: goEnv,
  version: goVersion,
  help: goHelp,
};

function judgeGo(argv: readonly Arg[]): Understanding {
  const sub = argv[1];
  const out = emptyEffects("read");
  if (sub === undefined) return { understood: true, effects: out }; // prints usage
  const name = sub.value;
  if (name === null)
    return {
      understood: false,
      why: { word: sub.raw, reason: "the go command is only known at run time" },
      effects: out,
    };
  if (!Object.hasOwn(GO_COMMANDS, name))
    return {
      understood: false,
      why: {
        word: sub.raw,
        reason: `go ${name} is not a go command this engine understands (it may download, write or run)`,
      },
      effects: out,
    };
  return understand(GO_COMMANDS[name] as ProgramGrammar, argv, 2);
}

export const go: ProgramGrammar = {
  names: ["go"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgeGo,
};
