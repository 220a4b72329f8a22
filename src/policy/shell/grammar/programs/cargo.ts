// cargo (1.6x): build, test, run, check, clippy… compile and run the crate (build.rs, proc
// macros, tests); `tree`, `metadata` and `fmt` run rustc or rustfmt too, through the configuration's
// build.rustc-wrapper and the toolchain a rust-toolchain file picks (red team, round 5); only the
// manifest-only subcommands read. `metadata --no-deps` is one of them: it resolves nothing, so it never
// asks rustc for the target's facts (strace, cargo 1.95: no process at all, not even a configured
// rustc-wrapper, where plain `metadata` runs the wrapper twice); the toolchain file is the disk's to see.
import { runner } from "../runner.ts";
import { flag, opt, type Parsed } from "../spec.ts";

/** `cargo metadata --no-deps`: only the workspace's own manifests, read and printed. */
const readsManifestsOnly = (p: Parsed) => p.operands[0]?.value === "metadata" && p.has("--no-deps");

/**
 * `cargo --version --verbose` (the spelled-out `-vV`) and `cargo --list` (the subcommands: built-in, the
 * configuration's aliases, cargo-* names on PATH) print and exit; strace (cargo 1.9x) shows neither runs a
 * cargo-* program or rustc.
 */
const QUERY_OPTIONS = new Set(["--version", "-V", "--list", "-v", "--verbose", "-q", "--quiet"]);
const queriesOnly = (p: Parsed) =>
  p.operands.length === 0 &&
  (p.has("--version") || p.has("-V") || p.has("--list")) &&
  p.options.every((o) => QUERY_OPTIONS.has(o.name));

export const cargo = runner({
  names: ["cargo"],
  options: [
    ...[
      "-q --quiet",
      "-v --verbose",
      "--release",
      "--all-targets",
      "--all-features",
      "--no-default-features",
    ].map((n) => flag(n)),
    ...[
      "--workspace",
      "--lib",
      "--bins",
      "--tests",
      "--examples",
      "--benches",
      "--locked",
      "--offline",
      "--frozen",
    ].map((n) => flag(n)),
    ...["--no-run", "--no-fail-fast", "--doc", "--all", "-V", "--no-deps", "--list"].map((n) => flag(n)),
    opt(
      "-p --package -F --features --bin --example --test --bench --target --profile --color --message-format",
    ),
    opt("--format-version", "number"),
    opt("-j --jobs", "number"),
  ],
  subcommands: {
    build: true,
    b: true,
    check: true,
    c: true,
    test: true,
    t: true,
    run: true,
    r: true,
    clippy: true,
    bench: true,
    doc: true,
    fmt: true,
    tree: true,
    metadata: true,
    version: false,
    "read-manifest": false,
    "locate-project": false,
    pkgid: false,
  },
  definedBy: [
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    ".cargo/config.toml",
    ".cargo/config",
    "rust-toolchain.toml",
    "rust-toolchain",
  ],
  runsNothingOfTheProject: (p) => readsManifestsOnly(p) || queriesOnly(p),
});
