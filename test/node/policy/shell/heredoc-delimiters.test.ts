// Red team round 9, class A: here-documents bash and mvdan/sh end at different lines. The understood
// subset is narrow — a delimiter of letters, digits and `_`, bare or wholly in single or double quotes,
// `<<` or `<<-`, and no body line that starts with the delimiter without being it — and bash is the
// oracle that every accepted form ends where the parser ends it. Everything else is refused.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import { parseBash } from "../../../../src/policy/shell/parser.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

afterAll(cleanBashRuns);

const ACCEPTED = ["<<EOF", "<< EOF", "<<'EOF'", '<<"EOF"', "<<-EOF", "<<- 'EOF'", '<<-"EOF"'];
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
      'E"OF"',
      "\\EOF",
      "'E'OF",
      "E-OF",
      "E.OF",
      '"E OF"',
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
