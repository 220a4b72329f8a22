// Round 16's over-asks (fix16g): everyday calls that asked under the starter policy (`balanced`) because their
// program had no grammar or a form was not modelled — git hash-object, show-branch and apply --check/--stat,
// rustup's lists, cargo --list, pr, fmt, numfmt, kill -l, vmstat, lsblk, findmnt, ip addr, pgrep, pidof,
// yes, cal, bc, whereis, mktemp -d, node --check, `cd src && ls ..` — judged as the companion judges them
// (the policy, then the disk) on the sample repository. Their dangerous twins never are: a secret operand
// (by name or through a link), a form that writes, applies, signals, changes the network or runs code, an
// option that reads another file, a variable that adds files, a listing whose real place is a secret one.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { judgeEveryday } from "../../../../src/companion/profiles/preview.ts";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { BALANCED as balanced, type Judged, judgeCommand } from "./judge-command.ts";

let ws: string;
let outside: string;

beforeAll(() => {
  ws = sampleWorkspace();
  outside = mkdtempSync(join(tmpdir(), "airlock-16g-"));
  // A patch against README.md, made by git and the file put back.
  writeFileSync(join(ws, "README.md"), "# Sample\n\nA changed project.\n");
  writeFileSync(join(ws, "fix.patch"), execFileSync("git", ["diff"], { cwd: ws }));
  execFileSync("git", ["checkout", "--", "README.md"], { cwd: ws });
  // A link with an ordinary name to the secret, and a directory whose real parent is a secret directory.
  symlinkSync(join(ws, ".env"), join(ws, "plain.patch"));
  mkdirSync(join(outside, ".ssh", "keys"), { recursive: true });
  symlinkSync(join(outside, ".ssh", "keys"), join(ws, "keys"));
});
afterAll(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const judged = (command: string, where = ws): Judged => judgeCommand(where, command);

describe("everyday forms are allowed", () => {
  it.each([
    // The calls the blind testers recorded.
    "git hash-object README.md",
    "git show-branch",
    "git apply --check fix.patch",
    "git apply --stat fix.patch",
    "rustup toolchain list",
    "rustup target list --installed",
    "rustup component list --installed",
    "cargo --list",
    "cargo --version --verbose",
    "pr -t README.md",
    "fmt -w 80 README.md",
    "numfmt --to=iec 1048576",
    "kill -l",
    "vmstat 1 1",
    "lsblk",
    "findmnt",
    "ip addr",
    "pgrep -a node",
    "pidof node",
    "yes | head -3",
    "cal",
    "bc <<< '1+2'",
    "whereis node",
    "mktemp -d",
    "node --check scripts/build.js",
    "cd src && ls ..",
    // Their everyday neighbours.
    "git hash-object --no-filters README.md src/util.ts",
    "git show-branch -a --topo-order",
    "git apply --numstat --summary fix.patch",
    "git apply -R --check fix.patch",
    "cat fix.patch | git apply --check",
    "rustup target list",
    "pr -2 -h Title README.md",
    "fmt -72 README.md",
    "numfmt --from=iec 1K 2M",
    "kill -l 9",
    "vmstat -s",
    "lsblk -f -o NAME,SIZE",
    "findmnt -T . -o TARGET,FSTYPE",
    "ip -br -c a",
    "ip route",
    "ip link show",
    "ip -4 addr show dev lo",
    "pgrep -fl vitest",
    "pidof -s node",
    "cal -3",
    "echo '2^10' | bc -l",
    "bc -l README.md",
    "whereis -b git",
    "mktemp",
    "node -c scripts/build.js",
    "cd src && ls ../tests",
    "cd src; du -sh ..",
  ])("%s is allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).toBe("allow");
  });
});

describe("their dangerous twins are never allowed", () => {
  it.each([
    // A secret as an operand, by name or through a link with an ordinary name.
    "git hash-object .env",
    "git apply --check .env",
    "git apply --check plain.patch",
    "pr .env",
    "fmt ~/.ssh/id_rsa",
    "bc .env",
    "bc plain.patch",
    "pgrep -F .env node",
    "findmnt -T ~/.ssh",
    "node --check .env",
    "node --check plain.patch",
    // Forms that write, apply, remove, install, signal or change the network.
    "git hash-object -w README.md",
    "git hash-object --stdin-paths",
    "git hash-object --path=x README.md",
    "git apply fix.patch",
    "git apply --check --apply fix.patch",
    "git apply --check --reject fix.patch",
    "git apply --check -3 fix.patch",
    "git apply --check --index --intent-to-add fix.patch",
    "git apply --no-check fix.patch",
    "git apply --stat --no-stat fix.patch",
    "git apply --check --build-fake-ancestor=x fix.patch",
    "git apply --check --unsafe-paths fix.patch",
    "git apply --check --directory=.. fix.patch",
    "rustup toolchain install nightly",
    "rustup target add wasm32-unknown-unknown",
    "rustup component remove clippy",
    "rustup toolchain list x",
    "cargo --list build",
    "cargo --verbose build",
    "kill 1",
    "kill -9 1",
    "kill -s TERM 1",
    "ip addr add 10.0.0.1/24 dev lo",
    "ip link set lo down",
    "ip route flush all",
    "ip net",
    "ip netns exec x id",
    "ip -b cmds.txt",
    "ip -n other a",
    "mktemp build/x.XXXX",
    "mktemp -p . x.XXX",
    "mktemp --tmpdir=.git/hooks",
    "findmnt -F .env",
    "findmnt --tab-file ~/.ssh/config",
    "lsblk --sysroot /",
    "whereis -B ~/.ssh -f id_rsa",
    // Code that runs: preloads, a script, the environment adding files.
    "node -r ./scripts/build.js --check scripts/build.js",
    "node --import ./scripts/build.js --check scripts/build.js",
    "node --check scripts/build.js extra",
    "node --check --test scripts/build.js",
    "node scripts/build.js --check",
    "NODE_OPTIONS='-r ./scripts/build.js' node --check scripts/build.js",
    "BC_ENV_ARGS=.env bc <<< 1",
    // Words only known at run time.
    'git apply --check "$P"',
    'ip "$OBJ"',
    "kill -l $(cat .env)",
    // A listing whose real place is a secret directory: keys links into ~/.ssh.
    "cd keys && ls ..",
    "cd keys; find .. -name '*'",
    "cd src && ls a/..",
  ])("%s is never allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).not.toBe("allow");
  });
});

