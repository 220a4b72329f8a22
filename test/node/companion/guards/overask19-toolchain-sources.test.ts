// Round 19's over-asks (fix20d): library sources in toolchain homes, read on every go-to-definition, asked
// although their twins (/usr/lib/python3, ~/.cargo/registry/src) were allowed: Go's standard library
// (GOROOT/src), the Go module cache, Rust's standard library, pyenv's interpreters' libraries, the user's
// site-packages, globally installed node packages. The starter's "Read system sources" rule now names them.
// What may hold a credential there never is: a secret's name anywhere below them (a property), the Go
// module cache's cache/ (VCS clones and their remotes), npm's builtin `npmrc`, and the version managers'
// own files beside the libraries (~/.pyenv/version, ~/.nvm/alias); writes there ask as before, and where
// the workspace is the home directory its hidden entries stay protected by class (round 18).

import { rmSync } from "node:fs";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { EverydayCall } from "../../../../src/companion/profiles/everyday-calls.ts";
import { judgeEveryday, profilePolicy } from "../../../../src/companion/profiles/preview.ts";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";

const HOME = "/home/dev";
const ws = sampleWorkspace();
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const PROFILES = ["cautious", "balanced", "autonomous"] as const;
type Profile = (typeof PROFILES)[number];

function judged(call: EverydayCall, profile: Profile = "balanced", cwd = ws) {
  const [first] = judgeEveryday(profilePolicy(profile, HOME), cwd, HOME, diskCheck({ env: { HOME } }), [
    call,
  ]);
  return first?.record ?? { action: "none" };
}
const read = (file_path: string, profile: Profile = "balanced") =>
  judged({ kind: "read", tool: "Read", input: { file_path } }, profile).action;
const write = (file_path: string, profile: Profile) =>
  judged({ kind: "edit", tool: "Write", input: { file_path, content: "x" } }, profile).action;

const SOURCES = [
  "/usr/lib/go/src/fmt/print.go",
  "/usr/lib/go-1.19/src/net/http/server.go",
  "/usr/share/go-1.19/src/fmt/print.go",
  "/usr/local/go/src/fmt/print.go",
  `${HOME}/go/pkg/mod/github.com/x/y@v1.0.0/a.go`,
  `${HOME}/go/pkg/mod/golang.org/x/tools@v0.20.0/go.mod`,
  `${HOME}/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/lib.rs`,
  `${HOME}/.pyenv/versions/3.12.1/lib/python3.12/json/__init__.py`,
  `${HOME}/.pyenv/versions/3.12.1/lib/python3.12/site-packages/requests/api.py`,
  `${HOME}/.local/lib/python3.11/site-packages/requests/api.py`,
  `${HOME}/.nvm/versions/node/v20.0.0/lib/node_modules/typescript/lib/lib.d.ts`,
  "/usr/lib/node_modules/npm/package.json",
  "/usr/local/lib/node_modules/typescript/lib/typescript.js",
  "/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/std/src/lib.rs",
];

describe("library sources in toolchain homes are read without asking", () => {
  it.each(SOURCES)("Read %s is allowed under every profile", (path) => {
    for (const profile of PROFILES) expect(read(path, profile), profile).toBe("allow");
  });

  it("and by a read-only command", () => {
    for (const command of [
      "grep -n Println /usr/lib/go/src/fmt/print.go",
      `head -40 ${HOME}/go/pkg/mod/github.com/x/y@v1.0.0/a.go`,
      `cat ${HOME}/.local/lib/python3.11/site-packages/requests/api.py`,
    ]) {
      const r = judged({ kind: "read", tool: "Bash", input: { command } });
      expect(r.action, `${command}: ${"reason" in r ? r.reason : ""}`).toBe("allow");
    }
  });
});

describe("what may hold a credential, or decides what runs, there", () => {
  it.each([
    `${HOME}/go/pkg/mod/cache/vcs/0123abcd/config`,
    `${HOME}/go/pkg/mod/cache/download/github.com/x/y/@v/v1.0.0.zip`,
    "/usr/lib/node_modules/npm/npmrc",
    `${HOME}/.nvm/versions/node/v20.0.0/lib/node_modules/npm/npmrc`,
    `${HOME}/.nvm/versions/node/v20.0.0/etc/npmrc`,
    `${HOME}/.nvm/alias/default`,
    `${HOME}/.pyenv/version`,
    `${HOME}/.rustup/settings.toml`,
    `${HOME}/.local/lib/python3.11/secrets.yaml`,
    `${HOME}/go/pkg/mod/../../.netrc`,
  ])("Read %s is not allowed", (path) => {
    expect(read(path)).not.toBe("allow");
  });

  it.each([
    `${HOME}/go/pkg/mod/github.com/x/y@v1.0.0/a.go`,
    `${HOME}/.local/lib/python3.11/site-packages/x.pth`,
    "/usr/lib/go/src/fmt/print.go",
    `${HOME}/.nvm/versions/node/v20.0.0/lib/node_modules/typescript/lib/lib.d.ts`,
  ])("writing %s still asks", (file_path) => {
    for (const profile of PROFILES) expect(write(file_path, profile), profile).not.toBe("allow");
  });

  it("where the workspace is the home directory, its hidden entries' reads still ask (round 18)", () => {
    const path = `${HOME}/.nvm/versions/node/v20.0.0/lib/node_modules/typescript/lib/lib.d.ts`;
    expect(
      judged({ kind: "read", tool: "Read", input: { file_path: path } }, "balanced", HOME).action,
    ).not.toBe("allow");
  });
});

/** The new roots, each with a generated middle (version, toolchain, module). */
const word = fc.stringMatching(/^[a-z0-9][a-z0-9._@-]{0,10}$/);
const root = fc.oneof(
  fc.constant("/usr/lib/go/src"),
  fc.constant("/usr/local/go/src"),
  word.map((v) => `/usr/share/go-${v}/src`),
  word.map((m) => `${HOME}/go/pkg/mod/github.com/${m}`),
  word.map((t) => `${HOME}/.rustup/toolchains/${t}/lib/rustlib/src`),
  word.map((v) => `${HOME}/.pyenv/versions/${v}/lib/python3.12`),
  fc.constant(`${HOME}/.local/lib/python3.11/site-packages`),
  word.map((v) => `${HOME}/.nvm/versions/node/${v}/lib/node_modules`),
  fc.constant("/usr/lib/node_modules"),
  fc.constant("/usr/local/lib/node_modules"),
);
/** Names that say secret (source code named after what it handles, `credentials.py`, is not one). */
const secretName = fc.oneof(
  fc.constantFrom(".env", ".env.local", ".npmrc", ".netrc", "auth.json", "credentials", "credentials.json"),
  word.map((w) => `${w.replace(/\./g, "")}.pem`),
  fc.constantFrom("id_rsa", "id_ed25519", "id_ecdsa", "id_dsa").chain((k) => word.map((w) => `${k}${w}`)),
);

describe("a secret's name below the new roots (property)", () => {
  it("is never read without a person", () => {
    fc.assert(
      fc.property(root, fc.array(word, { maxLength: 3 }), secretName, (r, middle, name) => {
        const path = [r, ...middle, name].join("/");
        expect(read(path), path).not.toBe("allow");
      }),
      { numRuns: 150 },
    );
  });
});
