// Red team round 16 (r16a-01): `cargo metadata --no-deps` loads more manifests than the directory's own
// and those above it: the workspace's members (`members = ["tools/gen", "crates/*"]`) and every path
// dependency, transitively, an outside `path = "../x"` too (strace, cargo 1.95), and prints their fields
// or quotes their lines in its errors. A member or a path dependency whose manifest links onto a secret,
// whose directory links out of the workspace, or which lies out of it, asks; plain members stay allowed.
import { linkSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type GitWorkspace, gitWorkspace, starterActions, write } from "./disk-fixture.ts";

const made: GitWorkspace[] = [];
afterAll(() => {
  for (const w of made) rmSync(w.base, { recursive: true, force: true });
});

const HOME_FILES = {
  ".netrc": "machine github.com login u password NETRC_SECRET_16A\n",
  ".aws/credentials": "[default]\naws_access_key_id = AKIAFAKE16A\n",
  "private-crate/Cargo.toml": '[package]\nname = "priv"\nversion = "0.1.0"\ndescription = "hunter2"\n',
};

const crate = (name: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`;

/** A crate whose root Cargo.toml has `tail` appended, plus `files`; `setup` links what it needs. */
function project(tail: string, files: Record<string, string>, setup: (w: GitWorkspace) => void) {
  const w = gitWorkspace(
    "airlock-r16cargo-",
    {
      "Cargo.toml": `${crate("rs")}${tail}`,
      "src/main.rs": "fn main() {}\n",
      ...files,
    },
    HOME_FILES,
  );
  setup(w);
  made.push(w);
  return w;
}

const MEMBERS = '[workspace]\nmembers = ["tools/gen", "crates/*"]\n';
const PLAIN = { "tools/gen/src/lib.rs": "", "crates/a/src/lib.rs": "", "crates/a/Cargo.toml": crate("a") };

describe("cargo metadata --no-deps with members and path dependencies", () => {
  it.each([
    [
      "an explicit member's manifest linked to ~/.netrc",
      MEMBERS,
      (w: GitWorkspace) => symlinkSync(join(w.home, ".netrc"), join(w.ws, "tools/gen/Cargo.toml")),
    ],
    [
      "a glob member's manifest linked to ~/.aws/credentials",
      MEMBERS,
      (w: GitWorkspace) => {
        write(join(w.ws, "tools/gen/Cargo.toml"), crate("gen"));
        mkdirSync(join(w.ws, "crates/b/src"), { recursive: true });
        symlinkSync(join(w.home, ".aws/credentials"), join(w.ws, "crates/b/Cargo.toml"));
      },
    ],
    [
      "a glob member's directory linked out of the workspace",
      '[workspace]\nmembers = ["tools/*"]\n',
      (w: GitWorkspace) => {
        write(join(w.ws, "tools/gen/Cargo.toml"), crate("gen"));
        symlinkSync(join(w.home, "private-crate"), join(w.ws, "tools/priv"));
      },
    ],
    [
      "a member's manifest hard-linked to a secret",
      MEMBERS,
      (w: GitWorkspace) => linkSync(join(w.home, ".aws/credentials"), join(w.ws, "tools/gen/Cargo.toml")),
    ],
    [
      "a path dependency's manifest linked to ~/.netrc",
      '[dependencies]\ndep = { path = "dep" }\n',
      (w: GitWorkspace) => {
        mkdirSync(join(w.ws, "dep"), { recursive: true });
        symlinkSync(join(w.home, ".netrc"), join(w.ws, "dep/Cargo.toml"));
      },
    ],
    [
      "a member's dev-dependency out of the workspace",
      MEMBERS,
      (w: GitWorkspace) =>
        write(
          join(w.ws, "tools/gen/Cargo.toml"),
          `${crate("gen")}[dev-dependencies]\npriv = { path = "../../../home/private-crate" }\n`,
        ),
    ],
    [
      "a package.workspace root out of the workspace",
      "",
      (w: GitWorkspace) =>
        write(join(w.ws, "Cargo.toml"), `${crate("rs")}workspace = "../home/private-crate"\n`),
    ],
    ["a member pattern with **", '[workspace]\nmembers = ["crates/**"]\n', () => {}],
  ])("%s asks", (_, tail, setup) => {
    const w = project(tail, PLAIN, setup);
    for (const command of ["cargo metadata --no-deps", "cargo metadata --no-deps --format-version 1"])
      expect(starterActions(command, w.ws, w.home), command).toEqual(["balanced: ask", "autonomous: ask"]);
  });

  it("from inside a member, the root's other members are loaded too", () => {
    const w = project(MEMBERS, PLAIN, (w) =>
      symlinkSync(join(w.home, ".netrc"), join(w.ws, "tools/gen/Cargo.toml")),
    );
    const r = starterActions("cd crates/a && cargo metadata --no-deps", w.ws, w.home);
    expect(r).toEqual(["balanced: ask", "autonomous: ask"]);
  });

  it.each([
    ["plain members, explicit and by glob", MEMBERS, { "tools/gen/Cargo.toml": crate("gen") }],
    [
      "a plain path dependency",
      '[dependencies]\ndep = { path = "dep" }\n',
      { "dep/Cargo.toml": crate("dep") },
    ],
    ["a member that is not there yet", MEMBERS, {}],
    ["no workspace at all", "", {}],
  ])("%s stays allowed", (_, tail, files) => {
    const w = project(tail, { ...PLAIN, ...files }, () => {});
    expect(starterActions("cargo metadata --no-deps", w.ws, w.home)).toEqual([
      "balanced: allow",
      "autonomous: allow",
    ]);
  });
});
