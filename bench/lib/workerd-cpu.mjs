// The CPU time the local edge's workerd processes used (user + system, from /proc), so a bench can state the CPU
// milliseconds a unit of work costs: on a shared, loaded machine that figure holds where wall-clock throughput does not.
import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const CLOCK_TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return {
      comm: text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")),
      ppid: Number(rest[1]),
      ticks: Number(rest[11]) + Number(rest[12]),
    };
  } catch {
    return undefined;
  }
}

/** The pids of this process's descendants named `workerd` (or `name`). */
export function workerdPids(root = process.pid, name = "workerd") {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push({ pid: Number(name), comm: s.comm });
    children.set(s.ppid, list);
  }
  const found = [];
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      if (c.comm === name) found.push(c.pid);
      walk(c.pid);
    }
  };
  walk(root);
  return found;
}

/** CPU milliseconds used so far by the given pids. */
export function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) ticks += stat(pid)?.ticks ?? 0;
  return (ticks * 1000) / CLOCK_TICKS;
}

/**
 * Nanoseconds each pid's main thread spent running and waiting for a core (runnable, not running), from
 * /proc's schedstat: a thread that waits long for a core is starved by the machine's load, not idle.
 */
export function mainThreadSched(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return { runNs: run, waitNs: wait };
  } catch {
    return { runNs: 0, waitNs: 0 };
  }
}
