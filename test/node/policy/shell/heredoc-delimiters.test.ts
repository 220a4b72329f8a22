// Red team round 9, class A: here-documents bash and mvdan/sh end at different lines. The understood
// subset is narrow — a delimiter of letters, digits, `_`, `.` and `-`, each bare, after a backslash or
// in single or double quotes (`\EOF`, `"E"OF`, `E'O'F`), `<<` or `<<-`, the parser ending the body at
// a line that is the delimiter, and no body line before it that starts with the delimiter — and bash is
// the oracle that every accepted form ends where the parser ends it. Everything else is refused.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import { parseBash } from "../../../../src/policy/shell/parser.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, profilePayload, READ_ONLY } from "./policies.ts";

afterAll(cleanBashRuns);

const ACCEPTED = [
  ...["<<EOF", "<< EOF", "<<'EOF'", '<<"EOF"', "<<-EOF", "<<- 'EOF'", '<<-"EOF"'],
  ...["<<\\EOF", "<<-\\EOF", "<<\\E\\O\\F", '<<"E"OF', "<<E'O'F", '<<E"OF"', "<<- E'O'\\F"],
];
/** Body lines near the delimiter: some end nothing in either reading, some are refused. */
const LINE = fc.constantFrom("x", " EOF", "EOF ", "eof", "xEOF", "\tx", "EOFX", "EOF)", "E OF", "");

function hazards(script: string): string[] {
  return parseBash(script).events.flatMap((e) => (e.kind === "stmt" ? e.hazards.map((h) => h.reason) : []));
}

describe("here-documents in the understood subset end where bash ends them", () => {
  it("property (bash as the oracle): an understood here-document prints exactly the body the parser read", () => {
    let understood = 0;
    fc.assert(
      fc.property(fc.constantFrom(...ACCEPTED), fc.array(LINE, { maxLength: 4 }), (op, lines) => {
        const body = lines.join("\n");
        const script = `cat ${op}\n${lines.length > 0 ? `${body}\n` : ""}EOF\necho AFTER`;
        if (hazards(script).length > 0) return;
        understood++;
        // The parser saw the command after the delimiter as a command…
        expect(analyzeShell(script).units.some((u) => u.kind === "exec" && u.text === "echo AFTER")).toBe(
          true,
        );
        // …and bash printed the body (tabs stripped by <<-) and then ran it.
        const shown = op.startsWith("<<-") ? lines.map((l) => l.replace(/^\t+/, "")) : lines;
        const run = runInBash(script);
        expect(run.stdout, JSON.stringify(script)).toBe([...shown, "AFTER"].map((l) => `${l}\n`).join(""));
      }),
      { numRuns: 60 },
    );
    expect(understood).toBeGreaterThan(10);
  });

  it("a body line that starts with the delimiter is refused: inside $( ) bash ends at `EOF)`", () => {
    for (const command of ["echo $(cat <<EOF\nx\nEOF)\nls\nEOF\n)", "cat <<EOF\nEOFX\nEOF"])
      expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
  });

  it("property: a delimiter outside the subset is never allowed", () => {
    const delimiter = fc.constantFrom(
      "$'EOF'",
      "$'\\x45OF'",
      '"E\\\\F"',
      '"E\\$F"',
      '"E OF"',
      "E$F",
      "E\\\\F",
      "''",
      '$"EOF"',
    );
    fc.assert(
      fc.property(delimiter, fc.boolean(), (d, dash) => {
        const command = `cat <<${dash ? "-" : ""}${d}\nx\nEOF\n${d}`;
        expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
        expect(judge(BALANCED, command).action, command).not.toBe("allow");
      }),
    );
  });

  it("everyday here-documents stay allowed", () => {
    for (const command of [
      "cat <<EOF\nhello\nEOF",
      "cat <<'EOF'\n$HOME is literal\nEOF",
      'cat <<"END_OF_TEXT"\nline\nEND_OF_TEXT',
      "cat <<-EOF\n\tindented\n\tEOF",
    ])
      expect(judge(READ_ONLY, command).action, command).toBe("allow");
  });
});

/** A delimiter as written, built from pieces, with the line bash ends it at (quote removal by hand). */
const PIECE = fc.oneof(
  fc.constantFrom("E", "O", "F", "-", ".", "_", "1").map((c) => ({ written: c, value: c })),
  fc.constantFrom("E", "O", "F", "-", ".", "$", "\\").map((c) => ({ written: `\\${c}`, value: c })),
  fc.stringMatching(/^[EOF.-]{0,3}$/).map((t) => ({ written: `'${t}'`, value: t })),
  fc.stringMatching(/^[EOF.-]{0,3}$/).map((t) => ({ written: `"${t}"`, value: t })),
  // Forms bash unquotes otherwise than the parser (round 9): never understood.
  fc.constantFrom(
    { written: '"E\\\\F"', value: "E\\F" },
    { written: '"E\\$F"', value: "E$F" },
    { written: "$'\\x45'", value: "E" },
    { written: '$"O"', value: "O" },
  ),
);

