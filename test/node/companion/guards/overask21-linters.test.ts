// Over-asks, round 20 (fix21c): `ruff check .` and `ruff format --check .` asked ("ruff has no grammar").
// ruff loads no plugins and runs no project code (its options: crates/ruff/src/args.rs); its check forms
// read the files they walk, and its configuration (pyproject.toml's [tool.ruff], ruff.toml, .ruff.toml,
// nested ones too, and what `extend` chains to) names only workspace files here, else they ask.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTONOMOUS, judgeCommand } from "./judge-command.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa21l-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, "home");
mkdirSync(home);
writeFileSync(join(home, ".netrc"), "machine github.com login u password ghp_x\n");
let n = 0;

const PYPROJECT =
  '[project]\nname = "a"\nreadme = "README.md"\n\n[tool.ruff]\nline-length = 100\n\n[tool.ruff.lint]\nselect = ["E", "F"]\n';

/** A Python workspace holding `files` (path → text) besides its sources and pyproject.toml. */
function workspace(files: Record<string, string> = {}): string {
  const ws = join(base, `ws${n++}`);
  const all = {
    "src/a.py": "print(1)\n",
    "tests/test_a.py": "def test(): pass\n",
    "pyproject.toml": PYPROJECT,
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(ws, path)), { recursive: true });
    writeFileSync(join(ws, path), text);
  }
  return ws;
}

const judged = (ws: string, command: string, policy?: typeof AUTONOMOUS) =>
  judgeCommand(ws, command, { env: { HOME: home }, ...(policy ? { policy } : {}) });

describe("ruff's check forms are reads", () => {
  it.each([
    "ruff check .",
    "ruff check",
    "ruff check src tests",
    "ruff check --select E501,F401 --statistics src",
    "ruff check --no-fix --output-format=json .",
    "ruff check --diff src/a.py",
    "ruff format --check .",
    "ruff format --diff src",
    "ruff --version",
    "ruff version",
  ])("%s is allowed", (command) => {
    expect(judged(workspace(), command).action).toBe("allow");
  });

  it.each([
    "ruff check --fix .",
    "ruff check --fix-only .",
    "ruff check --add-noqa .",
    "ruff check -o out.txt .",
    "ruff check --config ruff.toml .",
    "ruff check --config 'extend = \"/etc/x.toml\"' .",
    "ruff check --cache-dir /tmp/c .",
    "ruff check --watch .",
    "ruff check --stdin-filename a.py",
    "ruff check --unknown-option .",
    "ruff check --sel E .",
    "ruff format .",
    "ruff format src/a.py",
    "ruff clean",
    "ruff server",
  ])("%s asks as before", (command) => {
    expect(judged(workspace(), command).action).toBe("ask");
  });
});

describe("ruff's configuration names only workspace files", () => {
  it.each([
    ["ruff.toml", 'extend = "../home/.netrc"\n'],
    ["pyproject.toml", '[tool.ruff]\nextend = "/etc/passwd"\n'],
    [".ruff.toml", 'cache-dir = "~/.cache/x"\n'],
    ["src/pkg/ruff.toml", 'extend = "../../../home/.netrc"\n'],
    ["ruff.toml", "line-length = [\n"],
  ])("%s with %j asks, in autonomous too", (file, text) => {
    const ws = workspace({ [file]: text });
    expect(judged(ws, "ruff check .")).toMatchObject({
      action: "ask",
      reason: expect.stringContaining("configuration"),
    });
    expect(judged(ws, "ruff format --check .", AUTONOMOUS).action).toBe("ask");
  });

  it("an `extend` of a workspace file stays allowed; of one linking out, it asks", () => {
    const ws = workspace({ "ruff.toml": 'extend = "./base.toml"\n', "base.toml": "line-length = 90\n" });
    expect(judged(ws, "ruff check .").action).toBe("allow");
    const out = workspace({ "ruff.toml": 'extend = "./base.toml"\n' });
    symlinkSync(join(home, ".netrc"), join(out, "base.toml"));
    expect(judged(out, "ruff check .").action).toBe("ask");
  });

  it("other tables of pyproject.toml are not ruff's (a readme path is no config of its)", () => {
    const ws = workspace({
      "pyproject.toml": '[project]\nreadme = "../README.md"\n[tool.ruff]\nline-length = 90\n',
    });
    expect(judged(ws, "ruff check .").action).toBe("allow");
  });

  it("a .ruff_cache linking out of the workspace, or RUFF_CACHE_DIR, asks", () => {
    const ws = workspace();
    mkdirSync(join(base, `cache${n}`));
    symlinkSync(join(base, `cache${n}`), join(ws, ".ruff_cache"));
    expect(judged(ws, "ruff check .")).toMatchObject({
      action: "ask",
      reason: expect.stringContaining("cache"),
    });
    const env = { HOME: home, RUFF_CACHE_DIR: home };
    expect(judgeCommand(workspace(), "ruff check .", { env }).action).toBe("ask");
  });
});

