// Red team, round 20 (r20-s04, r20-s03): project files that pick, download or run the toolchain for every later
// call of a program, in ecosystems the protected list did not cover. bazelisk downloads a `.bazelversion`'s
// `FORK/VERSION` and runs `tools/bazel`; dotnet searches global.json's `sdk.paths`; Gradle's wrapper runs its
// distributionUrl and its daemon a `toolchainUrl.*` JDK; Maven's launcher reads `.mvn/jvm.config` (`-javaagent:`);
// `sdk env` puts `.sdkmanrc`'s `../` versions on PATH; tfenv installs `.terraform-version`; tfswitch's
// `.tfswitch.toml` names where its binary goes; jenv runs `versions/NAME/bin/java` for a `.java-version` NAME that
// climbs out of its directory. Writing each now asks, and `java -version` (allowed) asks where a version file
// in the workspace names such a directory. Ordinary build files beside them stay everyday edits and reads.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isProtectedWritePath } from "../../../../src/policy/secret-paths.ts";
import { climbingVersionName } from "../../../../src/policy/version-names.ts";
import { gitWorkspace, write } from "./disk-fixture.ts";
import {
  AUTONOMOUS as AUTONOMOUS_PROFILE,
  BALANCED as BALANCED_PROFILE,
  judgeCommand,
} from "./judge-command.ts";
import { expectEveryWayOfWriting } from "./judge-write.ts";

const { base, ws, home } = gitWorkspace("airlock-r20-pickers-", {
  "README.md": "# app\n",
  "pom.xml": "<project/>\n",
  "build.gradle": "plugins { id 'java' }\n",
});
const scratch = realpathSync(mkdtempSync(join(tmpdir(), "airlock-r20-versions-")));
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** Every way of writing `rel`, under both starters, is judged `action` (judge-write.ts). */
function expectEvery(rel: string, action: "ask" | "allow"): void {
  expectEveryWayOfWriting(ws, home, rel, "attacker/7.0.0\n", action);
}

const PICKERS = [
  ".bazelversion",
  ".bazeliskrc",
  "tools/bazel",
  "tools/bazel.linux-x86_64",
  ".bazelrc",
  "global.json",
  "src/App/global.json",
  "gradle/wrapper/gradle-wrapper.properties",
  "gradle/wrapper/gradle-wrapper.jar",
  "gradle/gradle-daemon-jvm.properties",
  ".mvn/jvm.config",
  ".mvn/maven.config",
  ".mvn/extensions.xml",
  ".mvn/wrapper/maven-wrapper.properties",
  ".sdkmanrc",
  ".terraform-version",
  ".tfswitchrc",
  ".tfswitch.toml",
  ".java-version",
];

const EVERYDAY = [
  "README.md",
  "pom.xml",
  "build.gradle",
  "settings.gradle.kts",
  "gradle/libs.versions.toml",
  "src/global.ts",
  "docs/bazel.md",
  "BUILD.bazel",
  "MODULE.bazel",
  "main.tf",
  // swiftly only selects an installed toolchain, so its picker stays an ordinary write (node's, python's and
  // ruby's are protected since round 22: round22-version-pickers.test.ts).
  ".swift-version",
];

describe("r20-s04: writing a toolchain picker asks under both starters", () => {
  it.each(PICKERS)("writing %s asks", (rel) => {
    expectEvery(rel, "ask");
  });
  it.each(PICKERS)("%s is protected without the disk", (rel) => {
    expect(isProtectedWritePath(rel)).toBe(true);
  });
});

describe("r20-s04: ordinary build files beside them stay everyday edits", () => {
  it.each(EVERYDAY)("writing %s is allowed", (rel) => {
    expectEvery(rel, "allow");
  });
});

/** A workspace holding only `files`, for a version query judged on the disk. */
function versionWorkspace(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [rel, text] of Object.entries(files)) write(join(dir, rel), text);
  return dir;
}

const PROFILES = [
  ["balanced", BALANCED_PROFILE],
  ["autonomous", AUTONOMOUS_PROFILE],
] as const;

describe("r20-s04: a version file naming a directory outside the manager's asks before a version query", () => {
  const climbing = versionWorkspace("climbing", { ".java-version": "../../../../tmp/jdk\n" });
  const climbingPython = versionWorkspace("climbing-python", { ".python-version": "3.12.1\n../../venv\n" });
  const plain = versionWorkspace("plain", {
    ".java-version": "17\n",
    ".python-version": "3.12.1/envs/app\n",
    ".nvmrc": "lts/*\n",
  });
  it.each(PROFILES)("%s: java -version with .java-version `../../../../tmp/jdk` asks", (_, policy) => {
    const r = judgeCommand(climbing, "java -version", { policy });
    expect(r).toMatchObject({ action: "ask" });
    expect(r.reason).toMatch(/\.java-version` names `\.\.\/\.\.\/\.\.\/\.\.\/tmp\/jdk`/);
  });
  it.each(PROFILES)("%s: python3 --version with a climbing second line asks", (_, policy) => {
    expect(judgeCommand(climbingPython, "python3 --version", { policy }).action).toBe("ask");
  });
  it.each(PROFILES)("%s: plain names (pyenv-virtualenv's, nvm's lts/*) stay allowed", (_, policy) => {
    for (const command of ["java -version", "python3 --version", "node --version"])
      expect(judgeCommand(plain, command, { policy }).action).toBe("allow");
  });
  it.each([
    ["17", null],
    ["temurin-21.0.1", null],
    ["3.12.1/envs/app", null],
    ["lts/*", null],
    ["a..b", null],
    ["../jdk", "../jdk"],
    ["17\n..\\x", "..\\x"],
    ["x/../../y", "x/../../y"],
  ])("climbingVersionName(%j) is %j", (text, word) => {
    expect(climbingVersionName(text)).toBe(word);
  });
});

describe("r20-s03: go.mod written earlier in the same command", () => {
  const empty = versionWorkspace("go-empty", { "README.md": "x\n" });
  it.each(PROFILES)("%s: a toolchain line written before `go version` asks", (_, policy) => {
    const command = "printf 'module x\\ngo 1.21\\ntoolchain go1.99.1\\n' > go.mod; go version";
    expect(judgeCommand(empty, command, { policy }).action).toBe("ask");
  });
  it.each(PROFILES)("%s: so does go.work, and a write through tee", (_, policy) => {
    for (const command of [
      "printf 'go 1.21\\ntoolchain go1.99.1\\n' > go.work && go env GOVERSION",
      "printf 'module x\\ntoolchain go1.99.1\\n' | tee go.mod; go version",
    ])
      expect(judgeCommand(empty, command, { policy }).action).toBe("ask");
  });
  it.each(PROFILES)("%s: `go version` alone, and after a write elsewhere, stays allowed", (_, policy) => {
    for (const command of ["go version", "echo hi > notes.txt; go version"])
      expect(judgeCommand(empty, command, { policy }).action).toBe("allow");
  });
});
