// node (20/22): options, then a script it runs (an exec of the file) and the script's own
// arguments (strings); no script reads a program from the terminal (interpreters.ts makes that a
// session). -e/-p run inline code (interpreters.ts: never allowed without a person, but for `node -p
// process.version` and its like, which only print a property of node); -r/--import
// and --loader load modules before the script. With --test every operand is a test file (or a glob
// node expands itself) it runs, and with none node finds them: `**/*.test.js`, `test/**`, … below the
// directory it runs in, following symlinked directories (red team, round 8: a committed `test` link to a
// directory out of the workspace ran a script there), node_modules skipped.
import { nodeJsonRead, printsNodeFact } from "../../interpreters.ts";
import { DOT } from "../effects.ts";
import { specifierNotUnderstood } from "../module-specifier.ts";
import { pathEffect } from "../parse.ts";
import { runner } from "../runner.ts";
import { flag, opt, optional, type Parsed } from "../spec.ts";

/**
 * `--help` anywhere prints the options and exits before any script or test file runs (`node --test --help`),
 * but after the -r/--require preloads have run (node 20: `node -r ./x.js --help` runs x.js), so a form
 * with a module to load is not only help.
 */
function printsHelpOnly(p: Parsed): boolean {
  return p.has("--help") && !p.options.some((o) => o.spec.kind === "exec");
}

/**
 * `node --check FILE` parses FILE and exits without running it (node 20, lib/internal/main/check_syntax.js),
 * after the preloads have run (-r, --import, --loader): a form with one is not only a check, nor one that
 * runs code another way (-e, -p, --test, --watch, -i, --run).
 */
function checksOnly(p: Parsed): boolean {
  return (
    p.has("--check") &&
    p.operands.length <= 1 &&
    !p.options.some((o) => o.spec.kind === "exec") &&
    !["-e", "-p", "--test", "--watch", "-i", "--run"].some((n) => p.has(n))
  );
}

/** Reporters node has built in (`--test-reporter=spec`); any other name is a module it loads. */
const REPORTERS = new Set(["spec", "tap", "dot", "junit", "lcov"]);

export const node = runner({
  names: ["node", "nodejs"],
  options: [
    flag("-v"),
    ...["-c --check", "-i --interactive", "--test", "--watch", "--enable-source-maps", "--no-warnings"].map(
      (n) => flag(n),
    ),
    ...[
      "--no-deprecation",
      "--trace-warnings",
      "--experimental-strip-types",
      "--experimental-vm-modules",
    ].map((n) => flag(n)),
    ...[
      "--experimental-test-coverage",
      "--expose-gc",
      "--trace-uncaught",
      "--preserve-symlinks",
      "--abort-on-uncaught-exception",
    ].map((n) => flag(n)),
    // Not --inspect/--inspect-brk/--inspect-wait/--inspect-port: they open a debugger port through
    // which any process that reaches it runs code in this one (red team, round 4).
    optional("--watch-path --test-name-pattern --stack-size"),
    // A reporter is a module node loads (`--test-reporter=./r.mjs`), and its destination a file written.
    opt("--test-reporter", "exec"),
    opt("--test-reporter-destination", "write"),
    opt("--max-old-space-size --max-semi-space-size --test-concurrency --test-timeout", "number"),
    opt("-r --require --import --loader --experimental-loader", "exec"),
    opt("-C --conditions --title --input-type"),
    // The file's variables become the program's environment, which it may print (red team, round 3).
    opt("--env-file", "read"),
    opt("-e --eval -p --print", "pattern"),
    flag("--run"),
  ],
  permute: false,
  definedBy: ["package.json"],
  runsNothingOfTheProject: (p) =>
    printsHelpOnly(p) || checksOnly(p) || printsNodeFact(p.argv.slice(1).map((a) => a.value)),
  check(p, out) {
    // A module it loads (-r, --import, --loader, a reporter) must be a file path: a URL or a package name
    // is code never judged.
    const modules = [
      ...p.values("--import").map((v) => specifierNotUnderstood("node", v)),
      ...p.values("--test-reporter").map((v) => specifierNotUnderstood("node", v, REPORTERS)),
    ];
    const refused = modules.find((r) => r !== null);
    if (refused !== undefined) return refused;
    if (printsHelpOnly(p)) return null;
    // `node -p "require('./package.json').version"` prints a field of the file: a read of it.
    const json = nodeJsonRead(p.argv);
    if (json !== null) out.paths.push(pathEffect("read", json));
    if (checksOnly(p)) {
      if (p.operands[0] !== undefined) out.paths.push(pathEffect("read", p.operands[0]));
      return null;
    }
    if (p.has("--test") && !p.has("-e") && !p.has("-p")) {
      for (const file of p.operands) {
        out.paths.push(pathEffect("exec", file));
        out.definedBy.push(file.value ?? file.raw);
      }
      if (p.operands.length === 0)
        out.paths.push(pathEffect("walk", DOT, { contents: false, follow: "all", prune: ["node_modules"] }));
      return null;
    }
    const script = p.operands[0];
    if (script !== undefined && !p.has("-e") && !p.has("-p") && !p.has("--run")) {
      out.paths.push(pathEffect("exec", script));
      out.definedBy.push(script.value ?? script.raw);
    }
    return null;
  },
});
