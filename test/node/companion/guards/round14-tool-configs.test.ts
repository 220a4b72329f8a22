// Red team, round 14 (r14-16, s02, s05): configuration that decides what runs, under names the protected
// list did not have. mise reads a dozen files per directory besides mise.toml (`.mise.local.toml`,
// `.config/mise/config.toml`, `.config/mise/conf.d/*.toml`, `mise/config.toml`, `mise.<env>.toml`, the old
// `.rtx.toml`…), each with the same `[env] _.source`, hooks and tasks; `.miserc.toml` picks which of them
// load. rustup runs the toolchain a `rust-toolchain.toml` `path` names, and rust-analyzer runs the
// overrideCommand of a `rust-analyzer.toml` at the project root. Writing any of them now asks.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { isProtectedWritePath } from "../../../../src/policy/secret-paths.ts";
import { gitWorkspace } from "./disk-fixture.ts";
import { expectEveryWayOfWriting } from "./judge-write.ts";

const { base, ws, home } = gitWorkspace("airlock-rt14-tools-", {
  "mise.toml": '[env]\nFOO = "1"\n',
  "src/mise.ts": "export const mise = 1;\n",
  "Cargo.toml": '[package]\nname = "x"\n',
  "README.md": "# app\n",
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const PAYLOAD = '[env]\n_.source = "./x.sh"\n';

/** Every way of writing `rel`, under both starters, is judged `action` (judge-write.ts). */
function expectEvery(rel: string, action: "ask" | "allow"): void {
  expectEveryWayOfWriting(ws, home, rel, PAYLOAD, action);
}

const ATTACKS = [
  // r14-16: every name mise loads in a directory (src/config/mod.rs, LOCAL_CONFIG_FILENAMES and the MISE_ENV ones).
  ".mise.local.toml",
  ".config/mise/config.toml",
  ".config/mise/config.local.toml",
  ".config/mise/conf.d/a.toml",
  ".config/mise.local.toml",
  "mise/config.toml",
  "mise/config.local.toml",
  "mise/config.dev.toml",
  "mise.dev.toml",
  "mise.dev.local.toml",
  ".mise.dev.toml",
  ".rtx.toml",
  ".rtx.local.toml",
  ".miserc.toml",
  ".config/miserc.toml",
  "sub/.mise.local.toml",
  // s02: rustup runs `[toolchain] path`'s programs for every cargo and rustc here.
  "rust-toolchain.toml",
  "rust-toolchain",
  // s05: rust-analyzer runs cargo.buildScripts/check overrideCommand when the editor opens the project.
  "rust-analyzer.toml",
];

describe("tool configuration that decides what runs: the attacks (written first)", () => {
  it.each(ATTACKS)("writing %s asks under both starters", (rel) => {
    expectEvery(rel, "ask");
  });
});

describe("everyday edits beside them stay allowed", () => {
  it.each(["src/mise.ts", "README.md", "Cargo.toml", "docs/mise.md", "src/mise/tasks.ts"])(
    "writing %s is allowed under both starters",
    (rel) => {
      expectEvery(rel, "allow");
    },
  );
});

describe("the names, as the judge reads them without the disk", () => {
  it.each(ATTACKS)("%s is protected", (path) => {
    expect(isProtectedWritePath(path)).toBe(true);
  });
  it.each(["src/mise.ts", "mise.md", "src/mise/index.ts", "rust-toolchain.md", "src/toolchain.rs"])(
    "%s is not",
    (path) => {
      expect(isProtectedWritePath(path)).toBe(false);
    },
  );
});
