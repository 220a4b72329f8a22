// Over-ask, round 17: an agent's scratch output in /tmp (`echo hello > /tmp/out.txt`) asked under balanced
// and autonomous. A file directly in /tmp that is the user's own regular file may be written; what else lives
// there is not: a link planted to lead to a private file, another user's file, a FIFO or socket, a Kerberos
// ticket cache, a file holding a key, a hard link, a subdirectory's files, a glob or a recursive read of /tmp.
// A new file is scratch only where the kernel refuses to follow another user's link in a sticky directory
// (fs.protected_symlinks). Round 19 (r19-11): READING the user's own files there was allowed too, and those
// include credentials other programs keep in /tmp (the X server's cookie /tmp/serverauth.*, curl cookie jars,
// PHP sessions, HAR captures): reads there ask again.
import { execFileSync } from "node:child_process";
import { chownSync, linkSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { judgeEveryday, profilePolicy } from "../../../../src/companion/profiles/preview.ts";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { KEY } from "./disk-fixture.ts";

const disk = diskCheck({ env: {} });
const PROFILES = [profilePolicy("balanced", "/home/dev"), profilePolicy("autonomous", "/home/dev")];
const tag = `airlock-r17-${process.pid}`;
const tmp = (name: string) => `/tmp/${tag}-${name}`;
const made: string[] = [];
const KRB5CC = `/tmp/krb5cc_${process.pid}_r17`;
let ws: string;

function place(name: string, text = "build ok\n"): string {
  const path = tmp(name);
  writeFileSync(path, text);
  made.push(path);
  return path;
}

beforeAll(() => {
  ws = sampleWorkspace();
  place("out.txt");
  place("build.log");
  place("key.txt", KEY);
  writeFileSync(KRB5CC, "ticket\n");
  made.push(KRB5CC);
  symlinkSync(join(ws, "README.md"), tmp("planted.txt"));
  made.push(tmp("planted.txt"));
  linkSync(place("linked.txt"), tmp("hard.txt"));
  made.push(tmp("hard.txt"));
  execFileSync("mkfifo", [tmp("fifo")]);
  made.push(tmp("fifo"));
  if (process.getuid?.() === 0) chownSync(place("theirs.txt"), 65534, 65534);
});
afterAll(() => {
  for (const p of made) rmSync(p, { force: true });
  rmSync(ws, { recursive: true, force: true });
});

type Call = { tool: string; input: Record<string, unknown> };
const bash = (command: string): Call => ({ tool: "Bash", input: { command } });

function actions(call: Call): string[] {
  return PROFILES.map((policy) => {
    const [j] = judgeEveryday(policy, ws, "/home/dev", disk, [{ kind: "read", ...call }]);
    return `${j?.record.action}: ${j?.reason}`;
  });
}

describe("the user's own scratch file directly in /tmp", () => {
  it.each([
    () => bash(`echo hello > ${tmp("out.txt")}`),
    () => ({ tool: "Write", input: { file_path: tmp("out.txt"), content: "x" } }),
  ])("is written under balanced and autonomous (%#)", (call) => {
    for (const a of actions(call())) expect(a).toMatch(/^allow/);
  });

  // r19-11: the X server's cookie, a curl cookie jar, a PHP session and a HAR capture are the user's own
  // regular files directly in /tmp, as a build log is.
  it.each([
    () => bash(`cat ${tmp("out.txt")}`),
    () => bash(`tail -n 50 ${tmp("build.log")}`),
    () => bash(`wc -l ${tmp("build.log")}`),
    () => ({ tool: "Read", input: { file_path: tmp("build.log") } }),
    () => bash(`cat ${place("serverauth.Xq3", "MIT-MAGIC-COOKIE-1 0123456789abcdef\n")}`),
    () =>
      bash(
        `cat ${place("cookies.txt", "# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t0\tsid\tabc\n")}`,
      ),
    () => ({ tool: "Read", input: { file_path: place("sess_4f2a", 'user|s:5:"admin";') } }),
    () => bash(`grep -o 'Bearer [^"]*' ${place("session.har", '{"log":{"entries":[]}}')}`),
  ])("is not read unasked under balanced and autonomous (%#)", (call) => {
    for (const a of actions(call())) expect(a).toMatch(/^ask/);
  });

  it("a new file there is created only where another user's link would not be followed", () => {
    const on = readFileSync("/proc/sys/fs/protected_symlinks", "utf8").trim() !== "0";
    for (const a of actions(bash(`echo hello > ${tmp("new.txt")}`)))
      expect(a).toMatch(on ? /^allow/ : /^ask: .*protected_symlinks/);
  });
});

describe("what else lives in /tmp still asks", () => {
  it.each([
    ["a planted link, read", () => bash(`cat ${tmp("planted.txt")}`), "link"],
    ["a planted link, written", () => bash(`echo x > ${tmp("planted.txt")}`), "link"],
    ["a hard link", () => bash(`cat ${tmp("hard.txt")}`), "hard link"],
    ["a FIFO", () => bash(`cat ${tmp("fifo")}`), "regular"],
    ["a file holding a key", () => bash(`cat ${tmp("key.txt")}`), "private key"],
    ["a Kerberos ticket cache", () => bash(`cat ${KRB5CC}`), ""],
    ["a glob", () => bash(`cat /tmp/${tag}-*.txt`), ""],
    ["a recursive read", () => bash(`grep -r ok /tmp/${tag}-build.log /tmp`), ""],
    ["a subdirectory's file", () => bash("cat /tmp/ssh-XXXX/agent.1"), ""],
    ["another directory", () => bash("cat /var/lib/x.txt"), ""],
  ])("%s", (_name, call, why) => {
    for (const a of actions(call())) {
      expect(a).not.toMatch(/^allow/);
      expect(a).toContain(why);
    }
  });

  it.skipIf(process.getuid?.() !== 0)("another user's file", () => {
    for (const a of [
      ...actions(bash(`cat ${tmp("theirs.txt")}`)),
      ...actions(bash(`echo x >> ${tmp("theirs.txt")}`)),
    ])
      expect(a).toMatch(/^ask: .*another user/);
  });
});
