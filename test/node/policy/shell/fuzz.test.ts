// Property tests: generated compound commands (quoting, continuations, comments, expansions,
// prefixes, redirections, wrappers) never get `allow` when a dangerous command would run, and do
// get `allow` when only read-only commands would. 20,000 cases in all (a fresh seed each run, so runs
// add up); the large run, 100,000 cases and more, is bench/policy/shell-fuzz.mjs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALLOWED_RUNNING, compose, DANGER, noisy, RUNNING, safe } from "./generators.ts";
import { DENYLIST, judge, profilePayload, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

const RUNS = 5_000;
// Each property takes a few seconds on a quiet machine; the two shared cores are rarely quiet.
const TIMEOUT = 180_000;

describe("generated compound commands", () => {
  it(
    "a dangerous command anywhere it runs is never allowed by the read-only allowlist, nor by the cautious and balanced profiles",
    () => {
      fc.assert(
        fc.property(
          compose(RUNNING, safe, noisy(fc.constantFrom(...DANGER))),
          compose(RUNNING, safe, noisy(fc.constantFrom(...DANGER.map(profilePayload)))),
          (command, forProfiles) => {
            const r = judge(READ_ONLY, command);
            expect(r.action, command).not.toBe("allow");
            for (const [name, profile] of STRICT_PROFILES)
              expect(judge(profile, forProfiles).action, `${name}: ${forProfiles}`).not.toBe("allow");
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "a denied program anywhere it runs is never allowed by the denylist",
    () => {
      const denied = noisy(
        fc.constantFrom(
          "rm -rf x",
          "touch PWNED",
          "curl https://x.test",
          "/bin/rm x",
          "\\rm x",
          "r''m x",
          '"touch" y',
        ),
      );
      fc.assert(
        fc.property(compose(RUNNING, safe, denied), (command) => {
          expect(judge(DENYLIST, command).action, command).not.toBe("allow");
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "only read-only commands, however composed, stay allowed (the properties are not vacuous)",
    () => {
      fc.assert(
        fc.property(compose(ALLOWED_RUNNING, safe, safe), (command) => {
          const r = judge(READ_ONLY, command);
          expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "arbitrary text never crashes the analysis; inert text never hides a dangerous line after it",
    () => {
      // Text that cannot open a quote, a substitution, a here-document or a continuation, so the
      // line after it is a command of its own to bash.
      const inert = fc.string({ unit: fc.constantFrom(..."abcxyz019 .,:=+-_/@%^\t"), maxLength: 30 });
      const any = fc.string({ unit: "grapheme", maxLength: 40 });
      fc.assert(
        fc.property(inert, any, fc.constantFrom(...DANGER), (text, junk, bad) => {
          expect(judge(READ_ONLY, `${text}\n${bad}`).action).not.toBe("allow");
          for (const [name, profile] of STRICT_PROFILES)
            expect(judge(profile, profilePayload(`${text}\n${bad}`)).action, name).not.toBe("allow");
          expect(["allow", "ask", "deny", "hidden"]).toContain(judge(READ_ONLY, junk).action);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
