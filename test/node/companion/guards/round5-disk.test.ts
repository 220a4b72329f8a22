// Never (red team, round 5): an allow for an interpreter whose script word names no file it runs as named.
// `python3 DIR` runs DIR/__main__.py, `node DIR` the `main` of DIR/package.json or DIR/index.js, `node X`
// X.js when X does not exist: a file out of the workspace (the stdlib's timeit.py, npm's CLI: both run
// their arguments) that the word never names. Judged with the disk as the companion judges them; the same
// runners with a script that is a file in the workspace stay allowed.
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiskFixture, diskFixture, judgeOnDisk, readOnlyPolicy, runnersPolicy } from "./disk-fixture.ts";

let fx: DiskFixture;
let outside: string;
/** Reads in the workspace, and running scripts with python3 and node (the red team's strict policy). */
const runners = runnersPolicy(["python3", "node"]);

beforeAll(() => {
  fx = diskFixture();
  // A program out of the workspace that runs its arguments (stands for timeit.py and npm-cli.js).
  outside = join(fx.home, "tools", "runs-argv.js");
  mkdirSync(join(fx.home, "tools"), { recursive: true });
  writeFileSync(outside, "require('child_process').execSync(process.argv[2]);\n");
  const docs = join(fx.ws, "docs");
  for (const d of ["pkg", "n1", "n2", "real"]) mkdirSync(join(docs, d), { recursive: true });
  symlinkSync(outside, join(docs, "pkg", "__main__.py"));
  writeFileSync(join(docs, "n1", "package.json"), JSON.stringify({ main: outside }));
  symlinkSync(outside, join(docs, "n2", "index.js"));
  symlinkSync(outside, join(docs, "cli.js"));
  writeFileSync(join(docs, "real", "build.js"), "console.log(1);\n");
  writeFileSync(join(docs, "real", "app.py"), "print(1)\n");
  // A directory named like a script: python runs its __main__.py, node its index.js.
  mkdirSync(join(docs, "dir.py"));
  symlinkSync(outside, join(docs, "dir.py", "__main__.py"));
  mkdirSync(join(docs, "dir.js"));
  symlinkSync(outside, join(docs, "dir.js", "index.js"));
});
afterAll(() => fx.cleanup());

function judge(command: string) {
  return judgeOnDisk(runners, { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home });
}

describe("an interpreter's script word that names no file it runs as named", () => {
  it.each([
    ["python3 docs/pkg -n1 'import os'", "docs/pkg"],
    ["node docs/n1 exec -c 'touch PWNED'", "docs/n1"],
    ["node docs/n2 exec -c 'touch PWNED'", "docs/n2"],
    ["node docs/cli exec -c 'touch PWNED'", "docs/cli"],
    ["python3 docs/dir.py x", "docs/dir.py"],
    ["node docs/dir.js x", "docs/dir.js"],
    ["node docs/missing.js", "docs/missing.js"],
  ])("%s asks, naming the word", (command, word) => {
    const r = judge(command);
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toContain(word);
  });

  it("a script that is a file in the workspace stays allowed", () => {
    for (const c of ["node docs/real/build.js", "python3 docs/real/app.py", "node ./docs/real/build.js"])
      expect(judge(c).action, c).toBe("allow");
  });
});

describe("property: a directory or a missing name as the script never runs unasked", () => {
  it("any interpreter, directory name (script-like extensions included) and arguments", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}(\.(js|mjs|cjs|py))?$/);
    const args = fc.array(fc.stringMatching(/^[a-z0-9-]{1,6}$/), { maxLength: 3 });
    fc.assert(
      fc.property(fc.constantFrom("node", "python3"), name, fc.boolean(), args, (interp, n, dir, rest) => {
        const path = join(fx.ws, "docs", "prop", n);
        if (dir && !existsSync(path)) {
          mkdirSync(path, { recursive: true });
          symlinkSync(outside, join(path, interp === "node" ? "index.js" : "__main__.py"));
        }
        if (!dir && existsSync(path)) return;
        const command = [interp, `docs/prop/${n}`, ...rest].join(" ");
        expect(judge(command).action, command).not.toBe("allow");
      }),
      { numRuns: 60 },
    );
  });
});

describe("a search tool's glob that does not narrow what ripgrep reads", () => {
  const policy = readOnlyPolicy();
  function grep(glob: string) {
    return judgeOnDisk(policy, {
      tool: "Grep",
      input: { pattern: "PASS", path: fx.ws, glob },
      cwd: fx.ws,
      home: fx.home,
    });
  }
  // rg reads `!x` as an exclusion and searches everything else (red team, round 5); a list split at
  // spaces or commas outside braces may hold one.
  it.each(["!nothing", "!*.py", "*.md !x", "*.md,!x", "!{a,b}"])(
    "glob %s walks the whole tree, and asks",
    (glob) => {
      const r = grep(glob);
      expect(r.action, r.why).toBe("ask");
      expect(r.why).toMatch(/\.env|app\.env|notes\.txt|deploy\.txt/);
    },
  );
  it("property: an exclusion, or a list holding one, never narrows the walk", () => {
    const word = fc.stringMatching(/^[a-z*.?]{1,8}$/);
    fc.assert(
      fc.property(word, word, fc.constantFrom("!{}", "{} !{}", "{},!{}", "!{} {}"), (a, b, shape) => {
        const glob = shape.replace("{}", a).replace("{}", b);
        expect(grep(glob).action, glob).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });
  it("a plain glob still narrows the walk", () => {
    for (const glob of ["*.ts", "src/*.ts", "*.{ts,tsx}"]) expect(grep(glob).action, glob).toBe("allow");
  });
});

describe("a private key in another encoding, read by name", () => {
  // Red team, round 5: the header scan saw only ASCII PEM.
  it("UTF-16, a Kubernetes Secret's base64, a DER key: each read asks", () => {
    const key = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey;
    const pem = key.export({ type: "sec1", format: "pem" }) as string;
    const k = join(fx.ws, "k");
    mkdirSync(k, { recursive: true });
    writeFileSync(join(k, "utf16.txt"), Buffer.from(pem, "utf16le"));
    writeFileSync(
      join(k, "tls.yaml"),
      `kind: Secret\ndata:\n  tls.key: ${Buffer.from(pem).toString("base64")}\n`,
    );
    writeFileSync(join(k, "key.der"), key.export({ type: "pkcs8", format: "der" }));
    writeFileSync(join(k, "notes.md"), "nothing here\n");
    const policy = readOnlyPolicy();
    const read = (command: string) =>
      judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home }).action;
    for (const f of ["utf16.txt", "tls.yaml", "key.der"]) expect(read(`cat k/${f}`), f).toBe("ask");
    expect(read("cat k/notes.md")).toBe("allow");
  });
});
