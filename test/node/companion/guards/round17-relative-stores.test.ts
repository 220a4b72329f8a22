// Red team rounds 16/17 (fix17b): a variable that moves a credential store to a RELATIVE path
// (AWS_SHARED_CREDENTIALS_FILE=creds.ini, GOOGLE_APPLICATION_CREDENTIALS=keys/sa.json, KUBECONFIG=a:kube.yaml)
// names a file wherever the program runs, so `cat creds.ini` and `cd sub && cat creds.ini` printed what the
// AWS CLI reads as its credentials while the same value written absolute asked. A relative store is now any
// path ending in the value (below any directory), for reads, the Read tool and recursive reads alike.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk } from "./disk-fixture.ts";

const { base, ws, home } = gitWorkspace("airlock-r17rel-", {
  "README.md": "# demo\n",
  "notes/todo.txt": "ship it\n",
});
const PLAIN = "[default]\nregion = eu-west-1\nmarker = ordinary-looking-value\n";
for (const rel of ["creds.ini", "sub/creds.ini", "keys/sa.json", "kube.yaml", "auth/netrc"]) {
  mkdirSync(join(ws, rel, ".."), { recursive: true });
  writeFileSync(join(ws, rel), PLAIN);
}
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judged(env: NodeJS.ProcessEnv, tool: "bash" | "read", arg: string) {
  const input = tool === "bash" ? { command: arg } : { file_path: join(ws, arg) };
  const c = { tool, input, cwd: ws, workspace: ws, home } as ToolCall;
  return judgeOnDisk(BALANCED, c, { disk: diskCheck({ env: { HOME: home, ...env } }) });
}

describe("a credential store moved to a relative path", () => {
  it.each([
    ["AWS_SHARED_CREDENTIALS_FILE", "creds.ini", "bash", "cat creds.ini"],
    ["AWS_SHARED_CREDENTIALS_FILE", "creds.ini", "bash", "cd sub && cat creds.ini"],
    ["AWS_SHARED_CREDENTIALS_FILE", "./creds.ini", "bash", "head -5 sub/creds.ini"],
    ["AWS_SHARED_CREDENTIALS_FILE", "../creds.ini", "bash", "cat creds.ini"],
    ["AWS_SHARED_CREDENTIALS_FILE", "creds.ini", "read", "creds.ini"],
    ["AWS_SHARED_CREDENTIALS_FILE", "creds.ini", "bash", "grep -r marker sub"],
    ["GOOGLE_APPLICATION_CREDENTIALS", "keys/sa.json", "bash", "cat keys/sa.json"],
    ["KUBECONFIG", "/etc/kube:kube.yaml", "bash", "cat kube.yaml"],
    ["NETRC", "auth/netrc", "bash", "cat auth/netrc"],
  ])("%s=%s: %s `%s` asks", (name, value, tool, arg) => {
    const clean = judged({}, tool as "bash" | "read", arg);
    expect(clean.action, clean.why).toBe("allow");
    const j = judged({ [name]: value }, tool as "bash" | "read", arg);
    expect(j.action, j.why).toBe("ask");
    expect(j.why).toContain(name);
  });

  it.each([
    ["AWS_SHARED_CREDENTIALS_FILE", "creds.ini", "cat README.md notes/todo.txt"],
    ["GOOGLE_APPLICATION_CREDENTIALS", "keys/sa.json", "cat sa.json.bak README.md"],
    ["KUBECONFIG", "kube.yaml", "grep -r ship notes"],
  ])("%s=%s: `%s` names no such file, and is allowed", (name, value, command) => {
    const j = judged({ [name]: value }, "bash", command);
    expect(j.action, j.why).toBe("allow");
  });
});
