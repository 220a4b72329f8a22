// Over-asks, round 21 (fix21g): the system facts agents read — `mount` (the mount table), `cat /proc/mounts`,
// `cat /proc/self/cgroup` (am I in a container?). `mount` with no operand and only -l lists, proven by
// strace (it opens /proc/self/mountinfo); every other form mounts or may. /proc/self/cgroup, mounts,
// mountinfo and status are plain files the kernel fills with the opening process's own description (never
// links): guards/real-path.ts names them /proc/self/NAME. Attacks first: the rest of /proc/self still asks.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

let ws: string;
beforeAll(() => {
  ws = sampleWorkspace();
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe("mount and the process's own /proc descriptions: the attacks (written first)", () => {
  it.each([
    "mount /dev/sda1 /mnt",
    "mount -a",
    "mount -la",
    "mount -t proc",
    "mount -t tmpfs none /tmp/x",
    "mount --bind . /mnt",
    "mount -o remount,rw /",
    "mount $X",
    "mount -l /mnt",
    "mount --show",
    "umount /mnt",
    "cat /proc/self/environ",
    "cat /proc/self/cwd/.env",
    "cat /proc/self/root/etc/shadow",
    "cat /proc/self/fd/0",
    "cat /proc/1/cgroup",
    "cat /proc/1/environ",
    "cat /proc/self/cgroup/../environ",
    "cat /proc/self/mem",
    // libmount reads the table file these name and prints its fields (proven: a secret's words came out).
    "LIBMOUNT_FSTAB=/home/dev/.ssh/id_rsa findmnt -s",
    "LIBMOUNT_MTAB=/home/dev/.ssh/id_rsa mount",
  ])("%s is not allowed", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action, command).not.toBe("allow");
  });
});

describe("mount's listing and the process's own descriptions are allowed", () => {
  it.each([
    "mount",
    "mount -l",
    "mount | grep overlay",
    "cat /proc/mounts",
    "cat /proc/self/cgroup",
    "cat /proc/self/mountinfo",
    "cat /proc/self/status",
    "grep -i memory /proc/self/status",
    "head /proc/self/./cgroup",
    "findmnt -s",
  ])("%s is allowed", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action, command).toBe("allow");
  });
});

// dpkg and apt's queries (grammar/programs/dpkg.ts): proven by strace to read the package database and
// apt's lists and print; dpkg execs dpkg-query, apt-cache execs /usr/bin/dpkg --print-foreign-architectures.
describe("the package database's queries: the attacks (written first)", () => {
  it.each([
    "dpkg -i x.deb",
    "dpkg --install x.deb",
    "dpkg -r git",
    "dpkg --configure -a",
    "dpkg --admindir=/home/dev/.ssh -l",
    "dpkg --root=/tmp/x -L git",
    "dpkg-query --admindir /home/dev -l",
    "dpkg -l $X",
    // DPKG_ADMINDIR led dpkg-query to parse another file, whose first line it printed in its error.
    "DPKG_ADMINDIR=/home/dev/.ssh dpkg -l",
    "DPKG_PAGER='sh -c id' dpkg -l",
    "apt install git",
    "apt update",
    "apt-get install git",
    "apt-cache -o Dir::Bin::dpkg=./x policy git",
    "apt-cache policy git -o Dir::Bin::dpkg=./x",
    "apt list -c ./apt.conf",
    "apt list ./x.deb",
    "apt-cache gencaches",
    "APT_CONFIG=./apt.conf apt list --installed",
    "apt list $X",
  ])("%s is not allowed", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action, command).not.toBe("allow");
  });

  // dpkg-query pages its listing on a terminal (an agent's pty): a pager in the workspace would run.
  it("a pager the agent's environment leads into the workspace keeps dpkg's listing asking", () => {
    expect(judgeCommand(ws, "dpkg -l", { env: { DPKG_PAGER: "./pager.sh" } }).action).not.toBe("allow");
    expect(judgeCommand(ws, "dpkg-query -l", { env: { LESSOPEN: "|./x %s" } }).action).not.toBe("allow");
    expect(judgeCommand(ws, "dpkg -l", { env: { PAGER: "./pager.sh" } }).action).not.toBe("allow");
  });
});

