// Red team round 16 (r16a-02): an iconv encoding name with a slash is a charmap FILE that glibc's iconv
// opens as written and parses, quoting the lines it cannot (strace: `-f ~/.netrc` opened the secret). So
// such a name is a read of that file, judged as `cat` of it is; a plain name (`ascii//TRANSLIT` is one
// too, opened as a relative path that is not there) is judged as before.
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { AUTONOMOUS, BALANCED, type Judged, judgeCommand } from "./judge-command.ts";

let ws: string;

beforeAll(() => {
  ws = sampleWorkspace();
  symlinkSync(join(ws, ".env"), join(ws, "notes.txt"));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const judged = (command: string, profile: "balanced" | "autonomous"): Judged =>
  judgeCommand(ws, command, { policy: profile === "balanced" ? BALANCED : AUTONOMOUS });

describe.each(["balanced", "autonomous"] as const)("iconv charmap files (%s)", (profile) => {
  it.each([
    "iconv -f ~/.netrc -t UTF-8 README.md",
    "iconv -f UTF-8 -t ~/.aws/credentials README.md",
    "iconv --from-code=/home/dev/.netrc -t UTF-8 README.md",
    "iconv --to=/home/dev/.ssh/id_rsa -f UTF-8 README.md",
    "iconv -f UTF-8 -t/home/dev/.netrc README.md",
    "iconv -f ./.env -t UTF-8 README.md",
    "iconv -f ./notes.txt -t UTF-8 README.md",
    "iconv -f ../../etc/shadow -t UTF-8 README.md",
    'iconv -f "$ENC" -t UTF-8 README.md',
  ])("%s is never allowed", (command) => {
    const { action, reason } = judged(command, profile);
    expect(action, reason).not.toBe("allow");
  });

  it.each([
    "iconv -f latin1 -t utf-8 README.md",
    "iconv -f UTF-8 -t ISO-8859-1//TRANSLIT README.md",
    "iconv -f utf-8 -t ascii//TRANSLIT//IGNORE src/index.ts",
    "iconv -f UTF-16LE -t UTF-8 README.md",
  ])("%s is allowed", (command) => {
    const { action, reason } = judged(command, profile);
    expect(action, reason).toBe("allow");
  });
});
