// python3 (3.11): options (clustered single letters), then `-c CODE`, `-m MODULE` or a script
// file it runs, then the program's own arguments. No script: a session (interpreters.ts).
import { pathEffect } from "../parse.ts";
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

export const python = runner({
  names: ["python", "python3", "python3.11", "python3.12", "python3.13"],
  options: [
    ...["-b", "-B", "-d", "-E", "-i", "-I", "-O", "-OO", "-P", "-q", "-s", "-S", "-u", "-v", "-V", "-x"].map(
      (n) => flag(n),
    ),
    opt("-W -X"),
    opt("-c", "pattern", { mode: "inline" }),
    // `-m MODULE ARGS…` ends python's options: the module runs as a command of its own (`python3 -m pytest -q`).
    { names: ["-m"], command: [], mode: "module" },
    flag("--check-hash-based-pycs"),
  ],
  permute: false,
  definedBy: ["pyproject.toml"],
  check(p, out) {
    // `-c`/`-m` end python's options: what follows is the program's (parsed as operands here, when not options).
    const script = p.operands[0];
    if (script !== undefined && !p.has("inline") && !p.has("module")) {
      out.paths.push(pathEffect("exec", script));
      out.definedBy.push(script.value ?? script.raw);
    }
    return null;
  },
});
