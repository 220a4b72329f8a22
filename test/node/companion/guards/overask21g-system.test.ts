// Over-asks, round 21 (fix21g): the system facts agents read — `mount` (the mount table), `cat /proc/mounts`,
// `cat /proc/self/cgroup` (am I in a container?). `mount` with no operand and only -l lists, proven by
// strace (it opens /proc/self/mountinfo); every other form mounts or may. /proc/self/cgroup, mounts,
// mountinfo and status are plain files the kernel fills with the opening process's own description (never
// links): guards/real-path.ts names them /proc/self/NAME. Attacks first: the rest of /proc/self still asks.
import { rmSync } from "node:fs";
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
