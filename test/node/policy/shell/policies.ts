// The policies the shell tests judge with: a strict read-only allowlist of the kind the issue's
// attacks were tried against (it names the programs an attacker would hide behind), and a
// denylist that allows everything but a few programs.

import { expect } from "vitest";
import { starterPolicy } from "../../../../src/companion/local-policy/starter.ts";
import type { CompiledPolicy, DecisionRecord } from "../../../../src/policy/index.ts";
import { decide } from "../../../../src/policy/index.ts";
import { CWD, compile, user } from "../helpers.ts";

export const HOME = "/home/dev";

/**
 * Read-only programs by name (and the wrappers and builtins an attacker would hide behind), plus
 * reads inside the project; everything else asks. (Checked against the round-1 engine with the
 * same list as one `command.matches("^(ls|cat|…)( |$)")`; round 9 added nl … locale, whose grammars came then.)
 */
export const READ_ONLY = compile(
  user(`
default_action: ask
rules:
  - name: read-only commands
    condition: >-
      tool == "bash" && program in [
      "ls", "cat", "head", "tail", "wc", "grep", "rg", "echo", "printf", "pwd", "true", "false",
      "test", "[", "[[", "((", "let", "sort", "uniq", "cut", "tr", "diff", "find", "tree", "stat",
      "file", "which", "date", "base64", "xxd", "od", "strings", "sed", "awk", "jq", "less", "more",
      "cd", "pushd", "popd", "declare", "export", "local", "read", "unset", "mapfile", "readarray",
      "hash", "fc", "trap", "flock", "chroot", "script", "sg", "unbuffer", "python3", "node", "psql",
      "sqlite3", "ssh", "bash", "sh", "env", "timeout", "nice", "time", "command", "xargs", "basename",
      "dirname", "realpath", "du", "tar", "cp", "shopt", "set", "alias", "enable", "getopts", "wait",
      "nl", "tac", "hexdump", "hd", "paste", "fold", "lscpu", "locale"]
    action: allow
  - name: read-only git
    condition: 'tool == "bash" && command.matches("^git (status|log|diff|show|blame|branch|grep)( |$)")'
    action: allow
  - name: reads in the project
    condition: 'tool == "read" && path.startsWith(cwd + "/")'
    action: allow
`),
);

/** Everything is allowed except deleting, fetching and touching a marker. */
export const DENYLIST = compile(
  user(`
default_action: allow
rules:
  - name: no rm
    condition: 'command.matches("^(rm|shred|curl|wget|touch)( |$)")'
    action: deny
`),
);

export function judge(policy: CompiledPolicy, command: string, hasUI = true): DecisionRecord {
  return decide(policy, { tool: "bash", input: { command }, cwd: CWD, home: HOME }, { hasUI });
}

/** The starter profiles `airlock init` writes that must never allow what the read-only allowlist refuses. */
export const CAUTIOUS = compile(user(starterPolicy("cautious")));
export const BALANCED = compile(user(starterPolicy("balanced")));
/** The starter that allows every understood write and command inside the workspace. */
export const AUTONOMOUS = compile(user(starterPolicy("autonomous")));
export const STRICT_PROFILES = [
  ["cautious", CAUTIOUS],
  ["balanced", BALANCED],
] as const;

/**
 * The attacks' payload `touch PWNED` is a write in the workspace, which `balanced` allows (touch is judged by the
 * file it writes, fix21d). Judged under a starter profile, an attack carries `mkfifo PWNED` instead, which no
 * profile allows (mkfifo has no grammar), so the profile still shows whether the judge sees the payload at all.
 * Likewise `chmod +x x` (judged by the file whose mode it sets, fix23a) carries `chmod u+s x`, a setuid bit.
 */
export function profilePayload(command: string): string {
  return command
    .replace(/\btouch((?:\s|\\\n)+)PWNED/g, "mkfifo$1PWNED")
    .replace(/\bchmod((?:\s|\\\n)+)\+x\b/g, "chmod$1u+s");
}

/** Every starter profile `airlock init` offers. */
export const EVERY_STARTER = [...STRICT_PROFILES, ["autonomous", AUTONOMOUS]] as const;

/** The read-only allowlist and the strict starter profiles: what an attack must get past. */
export const EVERY_STRICT = [["read-only", READ_ONLY], ...STRICT_PROFILES] as const;

/** The command is never allowed under any of them, and denied headless (no one can answer). */
export function neverAllowed(command: string): void {
  for (const [name, policy] of EVERY_STRICT) {
    const r = judge(policy, command);
    expect(r.action, `${name}: ${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
    expect(judge(policy, command, false).action, `${name} headless: ${command}`).toBe("deny");
  }
}
