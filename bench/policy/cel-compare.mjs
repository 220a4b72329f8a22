// CEL library comparison for policy conditions: @marcbachmann/cel-js vs @bufbuild/cel.
// Speed: compile once, evaluate many times (the engine's pattern). Correctness: a few CEL
// spec behaviours a policy depends on. Prints JSON; run.mjs includes it in results.json.
import { parse as bufParse, plan as bufPlan, celEnv, isCelError } from "@bufbuild/cel";
import { Environment } from "@marcbachmann/cel-js";

const CONDITIONS = [
  'tool == "bash" && command.startsWith("git ")',
  'path.startsWith(cwd) && !path.contains("/.git/")',
  'command.matches("^(npm|pnpm) (test|run [a-z:-]+)$")',
  'tool in ["read", "grep", "find", "ls"] && path.startsWith(cwd)',
  'args.timeout > 10 && args.mode == "fast"',
];
const ctx = {
  tool: "bash",
  command: "npm run test:unit",
  path: "/home/dev/project/src/index.ts",
  cwd: "/home/dev/project",
  args: { timeout: 30n, mode: "fast" },
};

function bench(fn, n = 200_000) {
  for (let i = 0; i < 20_000; i++) fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / n; // ns per evaluation
}

export function compareCel() {
  const marc = new Environment({ unlistedVariablesAreDyn: false });
  for (const v of ["tool", "command", "path", "cwd"]) marc.registerVariable(v, "string");
  marc.registerVariable("args", "map");
  const buf = celEnv();
  const bufCtx = { ...ctx, args: new Map(Object.entries(ctx.args)) };

  const speed = CONDITIONS.map((expr) => {
    const m = marc.parse(expr);
    const b = bufPlan(buf, bufParse(expr));
    const mv = m(ctx);
    const bv = b(bufCtx);
    return {
      expr,
      agree: mv === bv,
      marcbachmannNsPerEval: Math.round(bench(() => m(ctx))),
      bufbuildNsPerEval: Math.round(bench(() => b(bufCtx))),
    };
  });

  const compileNs = (fn) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 2000; i++) for (const e of CONDITIONS) fn(e);
    return Math.round(Number(process.hrtime.bigint() - t0) / (2000 * CONDITIONS.length));
  };

  // Spec behaviours the engine relies on; `true` means the library behaves as CEL specifies.
  const errs = (f) => {
    try {
      const v = f();
      return isCelError(v) || v instanceof Error;
    } catch {
      return true;
    }
  };
  const semantics = {
    "missing map key is an error (not false)": {
      marcbachmann: errs(() => marc.parse("args.nope == 1")(ctx)),
      bufbuild: errs(() => bufPlan(buf, bufParse("args.nope == 1"))(bufCtx)),
    },
    "error absorbed by && false": {
      marcbachmann: marc.parse("false && args.nope == 1")(ctx) === false,
      bufbuild: bufPlan(buf, bufParse("false && args.nope == 1"))(bufCtx) === false,
    },
    "unknown variable rejected before evaluation": {
      marcbachmann: !marc.check("toool == 1").valid,
      // True only if planning (before any evaluation) rejects the undeclared name.
      bufbuild: errs(() => bufPlan(buf, bufParse("toool == 1"))),
    },
    "string in list": {
      marcbachmann: marc.parse('"b" in ["a", "b"]')(ctx) === true,
      bufbuild: bufPlan(buf, bufParse('"b" in ["a", "b"]'))(bufCtx) === true,
    },
    "matches is a regex search": {
      marcbachmann: marc.parse('"xabc".matches("ab")')(ctx) === true,
      bufbuild: bufPlan(buf, bufParse('"xabc".matches("ab")'))(bufCtx) === true,
    },
  };
  return {
    speed,
    compileNsPerCondition: {
      marcbachmann: compileNs((e) => marc.parse(e)),
      bufbuild: compileNs((e) => bufPlan(buf, bufParse(e))),
    },
    semantics,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(compareCel(), null, 2));
