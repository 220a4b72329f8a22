// go (1.19+): build, test, run, vet, generate compile and run the module's code (go generate runs
// any //go:generate command); env, list, version, doc read. `go list -m` resolves the module graph,
// downloading modules from the proxy (red team, round 8); a go.mod `toolchain` line (or GOTOOLCHAIN)
// makes any go command download and run that release: the disk's to see (disk-targets.ts).
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

export const go = runner({
  names: ["go"],
  options: [
    ...["-v", "-x", "-race", "-cover", "-short", "-json", "-n", "-a", "-m", "-u"].map((n) => flag(n)),
    opt("-run -bench -timeout -tags -o -p -count -coverprofile -ldflags -gcflags -mod"),
  ],
  subcommands: {
    build: true,
    test: true,
    run: true,
    vet: true,
    generate: true,
    install: true,
    env: false,
    list: false,
    version: false,
    doc: false,
    fmt: false,
  },
  definedBy: ["go.mod", "go.sum"],
  singleDash: true,
  check(p) {
    const m = p.options.find((o) => o.name === "-m");
    if (p.operands[0]?.value === "list" && m !== undefined)
      return {
        word: m.word.raw,
        reason:
          "go list -m resolves the module graph, downloading modules from the module proxy into the module cache",
      };
    return null;
  },
});