describe("the package database's queries are allowed", () => {
  it.each([
    "dpkg -l",
    "dpkg -l | grep python",
    "dpkg -l 'python3*'",
    "dpkg -L git",
    "dpkg -s git",
    "dpkg -S /usr/bin/git",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format of fields, not a template
    "dpkg-query -W -f '${Version}' git",
    "dpkg-query --list git",
    "apt list --installed",
    "apt list --installed 2>/dev/null | grep -i ssl",
    "apt list --upgradable",
    "apt-cache policy git",
    "apt-cache show git",
    "apt-cache madison git",
    "apt show -a 'libssl*'",
  ])("%s is allowed", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action, command).toBe("allow");
  });
});

// `node -p 1+1` (interpreters.ts): arithmetic on number literals names nothing, so nothing is called;
// node's start-up is judged as for `node -p process.version` (NODE_OPTIONS, node-runners.ts).
describe("node -p of arithmetic", () => {
  it.each([
    "node -p 'process.exit(1)'",
    "node -p '1+x'",
    `node -p '1;require("child_process").execSync("id")'`,
    "node -p '`1`'",
    "node -p 1+1 x.js",
    "node -e 'while(1);'",
    "node -p '1' -r ./x.js",
    "NODE_OPTIONS='-r ./x.js' node -p 1+1",
  ])("%s is not allowed", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action, command).not.toBe("allow");
  });

  it.each(["node -p '1+1'", "node -p '2**10'", 'node --print "(3 * 4) / 5"', "node -p 7%3"])(
    "%s is allowed",
    (command) => {
      for (const policy of [BALANCED, AUTONOMOUS])
        expect(judgeCommand(ws, command, { policy }).action, command).toBe("allow");
    },
  );

  it("an agent's NODE_OPTIONS leading to a workspace file keeps it asking", () => {
    const env = { NODE_OPTIONS: "--require ./x.js" };
    expect(judgeCommand(ws, "node -p 1+1", { env }).action).not.toBe("allow");
  });
});

// `python3 -m tokenize|ast|base64|venv --help` (grammar/programs/python-modules.ts): judged as
// `python -m NAME`, never as a program called `tokenize`; python's start (a same-named file in the
// directory it runs in) is python-path.ts's, as for json.tool.
describe("python -m of the standard library's printers", () => {
  it.each([
    "python3 -m venv .venv",
    "python3 -m venv --help .venv",
    "python3 -m venv -h --clear x",
    "python3 -m tokenize a.py b.py",
    "python3 -m ast .env",
    "python3 -m base64 -e /home/dev/.ssh/id_rsa",
    "python3 -m ast -m nonsense main.go",
    "python3 -m tokenize $F",
    "python3 -i -m ast main.go",
    "tokenize src/index.js",
    "ast main.go",
  ])("%s is not allowed", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action, command).not.toBe("allow");
  });

  it.each(["tokenize.py", "ast.py", "base64.py", "venv.py", "argparse.py"])(
    "a %s in the working directory (imported first) keeps them asking",
    (name) => {
      const dir = mkdtempSync(join(ws, "shadow-"));
      writeFileSync(join(dir, name), "import os; os.system('id')\n");
      writeFileSync(join(dir, "a.py"), "x = 1\n");
      for (const command of ["python3 -m tokenize a.py", "python3 -m ast a.py", "python3 -m base64 -e a.py"])
        expect(judgeCommand(dir, command).action, `${name}: ${command}`).not.toBe("allow");
    },
  );

  it.each([
    "python3 -m tokenize src/index.js",
    "python3 -m tokenize -e src/index.js",
    "python3 -m ast src/index.js",
    "python3 -m ast -m eval --indent 2 src/index.js",
    "python3 -m base64 -e README.md",
    "python3 -m base64 -d README.md",
    "python3 -m venv --help",
    "python3 -m venv -h",
  ])("%s is allowed", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action, command).toBe("allow");
  });
});
