// Never (red team, round 8): a read that reads more than its words say. An option value or operand
// naming a directory whose files the program reads (`file -m DIR` loads every file of DIR as magic and
// prints each line it cannot parse; `diff -N DIR1 DIR2` prints every file present on one side only,
// dotfiles included); a ripgrep walk whose ignore file whitelists hidden files (`!.env` in .ignore makes
// rg read .env and descend into .git); `node --test` discovering test files through a symlinked
// directory out of the workspace. Each is judged with the disk as the companion judges it, under the red
// team's read-only policy and the starter profiles; the same programs on plain files stay allowed.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { CompiledPolicy } from "../../../../src/policy/compiled.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import {
  type DiskFixture,
  diskFixture,
  judgeOnDisk,
  readOnlyPolicy,
  runnersPolicy,
  write,
} from "./disk-fixture.ts";

let fx: DiskFixture;
const POLICIES: [string, CompiledPolicy][] = [
  ["read-only", readOnlyPolicy()],
  ["cautious", CAUTIOUS],
  ["balanced", BALANCED],
];

beforeAll(() => {
  fx = diskFixture();
  // A directory of credentials whose names are not secrets by name in every family, beside plain ones.
  write(join(fx.ws, "cfg", "credentials"), "aws_secret_access_key = SEKRIT\n");
  write(
    join(fx.ws, "cfg", "server.pem"),
    "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n",
  );
  write(join(fx.ws, "vault", ".env"), "TOKEN=dotenv\n");
  write(join(fx.ws, "vault", "readme.md"), "plain\n");
  write(join(fx.ws, "docs", "a.md"), "a\n");
  write(join(fx.ws, "docs", "b.md"), "b\n");
  write(join(fx.ws, "other", "a.md"), "a2\n");
  write(join(fx.ws, "magic", "text"), "0 string hi hello\n");
});
afterAll(() => fx.cleanup());

function judge(policy: CompiledPolicy, command: string, hasUI = true) {
  return judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home }, { hasUI });
}

function neverAllowed(command: string, names: RegExp): void {
  for (const [name, policy] of POLICIES) {
    const r = judge(policy, command);
    expect(r.action, `${name}: ${command}: ${r.why}`).not.toBe("allow");
    expect(judge(policy, command, false).action, `${name} headless: ${command}`).toBe("deny");
    if (r.action === "ask") expect(r.why + r.reasons.join("\n"), command).toMatch(names);
  }
}

describe("a directory named where a program reads files: every file in it is read", () => {
  it.each([
    ["file -m cfg README.md", /cfg/],
    ["file --magic-file=cfg README.md", /cfg/],
    ["file --mag vault README.md", /vault/],
    ["file -m magic/text:cfg README.md", /cfg/],
    ["diff -N cfg src", /cfg/],
    ["diff --new-file cfg src", /cfg/],
    ["diff --new-f vault docs", /vault/],
    ["diff --unidirectional-new-file cfg src", /cfg/],
    ["diff --unid src vault", /vault/],
    ["diff -N . src", /\.env|notes|deploy|docs-key/],
    ["diff vault docs", /vault/],
    ["diff -q vault src/a.ts", /vault/],
    ["diff --from-file=vault docs/a.md", /vault/],
    ["diff -rN vault docs", /vault/],
    // git's own diff of two paths outside the index reads every file below both (recursively).
    ["git diff --no-index vault docs", /vault|\.env/],
    ["git diff --no-index cfg src", /cfg|credentials|server\.pem/],
  ])("%s", (command, names) => neverAllowed(command, names));

  it("plain files and directories holding only plain files stay allowed", () => {
    for (const [policy, c] of [
      [readOnlyPolicy(), "diff docs/a.md other/a.md"],
      [readOnlyPolicy(), "diff docs other"],
      [readOnlyPolicy(), "diff -N docs other"],
      [readOnlyPolicy(), "diff -ru docs other"],
      [BALANCED, "file -m magic/text README.md"],
      [BALANCED, "file src/a.ts package.json src"],
      [BALANCED, "diff -N docs other"],
    ] as const) {
      const r = judge(policy, c);
      expect(r.action, `${c}: ${r.why} ${r.reasons.join("\n")}`).toBe("allow");
    }
  });

  it("property: a directory holding a secret, named to diff or as file's magic, never allows", () => {
    const dirs = fc.constantFrom("cfg", "vault", ".", "./cfg", "vault/");
    const forms = fc.constantFrom(
      "diff -N {d} docs",
      "diff {d} docs",
      "diff -q docs {d}",
      "diff --new-file={d} docs",
      "file -m {d} README.md",
      "file --magic-file {d} README.md",
      "file -m magic/text:{d} README.md",
    );
    fc.assert(
      fc.property(dirs, forms, (d, form) => {
        const command = form.replace("{d}", d).replace("={d}", `=${d}`);
        expect(judge(readOnlyPolicy(), command).action, command).not.toBe("allow");
      }),
      { numRuns: 60 },
    );
  });
});

