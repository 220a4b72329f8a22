// A shell's own options and option toggles the engine does not model (red team, round 6): `bash -O
// cdable_vars`, `-k`, `-P`, `-i`, `-l`, `--rcfile`, `-o physical`, `set -P`, `shopt -s cdable_vars`
// change what the script means or run start-up files never judged. Property: any such option, among
// modelled ones, never yields allow; the modelled ones alone (-e -u -x -o pipefail -c) stay allowed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, user } from "../helpers.ts";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

const shells = fc.constantFrom("bash", "sh", "dash", "zsh", "/bin/bash", "/usr/bin/env bash");
const scripts = fc.constantFrom("ls", "cat README.md", "cd src && cat x", "git status", "echo hi");
const safe = fc.constantFrom("-e", "-u", "-x", "-v", "-eu", "+e", "-o pipefail", "-o errexit", "--norc");
/** Letters bash takes on its command line that change the script or its start-up: none is modelled. */
const unmodelledFlags = fc.constantFrom(..."abfhklmprtBCEHPTi".split(""));
const optionNames = fc.constantFrom("physical", "keyword", "allexport", "posix", "history", "emacs", "vi");
const shoptNames = fc.constantFrom("cdable_vars", "expand_aliases", "dotglob", "lastpipe", "extdebug");
// Set by the script itself, dotglob only changes what its own later globs match, and those ask (builtins.ts).
const shoptToggled = fc.constantFrom("cdable_vars", "expand_aliases", "lastpipe", "extdebug");
const unmodelled = fc.oneof(
  unmodelledFlags.map((f) => `-${f}`),
  fc.tuple(unmodelledFlags, fc.constantFrom("e", "u", "x", "")).map(([f, g]) => `-${g}${f}`),
  optionNames.map((n) => `-o ${n}`),
  shoptNames.map((n) => `-O ${n}`),
  shoptNames.map((n) => `+O ${n}`),
  fc.constantFrom("--login", "--posix", "--rcfile evil.sh -i", "--init-file=evil.sh -i", "--restricted"),
  fc.constantFrom("--debugger", "--dump-strings", "-D"),
);
const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

describe("a shell's unmodelled options", () => {
  it("never yield allow on the command line", () => {
    fc.assert(
      fc.property(
        shells,
        fc.array(safe, { maxLength: 2 }),
        unmodelled,
        fc.array(safe, { maxLength: 2 }),
        scripts,
        (sh, before, bad, after, script) => {
          const command = `${sh} ${[...before, bad, ...after].join(" ")} -c ${quote(script)}`;
          for (const policy of [READ_ONLY, BALANCED]) {
            const r = judge(policy, command);
            expect(r.action, `${command}: ${r.reasons.join("\n")}`).not.toBe("allow");
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never yield allow when a script turns them on with set or shopt", () => {
    const toggles = fc.oneof(
      fc.constantFrom(..."kaHP".split("")).map((f) => `set -${f}`),
      optionNames.map((n) => `set -o ${n}`),
      shoptToggled.map((n) => `shopt -s ${n}`),
      shoptNames.map((n) => `shopt -s -o ${n}`),
    );
    fc.assert(
      fc.property(toggles, scripts, fc.boolean(), (toggle, script, wrapped) => {
        const inner = `${toggle}; ${script}`;
        const command = wrapped ? `bash -c ${quote(inner)}` : inner;
        const r = judge(READ_ONLY, command);
        expect(r.action, `${command}: ${r.reasons.join("\n")}`).not.toBe("allow");
      }),
      { numRuns: 200 },
    );
  });

  it("the modelled ones alone stay allowed", () => {
    fc.assert(
      fc.property(fc.constantFrom("bash", "sh"), fc.array(safe, { maxLength: 3 }), (sh, opts) => {
        const command = `${sh} ${opts.join(" ")} -c 'ls'`;
        expect(judge(READ_ONLY, command).action, command).toBe("allow");
      }),
      { numRuns: 100 },
    );
  });

  it("names the option as the reason a person is asked", () => {
    const r = judge(READ_ONLY, "bash -O cdable_vars -c 'cd HOME && cat .config/hub/cfg'");
    expect(r.action).toBe("ask");
    expect(r.reasons.join("\n")).toMatch(/-O cdable_vars/);
  });

  it("is lifted only by a rule that names the shell with the option, not the option alone", () => {
    const policy = (condition: string) =>
      compile(
        user(`default_action: ask\nrules:\n  - name: r\n    condition: '${condition}'\n    action: allow\n`),
      );
    const other = policy('tool == "bash" && (program in ["bash", "ls"] || command.matches("^sed -i "))');
    expect(judge(other, "bash -i -c ls").action).toBe("ask");
    const named = policy('tool == "bash" && (program in ["bash", "ls"] || command == "bash -O x")');
    expect(judge(named, "bash -O extglob -c ls").action).toBe("allow");
  });
});
