// Red team round 9, class D: bash builtins on the starter allowlist with a form that runs a command
// or weakens later commands. `jobs -x CMD` runs CMD (corpus rt9-004*); `umask` with a mask that lets
// the group or others write makes every later file writable by other accounts. The rest was checked
// and needs nothing new: `command`, `builtin`, `exec`, `eval` and `trap` are judged through the command
// they run; `complete -C`, `compgen -C/-W`, `bind -x`, `fc`, `enable -f`, `hash -p` and `mapfile -C`
// already ask; `caller`, `ulimit`, `times`, `help` and `read -e` (readline only on a terminal, and its
// inputrc binds keys, it runs nothing) run no command.
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

afterAll(cleanBashRuns);

describe("builtins that run a command or weaken later ones", () => {
  it("jobs -x runs its command (bash), and is never allowed; plain jobs stays allowed", () => {
    expect(runInBash("jobs -x touch PWNED").exists("PWNED")).toBe(true);
    for (const c of ["jobs -x touch PWNED", "jobs -x cat ~/.netrc", "jobs -x -- ls", "jobs $opt ls"])
      expect(judge(BALANCED, c).action, c).not.toBe("allow");
    expect(judge(BALANCED, "jobs -l").action).toBe("allow");
  });
  it("umask 000 makes the next file world-writable (bash)", () => {
    expect(runInBash("umask 000; : > f; stat -c %a f").stdout.trim()).toBe("666");
    expect(runInBash("umask 022; : > f; stat -c %a f").stdout.trim()).toBe("644");
  });
  it("a mask that leaves group or other write on asks; printing or a mask keeping them off is fine", () => {
    for (const c of [
      "umask 000",
      "umask 0",
      "umask 002",
      "umask 0020",
      "umask u=rwx,g=rwx,o=rwx",
      "umask $m",
    ])
      expect(judge(BALANCED, c).action, c).not.toBe("allow");
    for (const c of ["umask", "umask -S", "umask -p", "umask 022", "umask 077", "umask 0027"])
      expect(judge(BALANCED, c).action, c).toBe("allow");
  });
  it("the run-a-command forms of other builtins already ask", () => {
    for (const c of [
      "complete -C 'touch PWNED' x",
      "compgen -C 'touch PWNED' x",
      "bind -x '\"a\": touch PWNED'",
      "fc -s ls",
      "enable -f ./x.so x",
      "hash -p ./evil ls",
      "mapfile -C 'touch PWNED #' -c 1 a < README.md",
      "trap 'touch PWNED' EXIT",
      "eval 'touch PWNED'",
      "builtin eval 'touch PWNED'",
    ])
      expect(judge(READ_ONLY, c).action, c).not.toBe("allow");
  });
});
