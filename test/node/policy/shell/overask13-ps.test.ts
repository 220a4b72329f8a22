// Over-ask, round 13: `ps aux`, `ps -ef`, `ps -o pid,cmd -p 1` asked (ps had no grammar). ps prints other
// processes' command lines, which /proc shows every local user, and is understood; their environments it
// prints with the BSD letter e, and also when its UNIX reading of a line fails, since it then reads every
// word again as BSD (`ps -ef -u x` with no user x prints `-ef` as e and f). Real ps is the oracle below:
// a process holding a secret in its environment, and every line the judge allows never prints it.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge } from "./policies.ts";
import { has, provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const SECRET = "TOPSECRET-PS-13";
const env = { env: { GITHUB_TOKEN: SECRET } };
const printed = (run: { stdout: string }) => run.stdout.includes(SECRET);
/** A process that holds the secret while ps runs. */
const withSleeper = (ps: string) => `sleep 9 >/dev/null 2>&1 & ${ps}; kill $!`;

provenCases("ps printing environments (written first)", [
  { name: "BSD e", command: withSleeper("ps e x"), setup: env, proof: printed, needs: "ps" },
  { name: "in a cluster", command: withSleeper("ps auxe"), setup: env, proof: printed, needs: "ps" },
  { name: "a bogus dash", command: withSleeper("ps -auxe"), setup: env, proof: printed, needs: "ps" },
  // ps 4.0.2 prints an error here rather than read it again; the engine does not lean on which failures do.
  { name: "an unknown user beside -ef", command: withSleeper("ps -ef -u x"), setup: env },
  {
    name: "conflicting thread options make ps read it as BSD",
    command: withSleeper("ps -eLf --forest"),
    setup: env,
  },
  { name: "a word known only at run time", command: 'o=e; ps "a$o"', setup: env },
  { name: "BSD personality", command: withSleeper("PS_PERSONALITY=bsd ps -ef"), setup: env },
]);

describe("everyday ps", () => {
  it.each([
    "ps aux",
    "ps -ef",
    "ps -o pid,cmd -p 1",
    "ps -eo pid,etime,args --sort=-etime",
    "ps -ef --forest",
    "ps aux --sort=-%cpu",
    "ps -u root",
    "ps -p 1",
    "ps axjf",
  ])("allows %s, and real ps prints no environment", (command) => {
    const r = judge(BALANCED, command);
    expect(r.action, r.reasons.join("\n")).toBe("allow");
    if (!has("ps")) return;
    const run = runInBash(withSleeper(command), env);
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout.length).toBeGreaterThan(0);
  });

  it.runIf(has("ps"))(
    "no line the judge allows prints an environment (real ps as the oracle)",
    () => {
      const words = fc.constantFrom(
        ...["-e", "-ef", "-A", "-f", "-F", "-l", "-ly", "-j", "-H", "-L", "-T", "-m", "--forest", "-w", "-c"],
        ...["-o pid,cmd", "-o pid,etime", "-O rss", "--sort=-pid", "-p 1", "-q 1", "-N", "-C sleep", "-y"],
        ...["-u root", "-u x", "-t x", "aux", "ax", "u", "x", "f", "w", "j", "k -pid", "-eo pid,args", "e"],
      );
      let allowed = 0;
      fc.assert(
        fc.property(fc.array(words, { minLength: 1, maxLength: 3 }), (parts) => {
          const command = `ps ${parts.join(" ")}`;
          if (judge(BALANCED, command).action !== "allow") return;
          allowed++;
          const run = runInBash(withSleeper(command), env);
          expect(run.stdout, command).not.toContain(SECRET);
        }),
        { numRuns: 80, examples: [[["-ef"]], [["aux"]], [["-eo pid,args", "--sort=-pid"]]] },
      );
      expect(allowed).toBeGreaterThan(0);
    },
    60_000,
  );
});