// shfmt (mvdan/sh v3's cmd/shfmt/main.go): a read of the files named or walked; EditorConfig holds no path.
describe("shfmt without -w is a read", () => {
  const sh = {
    "x.sh": "echo  hi\n",
    "scripts/b.sh": "#!/bin/sh\necho b\n",
    ".editorconfig": "[*.sh]\nindent_style = space\n",
  };
  it.each([
    "shfmt -d x.sh",
    "shfmt -l .",
    "shfmt --diff -i 2 -ci scripts",
    "shfmt -ln=posix -d x.sh",
    "shfmt x.sh",
    "shfmt --version",
  ])("%s is allowed", (command) => {
    expect(judged(workspace(sh), command).action).toBe("allow");
  });

  it.each([
    "shfmt -w x.sh",
    "shfmt --write .",
    "shfmt -d -w x.sh",
    "shfmt -l -w .",
    "shfmt --to-json x.sh",
    "shfmt -x x.sh",
    "shfmt -d=false x.sh",
  ])("%s asks as before", (command) => {
    expect(judged(workspace(sh), command).action).toBe("ask");
  });

  it("a file named after the first operand is an operand (Go's flag package stops there)", () => {
    expect(judged(workspace(sh), "shfmt x.sh -w").action).toBe("allow");
  });

  it("an .editorconfig linking out of the workspace or to a secret asks; a walk reaching a secret asks", () => {
    const ws = workspace({ "x.sh": "echo\n" });
    symlinkSync(join(home, ".netrc"), join(ws, ".editorconfig"));
    expect(judged(ws, "shfmt -d x.sh")).toMatchObject({
      action: "ask",
      reason: expect.stringContaining("configuration"),
    });
    expect(judged(workspace({ ...sh, "scripts/.env": "K=v\n" }), "shfmt -d .").action).toBe("ask");
  });
});

// hadolint (src/Hadolint/Config/Commandline.hs, Configfile.hs): a read of the Dockerfiles named.
describe("hadolint is a read of its Dockerfiles", () => {
  const docker = {
    Dockerfile: "FROM alpine\nRUN apk add curl\n",
    ".hadolint.yaml": "ignored:\n  - DL3018\ntrustedRegistries:\n  - docker.io\n",
  };
  it.each([
    "hadolint Dockerfile",
    "hadolint --ignore DL3008 -f json Dockerfile",
    "hadolint -t error --no-color Dockerfile",
    "hadolint --version",
  ])("%s is allowed", (command) => {
    expect(judged(workspace(docker), command).action).toBe("allow");
  });

  it.each([
    "hadolint -c other.yaml Dockerfile",
    "hadolint --config=x.yaml Dockerfile",
    "hadolint --ign DL3008 Dockerfile",
    "hadolint -f html Dockerfile",
    "hadolint .env",
  ])("%s is not allowed", (command) => {
    expect(judged(workspace({ ...docker, ".env": "K=v\n" }), command).action).not.toBe("allow");
  });

  it("a .hadolint.yaml linking out, or one not parsed, asks", () => {
    const ws = workspace({ Dockerfile: "FROM alpine\n" });
    symlinkSync(join(home, ".netrc"), join(ws, ".hadolint.yaml"));
    expect(judged(ws, "hadolint Dockerfile")).toMatchObject({
      action: "ask",
      reason: expect.stringContaining("configuration"),
    });
    expect(
      judged(workspace({ ...docker, ".hadolint.yml": "ignored: [\n" }), "hadolint Dockerfile").action,
    ).toBe("ask");
  });
});

// clang-format (clang/tools/clang-format/ClangFormat.cpp): a read of the files it names, without -i.
describe("clang-format without -i is a read", () => {
  const c = {
    "src/a.c": "int main(){return 0;}\n",
    ".clang-format":
      "---\nBasedOnStyle: LLVM\nIndentWidth: 4\n---\nLanguage: JavaScript\nBasedOnStyle: Google\n",
  };
  it.each([
    "clang-format --dry-run src/a.c",
    "clang-format -n --Werror src/a.c",
    "clang-format -style=file src/a.c",
    "clang-format --style=Google src/a.c",
    "clang-format src/a.c",
    "clang-format --dump-config",
    "clang-format --version",
  ])("%s is allowed", (command) => {
    expect(judged(workspace(c), command).action).toBe("allow");
  });

  it.each([
    "clang-format -i src/a.c",
    "clang-format --dry-run -i src/a.c",
    "clang-format --style=file:/etc/x src/a.c",
    "clang-format -style file:cfg.yaml src/a.c",
    "clang-format --files=list.txt",
    "clang-format --assume-filename=/etc/a.c",
    "clang-format @args.txt",
    "clang-format --dry-run=false src/a.c",
  ])("%s asks as before", (command) => {
    expect(judged(workspace(c), command).action).toBe("ask");
  });

  it("a style file named by --style asks for that reason", () => {
    for (const command of [
      "clang-format --style=file:/etc/x src/a.c",
      "clang-format -style file:cfg.yaml src/a.c",
    ])
      expect(judged(workspace(c), command).reason).toContain("style read from a named file");
  });

  it("a .clang-format linking out of the workspace, or not parsed, asks", () => {
    const ws = workspace({ "src/a.c": "int x;\n" });
    symlinkSync(join(home, ".netrc"), join(ws, "src", ".clang-format"));
    expect(judged(ws, "clang-format --dry-run src/a.c")).toMatchObject({
      action: "ask",
      reason: expect.stringContaining("configuration"),
    });
    expect(
      judged(workspace({ ...c, ".clang-format": "BasedOnStyle: [\n" }), "clang-format -n src/a.c").action,
    ).toBe("ask");
  });
});

