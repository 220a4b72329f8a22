// Red team round 9, class B: every command bash runs inside a syntax tree is a command the engine
// judges, however the constructs nest. mvdan/sh keeps `<( )`/`>( )` as text in a `${x:-…}` word, a
// `[[ =~ (…) ]]` regex and the like, where bash runs them; the walk now reads such text as a
// substitution it cannot place. Random nestings of those places run in real bash: whenever the payload
// ran, the engine did not allow the command.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

afterAll(cleanBashRuns);

const PAYLOAD = "touch PWNED";

/** A word holding a substitution that runs the payload. */
const substitution = fc.constantFrom(`>(${PAYLOAD})`, `<(${PAYLOAD})`, `$(${PAYLOAD})`, `\`${PAYLOAD}\``);

/** A word around a word: the places of a parameter expansion that bash expands. */
const wrap = fc.constantFrom(
  (w: string) => `\${x:-${w}}`,
  (w: string) => `\${x:+${w}}`,
  (w: string) => `\${x/a/${w}}`,
  (w: string) => `\${x//a/${w}}`,
  (w: string) => `\${x#${w}}`,
  (w: string) => `\${x%%${w}}`,
  (w: string) => `\${x:=${w}}`,
  (w: string) => `\${y:-${w}}`,
  (w: string) => `\${y:=${w}}`,
  (w: string) => `\${HOME:+a${w}}`,
  (w: string) => `"\${x:-${w}}"`,
  (w: string) => `a${w}`,
  (w: string) => `\${x/#a/${w}}`,
  (w: string) => `\${x^^${w}}`,
);

/** A command around a word. */
const command = fc.constantFrom(
  (w: string) => `echo ${w} >/dev/null`,
  (w: string) => `[[ a =~ (${w}) ]]`,
  (w: string) => `[[ a =~ (x|${w}) ]]`,
  (w: string) => `[[ a =~ ( ${w} ) ]]`,
  (w: string) => `[[ a == ${w} ]]`,
  (w: string) => `case a in ${w}) ;; esac`,
  (w: string) => `: $(echo ${w})`,
  (w: string) => `echo {a,${w}} >/dev/null`,
  (w: string) => `[[ -n ${w} ]]`,
  (w: string) => `test a = ${w}`,
  (w: string) => `export v=${w}`,
);

const script = fc
  .tuple(substitution, fc.array(wrap, { maxLength: 3 }), command, fc.constantFrom("x=a; ", "x=; ", ""))
  .map(
    ([sub, wraps, cmd, lead]) =>
      `${lead}${cmd(wraps.reduce((w: string, f) => f(w), sub))}; wait $! 2>/dev/null`,
  );

describe("every command bash runs in a random nesting is judged", () => {
  it("property: the payload ran in bash ⇒ not allowed (read-only allowlist and the starter profile)", () => {
    let ran = 0;
    fc.assert(
      fc.property(script, (command) => {
        const run = runInBash(command);
        if (!run.exists("PWNED")) return;
        ran++;
        expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
        expect(judge(BALANCED, command).action, command).not.toBe("allow");
      }),
      { numRuns: 80 },
    );
    // The property is about something: most nestings do run the payload.
    expect(ran).toBeGreaterThan(20);
  });
});