describe("ripgrep's ignore files may whitelist what its hidden-file filter skips", () => {
  const ignoreFiles = [".ignore", ".rgignore", ".gitignore"];
  afterAll(() => {
    for (const f of [...ignoreFiles.map((n) => join("src", n)), "src/.env"])
      rmSync(join(fx.ws, f), { force: true });
  });
  it.each(ignoreFiles)("a `!` pattern in %s makes rg's walk read hidden files", (name) => {
    write(join(fx.ws, "src", ".env"), "K=V\n");
    const plain = judge(readOnlyPolicy(), "rg -n ghp_ src");
    expect(plain.action, plain.why).toBe("allow");
    writeFileSync(join(fx.ws, "src", name), "!.env\n");
    try {
      neverAllowed("rg -n ghp_ src", /\.env|hidden|ignore/);
    } finally {
      rmSync(join(fx.ws, "src", name), { force: true });
    }
  });
  it("a `!` pattern in an ignore file above the walked directory counts too", () => {
    write(join(fx.ws, "vault", "sub", "x.md"), "x\n");
    write(join(fx.ws, "vault", "sub", ".env"), "K=V\n");
    expect(judge(readOnlyPolicy(), "rg -n ghp_ vault/sub").action).toBe("allow");
    writeFileSync(join(fx.ws, "vault", ".ignore"), "!.env\n");
    try {
      neverAllowed("rg -n ghp_ vault/sub", /\.env|hidden|ignore/);
    } finally {
      rmSync(join(fx.ws, "vault", ".ignore"), { force: true });
    }
  });
  it("--ignore-file names a file whose `!` patterns may whitelist hidden files", () => {
    write(join(fx.ws, "src", ".env"), "K=V\n");
    write(join(fx.ws, "wl.txt"), "!.env\n");
    neverAllowed("rg -n ghp_ --ignore-file wl.txt src", /\.env|hidden|ignore/);
    neverAllowed("rg -n ghp_ --ignore-file=wl.txt src", /\.env|hidden|ignore/);
  });
});

describe("RIPGREP_CONFIG_PATH in the agent's environment: options rg reads first", () => {
  function withEnv(file: string | null, command: string) {
    const env = file === null ? {} : { RIPGREP_CONFIG_PATH: file };
    return judgeOnDisk(
      readOnlyPolicy(),
      { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home },
      { disk: diskCheck({ env }) },
    );
  }
  beforeAll(() => {
    write(join(fx.ws, "src", ".env"), "K=V\n");
    write(join(fx.home, "hidden.rgrc"), "# mine\n--smart-case\n--hidden\n");
    write(join(fx.home, "plain.rgrc"), "--smart-case\n--max-columns=200\n");
    write(join(fx.home, "pre.rgrc"), "--pre=/tmp/evil.sh\n");
  });
  afterAll(() => rmSync(join(fx.ws, "src", ".env"), { force: true }));
  it("a configuration with --hidden makes the walk read hidden files", () => {
    expect(withEnv(null, "rg -n ghp_ src").action).toBe("allow");
    const r = withEnv(join(fx.home, "hidden.rgrc"), "rg -n ghp_ src");
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toMatch(/\.env/);
    expect(withEnv(join(fx.home, "hidden.rgrc"), "rg --no-config -n ghp_ src").action).toBe("allow");
  });
  it("a configuration with --pre runs a program", () => {
    const r = withEnv(join(fx.home, "pre.rgrc"), "rg -n ghp_ src");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/--pre.*run a program/);
  });
  it("a configuration that only shapes output changes nothing", () => {
    expect(withEnv(join(fx.home, "plain.rgrc"), "rg -n ghp_ src").action).toBe("allow");
  });
});

describe("node --test discovers the files it runs", () => {
  const runners = runnersPolicy(["node"]);
  let outside: string;
  beforeAll(() => {
    outside = join(fx.base, "outside-tests");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "x.test.js"), "require('fs').writeFileSync('/tmp/PWNED', '')\n");
    mkdirSync(join(fx.ws, "nt"), { recursive: true });
    symlinkSync(outside, join(fx.ws, "nt", "test"));
    write(join(fx.ws, "ok", "test", "a.test.js"), "require('node:test')('a', () => {})\n");
  });
  it.each(["node --test", "node --test --test-reporter=spec", "node --test 'test/**/*.test.js'"])(
    "%s through a symlinked directory out of the workspace asks",
    (command) => {
      const r = judgeOnDisk(runners, {
        tool: "bash",
        input: { command },
        cwd: join(fx.ws, "nt"),
        home: fx.home,
      });
      expect(r.action, r.why).toBe("ask");
      expect(r.why).toMatch(/test|outside|link/);
    },
  );
  it("node --test in a directory with its own tests stays allowed", () => {
    const r = judgeOnDisk(runners, {
      tool: "bash",
      input: { command: "node --test" },
      cwd: join(fx.ws, "ok"),
      home: fx.home,
    });
    expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
  });
});