describe("git show-branch prints commit subjects", () => {
  // Built at run time so no token shape sits in this file.
  const TOKEN = `ghp_${"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}`;

  it("asks when a subject holds a credential, as git log --oneline does", () => {
    const repo = sampleWorkspace();
    try {
      execFileSync(
        "git",
        [
          "-c",
          "user.name=t",
          "-c",
          "user.email=t@e",
          "commit",
          "-q",
          "--allow-empty",
          "-m",
          `deploy ${TOKEN}`,
        ],
        { cwd: repo },
      );
      for (const command of ["git show-branch", "git show-branch -g", "git log --oneline"]) {
        const { action, reason } = judged(command, repo);
        expect(action, `${command}: ${reason}`).not.toBe("allow");
      }
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe("installed public files and /dev/null outside the workspace", () => {
  const CRATE = "/home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.200/src/lib.rs";
  const read = (file_path: string) =>
    judgeEveryday(balanced, ws, "/home/dev", diskCheck({ env: {} }), [
      { kind: "read", tool: "Read", input: { file_path } },
    ])[0]?.record.action;

  it("a crate's source and /dev/null are read without asking", () => {
    expect(read(CRATE)).toBe("allow");
    expect(judged(`head -50 ${CRATE}`).action).toBe("allow");
    expect(judged("tail -f /dev/null & sleep 0").action).toBe("allow");
    expect(judged("diff README.md /dev/null").action).toBe("allow");
  });

  it("cargo's credentials, its download cache and other devices still ask", () => {
    expect(read("/home/dev/.cargo/credentials.toml")).toBe("deny");
    expect(read("/home/dev/.cargo/registry/src/../../credentials.toml")).toBe("deny");
    expect(read("/home/dev/.cargo/registry/cache/x.crate")).not.toBe("allow");
    expect(read("/home/dev/.cargo/config.toml")).not.toBe("allow");
    expect(judged("cat /dev/zero").action).not.toBe("allow");
    expect(judged("cat /dev/sda").action).not.toBe("allow");
  });
});

describe("CMD $(git ls-files): the tracked names, as bash splits and globs them", () => {
  const commit = (repo: string, files: Record<string, string>, links: Record<string, string> = {}) => {
    for (const [rel, text] of Object.entries(files)) writeFileSync(join(repo, rel), text);
    for (const [rel, to] of Object.entries(links)) symlinkSync(to, join(repo, rel));
    const git = (...a: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...a], { cwd: repo });
    git("add", "-f", ...Object.keys(files), ...Object.keys(links));
    git("commit", "-qm", "more");
  };

  it("reads every tracked file, as `git ls-files | xargs` does", () => {
    for (const command of [
      "wc -l $(git ls-files)",
      "cat $(git ls-files) | wc -c",
      "cd src && head -3 $(git ls-files)",
    ]) {
      const { action, reason } = judged(command);
      expect(action, `${command}: ${reason}`).toBe("allow");
    }
  });

  it.each([
    ["a tracked secret", { ".env.production": "TOKEN=x\n" }, {}],
    ["a tracked name with a glob character", { "notes[1].md": "x\n" }, {}],
    ["a tracked name with a blank", { "my notes.md": "x\n" }, {}],
    ["a tracked link to a secret", {}, { "plain.txt": "/home/dev/.ssh/id_rsa" }],
  ] as [string, Record<string, string>, Record<string, string>][])("asks with %s", (_what, files, links) => {
    const repo = sampleWorkspace();
    try {
      commit(repo, files, links);
      const { action, reason } = judged("wc -l $(git ls-files)", repo);
      expect(action, reason).not.toBe("allow");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it.each([
    "wc -l $(git ls-files -z)",
    'wc -l "$(git ls-files)"',
    "rm $(git ls-files)",
    "IFS=,; wc -l $(git ls-files)",
    "wc -l $(git ls-files --others)",
  ])("%s still asks", (command) => {
    expect(judged(command).action).not.toBe("allow");
  });
});
