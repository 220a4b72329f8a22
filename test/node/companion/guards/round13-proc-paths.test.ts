// Never (red team, round 13): a link through /proc/self/cwd, /proc/self/root, /proc/<pid>/…, /dev/fd/N or
// /dev/stdin was resolved in the judge's own process, where /proc/self is the judge: `ws/x ->
// /proc/self/cwd/private.txt` was placed in the judge's working directory (the workspace) and allowed, while
// `cat ws/x` run from ~/notes prints ~/notes/private.txt. A path through a per-process entry is not known.
import { execFileSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { realPathOf } from "../../../../src/companion/guards/real-path.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt13-proc-")));
const home = join(base, "home");
const notes = join(home, "notes");
const ws = join(base, "ws");
mkdirSync(notes, { recursive: true });
mkdirSync(join(ws, "src"), { recursive: true });
writeFileSync(join(notes, "private.txt"), "PRIVATE_NOTE\n");
writeFileSync(join(ws, "a.txt"), "hello\n");
writeFileSync(join(ws, "src", "b.txt"), "world\n");
git(ws, "init", "-q");
const disk = diskCheck({ env: { HOME: home } });
/** A descriptor this process holds on the workspace's a.txt: /dev/fd/N is that file here, and N's file elsewhere. */
const fd = openSync(join(ws, "a.txt"), "r");
const before = process.cwd();

// The hook runs where the agent started it: the judge's /proc/self/cwd is the workspace.
beforeAll(() => process.chdir(ws));
afterAll(() => {
  process.chdir(before);
  closeSync(fd);
  rmSync(base, { recursive: true, force: true });
});

/** Where each link leads, for a process whose working directory is the workspace. */
const LINKS: Record<string, string> = {
  cwd: "/proc/self/cwd/private.txt",
  cwdDir: "/proc/self/cwd",
  root: `/proc/self/root${ws}/a.txt`,
  thread: "/proc/thread-self/cwd/a.txt",
  pid: `/proc/${process.pid}/cwd/a.txt`,
  procFd: `/proc/self/fd/${fd}`,
  devFd: `/dev/fd/${fd}`,
  stdin: "/dev/stdin",
  chain: "cwd",
  dangling: "/proc/self/cwd/not-yet",
  devDir: "/dev",
};
for (const [name, to] of Object.entries(LINKS)) symlinkSync(to, join(ws, name));

function judge(call: Omit<ToolCall, "cwd" | "home">) {
  return [CAUTIOUS, BALANCED].map((p) => judgeOnDisk(p, { ...call, cwd: ws, home }, { disk }));
}
const bash = (command: string) => judge({ tool: "bash", input: { command } });

