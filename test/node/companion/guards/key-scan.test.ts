// Never: an allow for a read of a file that holds a private key after a long preamble (a PEM bundle, a
// log), past the small-file window walks read (red team, round 3). A file read by name is scanned in
// chunks up to a bound; above it the read asks. A key split across two chunks is still found.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanBytes, scanFile } from "../../../../src/companion/guards/key-scan.ts";
import { judgeOnDisk, KEY, readOnlyPolicy } from "./disk-fixture.ts";

let ws: string;
const policy = readOnlyPolicy();

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
  return judgeOnDisk(policy, { tool, input, cwd: ws, home: join(ws, "home") });
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

// Never (issue 20, open class c): a recursive read allowed while a file it prints holds a private key
// past the first 64 KiB, or inside a file named as source code. Every file a content walk reaches is
// scanned whole (once per version, kept by identity), up to a per-walk budget; above it, the walk asks.
describe("private keys a recursive read reaches", () => {
  let tree: string;
  beforeAll(() => {
    tree = realpathSync(mkdtempSync(join(tmpdir(), "airlock-walkscan-")));
    for (const d of ["late", "src", "putty", "jwk", "clean", "big"]) mkdirSync(join(tree, d));
    writeFileSync(join(tree, "late", "app.log"), `${"a".repeat(200_000)}\n${KEY}`);
    writeFileSync(join(tree, "src", "config.js"), `export const key = \`${KEY}\`;\n`);
    writeFileSync(
      join(tree, "putty", "notes.txt"),
      "PuTTY-User-Key-File-2: ssh-rsa\nPrivate-Lines: 1\nAAAA\n",
    );
    // A JWK whose "kty" and "d" sit more than a scan chunk apart.
    writeFileSync(join(tree, "jwk", "k.json"), `{"kty":"RSA","n":"${"n".repeat(300_000)}","d":"secret"}`);
    for (let i = 0; i < 30; i++)
      writeFileSync(join(tree, "clean", `f${i}.ts`), `export const x${i} = ${i};\n`);
    writeFileSync(join(tree, "big", "data.txt"), "z".repeat(20 * 1024 * 1024));
    mkdirSync(join(tree, "many"));
    for (let i = 0; i < 3; i++)
      writeFileSync(join(tree, "many", `part${i}.txt`), "y".repeat(12 * 1024 * 1024));
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const walk = (command: string) => {
    return judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: tree, home: join(tree, "home") });
  };

  it.each([
    ["grep -rn BEGIN late", "late/app.log"],
    ["grep -r key src", "src/config.js"],
    ["rg -n Key putty", "putty/notes.txt"],
    ["grep -r kty jwk", "jwk/k.json"],
  ])("%s asks, naming %s", (command, file) => {
    const r = walk(command);
    expect(r.action).toBe("ask");
    expect(r.why).toContain(file);
    expect(r.why).toMatch(/private key/);
  });

  it("a tree without a key stays allowed, walked twice", () => {
    expect(walk("grep -rn x clean").action).toBe("allow");
    expect(walk("grep -rn x clean").action).toBe("allow");
  });

  it("a changed file is scanned again: a cached 'no key' is never served for new content", () => {
    const f = join(tree, "clean", "f0.ts");
    utimesSync(f, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    expect(walk("grep -rn x clean").action).toBe("allow");
    writeFileSync(f, `// ${KEY}\n`);
    expect(walk("grep -rn x clean").why).toContain("clean/f0.ts");
    writeFileSync(f, "export const x0 = 0;\n");
  });

  it("a file above the scan bound asks: nothing says what it holds", () => {
    const r = walk("grep -r z big");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/big\/data.txt`, \d+ bytes, too large to check for a private key/);
  });

  it("more unread bytes than the walk's budget ask instead of reading them", () => {
    const first = walk("grep -r y many");
    expect(first.action).toBe("ask");
    expect(first.why).toMatch(/MiB of files not yet checked for a private key/);
  });
});
