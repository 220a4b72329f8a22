// fix21b's version queries and node -p's JSON field, as properties: `gcc --version` and `docker --version`
// are allowed only as exactly that (any other word compiles, reaches the daemon or runs a plugin), and
// `node -p "require('./X.json')…"` only while what follows the require is plain field names (a call, an
// index, a template or a second statement is code never judged).
import { rmSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { AUTONOMOUS, judgeCommand } from "./judge-command.ts";

let ws: string;
beforeAll(() => {
  ws = sampleWorkspace();
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

/** Words a version query may meet (a lone `--` is left out: both print their version with it, nothing run). */
const EXTRA_WORDS = [
  ...["-v", "-B/tmp/x", "x.c", "-o", "a.out", "-", "--help", "-dumpspecs", "-print-prog-name=cc1"],
  ...["ps", "images", "run", "-H", "ssh://h", "--context", "remote", "--config", "/tmp", "'$(id)'"],
];

describe("a version query with any other word is not allowed", () => {
  it("gcc, g++ and docker --version plus other words ask", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("gcc --version", "g++ --version", "docker --version", "docker -v"),
        fc.array(fc.constantFrom(...EXTRA_WORDS), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (query, extra, before) => {
          const [program, flag] = query.split(" ");
          // docker's own `-v` beside `--version` is still only the version query.
          fc.pre(extra.some((w) => !(program === "docker" && w === "-v")));
          const command = before ? `${program} ${extra.join(" ")} ${flag}` : `${query} ${extra.join(" ")}`;
          expect(judgeCommand(ws, command, { policy: AUTONOMOUS }).action, command).not.toBe("allow");
        },
      ),
      { numRuns: 80 },
    );
  });
});

/** Characters with which a JavaScript expression calls, indexes, builds a string or starts another statement. */
const CODE_CHARS = ["(", ")", "[", "]", "`", ";", ",", "=", "+", "?", ":", "!", "'", "\\", " "];

describe("node -p of a JSON file's field, with code after the require", () => {
  it("asks whenever what follows require('./package.json') is more than field names", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(".version", ".name", "x", ...CODE_CHARS), { maxLength: 6 }),
        fc.constantFrom(...CODE_CHARS),
        fc.nat(6),
        (parts, code, at) => {
          parts.splice(Math.min(at, parts.length), 0, code);
          const expression = `require('./package.json')${parts.join("")}`;
          const command = `node -p "${expression.replace(/["\\$`]/g, "\\$&")}"`;
          expect(judgeCommand(ws, command, { policy: AUTONOMOUS }).action, command).not.toBe("allow");
        },
      ),
      { numRuns: 120 },
    );
  });
});
