// Arithmetic on names the script set to integer literals (`x=3; echo $((x*2))`) is allowed (over-ask, round
// 17); bash evaluates a name's value in arithmetic as an expression, so a value such as `a[$(cmd)]` runs cmd,
// and any name the judge does not know, set twice, or assigned inside the arithmetic still asks. Real bash
// is the oracle: each attack is shown running its payload, and a property test checks that no allowed
// script of names, values and expressions ever does.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, neverAllowed } from "./policies.ts";

afterAll(cleanBashRuns);

const PAYLOAD = "a[$(touch PWNED)]";

const ATTACKS = [
  `x='${PAYLOAD}'; echo $((x))`,
  `x='${PAYLOAD}'; echo $(($x))`,
  `x=3; y='${PAYLOAD}'; echo $((x+y))`,
  `x=3; x='${PAYLOAD}'; echo $((x))`,
  `x='${PAYLOAD}'; [[ $x -eq 1 ]] && echo y`,
  `x='${PAYLOAD}'; [[ x -eq 1 ]] && echo y`,
  `x='${PAYLOAD}'; let y=x`,
  `x='${PAYLOAD}'; ((x > 1)) && echo y`,
  // A name glued to an expansion is another name (x5), set nowhere in the script.
  `x5='${PAYLOAD}' bash -c 'x=3; y=5; echo $((x$y))'`,
];

describe("arithmetic on names: the attacks (written first)", () => {
  it("each runs its payload in real bash", () => {
    for (const command of ATTACKS) expect(runInBash(command).exists("PWNED"), command).toBe(true);
  });

  it("none is allowed", () => {
    for (const command of ATTACKS) neverAllowed(command);
  });

  it("a name set twice, assigned in arithmetic or only known from the environment still asks", () => {
    for (const command of [
      "x=3; x=4; echo $((x))",
      "x=3; ((x=y)); echo $((x))",
      "x=3; ((x++)); cat file$x",
      "echo $((HOME))",
      "echo $((x))",
      "x=3; echo $((x$y))",
      "x=3; echo $((x[0]))",
      "x=3; read x; echo $((x))",
      "i=0; ((i++))",
      "x=3; ((x+=1)); cat file$x",
      "((IFS=1))",
      "let PATH=1",
      `for i in 1 '${PAYLOAD}'; do echo $((i)); done`,
      "for i in 1 2; do ((i++)); done",
      "for i in *; do echo $((i)); done",
    ])
      expect(judge(BALANCED, command).action, command).not.toBe("allow");
  });
});

describe("arithmetic on names: everyday forms stay allowed", () => {
  it.each([
    "x=3; echo $((x*2))",
    "x=3; echo $(($x*2))",
    "n=10; echo $((n/2 + 1))",
    "x=0x1f; echo $((x+1))",
    "x=3; [[ $x -eq 3 ]] && echo three",
    "x=3; [[ x -gt 1 ]] && echo more",
    "for i in 1 2 3; do echo $(($i*2)); done",
    "for i in 1 2 3; do echo $((i*10)); done",
    "x=3; let y=x*2",
    "echo $((2*3))",
  ])("%s", (command) => {
    expect(judge(BALANCED, command).action).toBe("allow");
    expect(runInBash(command).exists("PWNED")).toBe(false);
  });
});

// Scripts of the shape `a=V1; b=V2; echo $((EXPR))` (and the `[[ … -eq … ]]` form), values drawn from
// integer literals and values that run the payload when evaluated.
const NAMES = ["a", "b", "c"] as const;
const value = fc.constantFrom("3", "0x10", "2#101", "07", `'${PAYLOAD}'`, `'b'`, `'1+c'`);
const operand = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).map((n) => `$${n}`),
  fc.constantFrom("1", "42"),
);
const expr = fc
  .array(fc.tuple(operand, fc.constantFrom("+", "*", "-", "<")), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.map(([o, op], i) => (i === 0 ? o : `${op}${o}`)).join(""));
const script = fc
  .record({
    values: fc.tuple(value, value, value),
    expr,
    form: fc.constantFrom("echo $((E))", "((E)) && echo y", "[[ E -eq 1 ]] && echo y"),
  })
  .map(({ values, expr, form }) => {
    const sets = NAMES.map((n, i) => `${n}=${values[i]}`).join("; ");
    // `[[ … -eq … ]]` takes one word per side: the expression without blanks is one.
    return `${sets}; ${form.replace("E", expr)}`;
  });

describe("arithmetic on names: property (real bash is the oracle)", () => {
  it("an allowed script never runs the payload; integer-only scripts are allowed", () => {
    fc.assert(
      fc.property(script, (command) => {
        const action = judge(BALANCED, command).action;
        if (action === "allow") expect(runInBash(command).exists("PWNED"), command).toBe(false);
        // `2#101` is a literal too, but `#` is not in the plain values the judge binds (it asks).
        const integersOnly = !command.includes("'") && !command.includes("#");
        // A test operand is judged known only when it is one name or `$name` alone.
        const oneWord = !command.includes("[[") || /\[\[ \$?\w+ -eq/.test(command);
        if (integersOnly && oneWord) expect(action, command).toBe("allow");
      }),
      { numRuns: 60 },
    );
  });
});
