// go (1.19-1.24): `go <command> [arguments]`, no options before the command. build, test, run, vet,
// generate and install compile and run the module's code (go generate runs any //go:generate command):
// runners; install writes into GOBIN, outside the workspace: not understood. list, doc, fmt, env, version and help are placed word by word (go-reads.ts). Every other
// command (get, mod, work, clean, tool, bug, fix, telemetry) downloads, writes or runs: not understood.
// A go.mod `toolchain` line (or GOTOOLCHAIN) makes any go command download and run that release, and
// go.mod/go.work linked onto a secret is quoted back: the disk's to see (disk-targets.ts).
import type { Arg } from "../../wrappers.ts";
import { emptyEffects, understand } from "../parse.ts";
import { runner } from "../runner.ts";
import type { NotUnderstood, Parsed, ProgramGrammar, Understanding } from "../spec.ts";
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

/**
 * What -ldflags and -gcflags may pass to the linker and compiler (`go tool link`, `go tool compile`): the
 * linker's own `-o` writes anywhere (`-ldflags=-o=.git/hooks/pre-commit`) and `-extld`/`-extar` run a program
 * (red team, round 22, r22-03, r22-04); the compiler's `-o`, `-cpuprofile`, `-importcfg`… write or read files.
 * Understood: the everyday ones (strip, version stamps, no optimisation, escape analysis); any other word asks.
 */
const TOOL_FLAGS: Readonly<Record<string, RegExp>> = {
  "-ldflags": /^(?:-s|-w|-X=?[\w./-]+=[\w.:+@-]*|-buildid=[\w./+=-]*)$/,
  "-gcflags": /^(?:-N|-l|-m(?:=\d)?|-race)$/,
};

/** A tool-flag value `[pattern=]args` as its words, or null when go's quoting would apply (not read here). */
function toolWords(value: string): string[] | null {
  if (/['"\\]/.test(value)) return null;
  const words = value.split(/\s+/).filter((w) => w !== "");
  // `all=-N -l`: a package pattern before the first `=` of the first word, which is no flag.
  const first = words[0];
  if (first !== undefined && !first.startsWith("-") && first.includes("="))
    words[0] = first.slice(first.indexOf("=") + 1);
  // `-X name=value` in two words is one setting.
  return words
    .flatMap((w, i) => (w === "-X" ? [] : words[i - 1] === "-X" ? [`-X=${w}`] : [w]))
    .filter((w) => w !== "");
}

function toolFlagsRefused(p: Parsed): NotUnderstood | null {
  for (const given of p.options) {
    const allowed = Object.hasOwn(TOOL_FLAGS, given.name) ? TOOL_FLAGS[given.name] : undefined;
    const v = given.value;
    if (allowed === undefined || v === null) continue;
    const words = v.value === null ? null : toolWords(v.value);
    const bad = words === null ? v.raw : words.find((w) => !allowed.test(w));
    if (bad !== undefined)
      return {
        word: v.raw,
        reason: `${given.name} passes \`${bad}\` to go's tools, which may write or run files by it`,
      };
  }
  return null;
}

const runs = (name: string) =>
  runner({
    names: [`go ${name}`],
    options: BUILD_FLAGS,
    definedBy: ["go.mod", "go.sum"],
    singleDash: true,
    check: toolFlagsRefused,
  });

/** Each command go understands here, by its name as the first word. */
export const GO_COMMANDS: Readonly<Record<string, ProgramGrammar>> = {
  build: { ...runs("build"), permute: false },
  // `go test ./... -run X`: test flags may follow the packages.
  test: runs("test"),
  run: { ...runs("run"), permute: false },
  vet: { ...runs("vet"), permute: false },
  generate: { ...runs("generate"), permute: false },

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
  if (name === "install")
    return {
      understood: false,
      why: {
        word: sub.raw,
        reason:
          "go install writes its binaries into GOBIN (~/go/bin), outside the workspace and searched by PATH (red team, round 22, r22-02)",
      },
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
