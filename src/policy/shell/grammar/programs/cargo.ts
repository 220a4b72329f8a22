// cargo (1.6x): build, test, run, check, clippy… compile and run the crate (build.rs, proc
// macros, tests); `tree`, `metadata` and `fmt` run rustc or rustfmt too, through the configuration's
// build.rustc-wrapper and the toolchain a rust-toolchain file picks (red team, round 5); only the
// manifest-only subcommands read.
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

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
    ...["--no-run", "--no-fail-fast", "--doc", "--all", "-V"].map((n) => flag(n)),
    opt(
      "-p --package -F --features --bin --example --test --bench --target --profile --color --message-format",
    ),
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
});