describe("delimiters bash unquotes: every understood one ends where bash ends it", () => {
  it("property (bash as the oracle): pieces bare, after a backslash, in quotes, or decoded by bash", () => {
    let understood = 0;
    fc.assert(
      fc.property(
        fc.array(PIECE, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.array(fc.constantFrom("x", "EOF", "E-F", "E\\F", "E$F", "", "D", " D", "DX", "D)", "\tD"), {
          maxLength: 3,
        }),
        (pieces, dash, shapes) => {
          const written = pieces.map((p) => p.written).join("");
          const delimiter = pieces.map((p) => p.value).join("");
          if (delimiter === "" || /[$\\]/.test(delimiter)) return;
          // A space keeps a delimiter that starts with `-` from reading as `<<-`.
          const op = `<<${dash ? "-" : ""} `;
          const lines = shapes.map((l) => l.replace("D", delimiter).replace("\\t", "\t"));
          const script = `cat ${op}${written}\n${[...lines, delimiter].join("\n")}\necho AFTER`;
          // The parser finds no end it agrees on (it refuses the script) or names a hazard: not understood.
          const seen = (() => {
            try {
              return hazards(script);
            } catch {
              return null;
            }
          })();
          if (seen === null || seen.length > 0) return;
          understood++;
          expect(analyzeShell(script).units.some((u) => u.kind === "exec" && u.text === "echo AFTER")).toBe(
            true,
          );
          const quoted = /[\\'"]/.test(written);
          const stripped = lines.map((l) => (dash ? l.replace(/^\t+/, "") : l));
          // bash ends the body at the first line that is the delimiter; the lines after it run as commands.
          const end = stripped.indexOf(delimiter);
          const shown = end < 0 ? stripped : stripped.slice(0, end);
          // An unquoted body drops a backslash before `$` and expands `$F` (unset: empty).
          const printed = quoted ? shown : shown.map((l) => l.replace("$F", ""));
          const run = runInBash(script);
          expect(run.stdout, JSON.stringify(script)).toBe(
            [...printed, "AFTER"].map((l) => `${l}\n`).join(""),
          );
        },
      ),
      // A fixed seed: how many random delimiters are understood varied from run to run (27 of 120 once).
      { numRuns: 160, seed: 20261128 },
    );
    expect(understood).toBeGreaterThan(30);
  });

  // Each attack: a line bash runs as a command, hidden in what a parser reading the delimiter another way
  // would take for text. bash shows the payload runs; the engine never allows the call.
  const ATTACKS: Array<[string, string]> = [
    ["bash reads `\\\\` in double quotes as one backslash", 'cat <<"E\\\\F"\nE\\F\ntouch PWNED\nE\\\\F'],
    ["bash drops the backslash before `$` in double quotes", 'cat <<"E\\$F"\nE$F\ntouch PWNED\nE\\$F'],
    ["bash decodes $'…'", "cat <<$'\\x45OF'\nEOF\ntouch PWNED\n\\x45OF"],
    ["bash ends a backslash-quoted delimiter at its plain line", "grep x <<\\EOF\nEOF\ntouch PWNED\n\\EOF"],
    ["bash ends `E'O'F` at EOF", "wc -l <<E'O'F\nEOF\ntouch PWNED\nEOF"],
    [
      "bash ends a delimiter with `-` at its line",
      "wc -l <<END-OF-TEXT\nEND-OF-TEXT\ntouch PWNED\nEND-OF-TEXT",
    ],
    ["an unquoted delimiter with `-` expands the body", "wc -l <<END-OF-TEXT\n$(touch PWNED)\nEND-OF-TEXT"],
    ["a line starting with the delimiter inside $( )", "echo $(cat <<\\EOF\nx\nEOF)\ntouch PWNED\nEOF\n)"],
  ];
  for (const [why, command] of ATTACKS)
    it(`attack: ${why}`, () => {
      expect(runInBash(command).exists("PWNED"), "bash runs the payload").toBe(true);
      expect(judge(READ_ONLY, command).action).not.toBe("allow");
      expect(judge(BALANCED, profilePayload(command)).action).not.toBe("allow");
    });

  it("a quoted delimiter in any spelling keeps the body literal: bash runs nothing, the engine allows", () => {
    for (const op of ["<<\\EOF", "<<\\E\\O\\F", '<<"E"OF', "<<E'O'F", "<<'END-OF-TEXT'", "<<\\END-OF-TEXT"]) {
      const end = op.replace(/^<</, "").replace(/[\\'"]/g, "");
      const command = `grep x ${op}\nx $(touch PWNED) \`touch PWNED\`\n${end}`;
      const run = runInBash(command);
      expect(run.exists("PWNED"), command).toBe(false);
      expect(run.stdout).toBe("x $(touch PWNED) `touch PWNED`\n");
      expect(judge(READ_ONLY, command).action, command).toBe("allow");
    }
  });

  it("everyday forms of issue 20 are allowed", () => {
    for (const command of [
      "grep x <<\\EOF\nx\nEOF",
      "wc -l <<\\EOF\na\nb\nEOF",
      "wc -l <<END-OF-TEXT\na\nEND-OF-TEXT",
      "cat <<'END-OF-TEXT'\n$HOME stays\nEND-OF-TEXT",
      "grep -c x <<-\\EOF\n\tx\n\tEOF",
    ])
      expect(judge(READ_ONLY, command).action, command).toBe("allow");
  });
});
