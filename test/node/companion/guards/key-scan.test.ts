// Never: an allow for a read of a file that holds a private key after a long preamble (a PEM bundle, a
// log), past the small-file window walks read (red team, round 3). A file read by name is scanned in
// chunks up to a bound; above it the read asks. A key split across two chunks is still found.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { scanBytes, scanFile } from "../../../../src/companion/guards/key-scan.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { KEY, readOnlyPolicy } from "./disk-fixture.ts";

let ws: string;
const policy = readOnlyPolicy();
const disk = diskCheck({ env: {} });

beforeAll(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), "airlock-keyscan-")));
  writeFileSync(join(ws, "big.txt"), `${"a".repeat(70_000)}\n${KEY}`);
  writeFileSync(join(ws, "huge.log"), `${"b".repeat(300_000)}\n${KEY}`);
  writeFileSync(
    join(ws, "server.txt"),
    "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\nAAAA\n",
  );
  writeFileSync(join(ws, "jwk.json"), '{"kty":"RSA","n":"a","e":"AQAB","d":"x","p":"y","q":"z"}\n');
  writeFileSync(join(ws, "plain.log"), "c".repeat(300_000));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

function judge(tool: string, input: Record<string, unknown>) {
  const j = judgeCall(policy, { tool, input, cwd: ws, home: join(ws, "home") }, { hasUI: true }, disk);
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}

describe("private keys a call reads by name", () => {
  it.each(["big.txt", "huge.log", "server.txt", "jwk.json"])("Read and tail of %s ask", (name) => {
    expect(judge("Read", { file_path: join(ws, name) }).why).toMatch(/holds a private key/);
    expect(judge("bash", { command: `tail -3 ${name}` }).action).toBe("ask");
  });
  it("a large file without a key stays allowed", () => {
    expect(judge("Read", { file_path: join(ws, "plain.log") }).action).toBe("allow");
  });
  it("above the bound, the read asks: nothing says what the rest holds", () => {
    expect(scanFile(join(ws, "plain.log"), 300_000, 100_000)).toBe("too-large");
    expect(scanBytes(Buffer.alloc(10), 5)).toBe("too-large");
  });
  it("finds a header wherever it sits, across chunk borders", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600_000 }), (offset) => {
        const bytes = Buffer.from(`${"x".repeat(offset)}${KEY}`, "latin1");
        expect(scanBytes(bytes)).toBe("key");
      }),
      { numRuns: 40 },
    );
  });
});
