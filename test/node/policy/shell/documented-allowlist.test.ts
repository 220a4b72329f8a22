// The read-only allowlist docs/policy.md recommends, taken from the document itself, does what the
// document says it does.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile, user } from "../helpers.ts";
import { judge } from "./policies.ts";

const doc = readFileSync(new URL("../../../../docs/policy.md", import.meta.url), "utf8");
const section = doc.slice(doc.indexOf("### How to write a safe read-only allowlist"));
const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
const policy = compile(user(yaml));

describe("the documented read-only allowlist", () => {
  it.each([
    "ls",
    "ls -la src",
    "cat src/a.ts README.md",
    "git status",
    "git log --oneline -5",
    "grep -n TODO src/a.ts",
    "[ -d src ] && ls src",
    "[[ -f README.md ]] && head -n 5 README.md",
    "find src -name '*.ts' | head",
    "wc -l src/*.ts",
    "cat .env.example",
    'echo "$(cat README.md)"',
  ])("allows %s", (command) => {
    const r = judge(policy, command);
    expect(r.action, r.reasons.join("\n")).toBe("allow");
  });

  it.each([
    "cat .env",
    "cat /etc/passwd",
    "cat ~/.ssh/id_rsa",
    "cat .e*",
    "grep -r x .",
    "sort -o out.txt README.md",
    "echo x > out.txt",
    "git push",
    "git log --output=x",
    "sudo ls",
    "python3",
    "LD_PRELOAD=./x.so ls",
    "rm -rf build",
    "git status # \\\nrm -rf ~",
  ])("asks for %s", (command) => {
    expect(judge(policy, command).action).toBe("ask");
  });

  it("is low risk for read-only commands, so no second tap", () => {
    expect(judge(policy, "ls").risk).toBe("low");
    expect(judge(policy, "git status").risk).toBe("low");
  });
});