describe("paths through /proc/self and /dev/fd", () => {
  it("real bash: the link leads to the command's working directory, not the judge's", () => {
    const out = execFileSync("bash", ["-c", `cd ${notes} && cat ${join(ws, "cwd")}`], { encoding: "utf8" });
    expect(out).toContain("PRIVATE_NOTE");
    expect(realpathSync.native(join(ws, "cwdDir"))).toBe(ws);
  });

  it("resolves no path through a per-process entry", () => {
    for (const name of Object.keys(LINKS).filter((n) => n !== "devDir")) {
      const r = realPathOf(join(ws, name));
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.reason, name).toMatch(/per process/);
    }
    expect(realPathOf(join(ws, "devDir", "fd", String(fd))).ok).toBe(false);
    expect(realPathOf("/proc/self/cwd/a.txt").ok).toBe(false);
  });

  it("never allows a read or a write through one", () => {
    const commands = [
      ...["cwd", "root", "thread", "pid", "procFd", "devFd", "stdin", "chain", "dangling"].map(
        (n) => `cat ${n}`,
      ),
      "cat cwdDir/a.txt",
      `cat devDir/fd/${fd}`,
      "head -n 3 root",
      "grep hello thread",
      "echo hi > dangling",
      "cp a.txt cwdDir/c.txt",
    ];
    for (const command of commands)
      for (const r of bash(command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
    for (const name of ["cwd", "root", "devFd", "chain"])
      for (const r of judge({ tool: "read", input: { file_path: join(ws, name) } }))
        expect(r.action, `read ${name}\n${r.why}`).not.toBe("allow");
  });

  it("never allows a walk that follows one", () => {
    // walk/x -> /proc/self/cwd/src: the judge's own link led to the workspace's src; `cd ~/notes && rg -L
    // PRIVATE ws/walk` follows it into ~/notes/src.
    mkdirSync(join(ws, "walk"));
    writeFileSync(join(ws, "walk", "c.txt"), "plain\n");
    symlinkSync("/proc/self/cwd/src", join(ws, "walk", "x"));
    mkdirSync(join(notes, "src"));
    writeFileSync(join(notes, "src", "more.txt"), "PRIVATE_MORE\n");
    const walk = join(ws, "walk");
    const out = execFileSync("bash", ["-c", `cd ${notes} && grep -R PRIVATE ${walk}`], { encoding: "utf8" });
    expect(out).toContain("PRIVATE_MORE");
    for (const command of [
      "rg -L PRIVATE walk",
      "grep -R PRIVATE walk",
      `cd ${notes} && grep -R PRIVATE ${walk}`,
    ])
      for (const r of bash(command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("never places a path named under /proc/self in the judge's working directory", () => {
    // Lexically this is the workspace's a.txt (enough `..` from /proc/self/cwd reach /), and so it is from
    // the judge's working directory; the kernel climbs from the command's instead.
    const named = `/proc/self/cwd${"/..".repeat(Math.max(3, ws.split("/").length - 1))}${ws}/a.txt`;
    for (const call of [
      { tool: "read", input: { file_path: named } },
      { tool: "read", input: { file_path: "/proc/self/cwd/a.txt" } },
      { tool: "bash", input: { command: `cat ${named}` } },
      { tool: "bash", input: { command: "cat /proc/self/cwd/a.txt" } },
      { tool: "bash", input: { command: `cat /proc/self/root${ws}/a.txt` } },
      { tool: "bash", input: { command: "cd /proc/self/cwd && cat a.txt" } },
      { tool: "bash", input: { command: "git -C /proc/self/cwd status" } },
    ])
      for (const r of judge(call))
        expect(r.action, `${JSON.stringify(call.input)}\n${r.why}`).not.toBe("allow");
  });

  it("still allows everyday reads: plain files, links inside, the kernel's summaries, the null device", () => {
    symlinkSync("src/b.txt", join(ws, "inside"));
    for (const command of [
      "cat a.txt",
      "cat inside",
      "cat src/b.txt",
      "cat /proc/cpuinfo",
      "ls 2>/dev/null",
      "cat a.txt > /dev/null",
      "echo hi >/dev/stderr",
    ])
      for (const r of bash(command)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
    for (const r of judge({ tool: "read", input: { file_path: join(ws, "inside") } }))
      expect(r.action, r.why).toBe("allow");
  });
});

/** One hop of a random chain: plain (a file or the next link in the workspace) or per-process. */
const HOPS = ["plain", "cwd", "root", "thread", "fd"] as const;
type Hop = (typeof HOPS)[number];

function hopTarget(hop: Hop, next: string): string {
  if (hop === "plain") return next;
  if (hop === "cwd") return `/proc/self/cwd/${next}`;
  if (hop === "root") return `/proc/self/root${ws}/${next}`;
  if (hop === "thread") return `/proc/thread-self/cwd/${next}`;
  return `/dev/fd/${fd}`;
}

describe("property: a link chain with a per-process hop", () => {
  let run = 0;
  it("never allows; a chain of plain hops inside is allowed", () => {
    let allowed = 0;
    const check = (hops: readonly Hop[]) => {
      const n = run++;
      const dir = join(ws, "chains", String(n));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "end.txt"), "plain\n");
      // Link i leads to link i+1 (named from the workspace, where the judge and a cwd hop start), the last to end.txt.
      const rel = (i: number) => `chains/${n}/${i === hops.length ? "end.txt" : `l${i}`}`;
      for (const [i, hop] of hops.entries())
        symlinkSync(hop === "plain" ? join(ws, rel(i + 1)) : hopTarget(hop, rel(i + 1)), join(dir, `l${i}`));
      const perProcess = hops.some((h) => h !== "plain");
      for (const r of bash(`cat ${rel(0)}`)) {
        if (perProcess) expect(r.action, `${hops.join(" → ")}\n${r.why}`).not.toBe("allow");
        else {
          expect(r.action, `${hops.join(" → ")}\n${r.why}`).toBe("allow");
          allowed++;
        }
      }
    };
    // Plain chains as examples, so the allowed side never rests on the random draw.
    for (const hops of [["plain"], ["plain", "plain", "plain"]] as Hop[][]) check(hops);
    fc.assert(fc.property(fc.array(fc.constantFrom(...HOPS), { minLength: 1, maxLength: 4 }), check), {
      numRuns: 60,
    });
    expect(allowed).toBeGreaterThan(0);
  });
});

describe("a .git file naming its repository through /proc/self", () => {
  // `gitdir: /proc/self/cwd/.g` is the .g of wherever git runs: the judge (in the workspace) found the
  // workspace's plain .g, while `cd sub && git status` used sub/.g, whose core.fsmonitor ran.
  const gws = join(base, "gws");
  const marker = join(base, "PWNED");
  mkdirSync(join(gws, "sub"), { recursive: true });
  for (const dir of [join(gws, ".g"), join(gws, "sub", ".g")]) {
    git(base, "init", "-q", "--bare", dir);
    git(base, "--git-dir", dir, "config", "core.bare", "false");
  }
  git(base, "--git-dir", join(gws, "sub", ".g"), "config", "core.fsmonitor", `touch ${marker}; false`);
  writeFileSync(join(gws, ".git"), "gitdir: /proc/self/cwd/.g\n");
  beforeAll(() => process.chdir(gws));
  afterAll(() => process.chdir(ws));

  it("real git takes the repository from its own working directory", () => {
    execFileSync("git", ["status"], { cwd: join(gws, "sub"), stdio: "ignore" });
    expect(existsSync(marker)).toBe(true);
  });

  it("never allows git there: the repository is not known", () => {
    for (const command of ["cd sub && git status", "git -C sub status", "git status"])
      for (const p of [CAUTIOUS, BALANCED]) {
        const r = judgeOnDisk(p, { tool: "bash", input: { command }, cwd: gws, home }, { disk });
        expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
      }
  });
});