// yamllint (yamllint/cli.py): a read of the YAML it names or walks, started like pip.
describe("yamllint without -c/-d is a read", () => {
  const y = {
    "ci.yml": "on: push\n",
    "k8s/app.yaml": "kind: Pod\n",
    ".yamllint": "extends: default\nrules:\n  line-length: disable\nignore: |\n  /vendor/\n",
  };
  it.each([
    "yamllint .",
    "yamllint ci.yml k8s",
    "yamllint -s -f parsable .",
    "yamllint --strict --no-warn .",
    "yamllint --list-files .",
    "yamllint --version",
  ])("%s is allowed", (command) => {
    expect(judged(workspace(y), command).action).toBe("allow");
  });

  it.each([
    "yamllint -c other.yml .",
    "yamllint --config-file=x .",
    "yamllint -d '{extends: /etc/x}' .",
    "yamllint --conf x .",
    "yamllint -f html .",
  ])("%s asks as before", (command) => {
    expect(judged(workspace(y), command).action).toBe("ask");
  });

  it("an extends or ignore-from-file out of the workspace asks, opened from where it runs too", () => {
    expect(judged(workspace({ ...y, ".yamllint": "extends: ../home/.netrc\n" }), "yamllint .").action).toBe(
      "ask",
    );
    expect(
      judged(workspace({ ...y, ".yamllint": "ignore-from-file: [.gitignore, /etc/passwd]\n" }), "yamllint .")
        .action,
    ).toBe("ask");
    const ws = workspace({ ...y, ".yamllint": "extends: base.yaml\n", "k8s/x.yml": "a: 1\n" });
    symlinkSync(join(home, ".netrc"), join(ws, "k8s", "base.yaml"));
    expect(judged(ws, "cd k8s && yamllint .").action).toBe("ask");
  });

  it("a workspace virtualenv's yamllint, or PYTHONPATH in the workspace, asks as pip does", () => {
    const ws = workspace(y);
    expect(judgeCommand(ws, "yamllint .", { env: { HOME: home, PYTHONPATH: join(ws, "src") } }).action).toBe(
      "ask",
    );
  });
});

// ruff and yamllint read files by name (their default include / yaml-files): a secret they never open does
// not make their walk ask; one named like what they read does, and a config choosing other names asks.
describe("the linters' walks are by file name", () => {
  it("a .env below is not read by `ruff check .` or `yamllint .`, but a named one is", () => {
    const ws = workspace({ ".env": "K=v\n", "ci.yml": "a: 1\n" });
    expect(judged(ws, "ruff check .").action).toBe("allow");
    expect(judged(ws, "yamllint .").action).toBe("allow");
    expect(judged(ws, "ruff check .env").action).not.toBe("allow");
    expect(judged(ws, "yamllint .env").action).not.toBe("allow");
  });

  it("a hidden .py or .yml linking to a secret is read, so it asks", () => {
    const ws = workspace();
    symlinkSync(join(home, ".netrc"), join(ws, "src", ".x.py"));
    expect(judged(ws, "ruff check .").action).toBe("ask");
    const ws2 = workspace();
    symlinkSync(join(home, ".netrc"), join(ws2, ".ci.yml"));
    expect(judged(ws2, "yamllint .").action).toBe("ask");
  });

  it("a config choosing the files (ruff's include, yamllint's yaml-files) asks", () => {
    const ws = workspace({ ".env": "K=v\n", "ruff.toml": 'include = ["*"]\n' });
    expect(judged(ws, "ruff check .").reason).toContain("include");
    const ws2 = workspace({ "pyproject.toml": '[tool.ruff]\nextend-include = ["*.txt"]\n' });
    expect(judged(ws2, "ruff format --check .").action).toBe("ask");
    const ws3 = workspace({ ".yamllint": "yaml-files: ['*']\n" });
    expect(judged(ws3, "yamllint .").reason).toContain("yaml-files");
  });
});
