// Issue 20, over-asks round 9: everyday programs that asked under the starter policy (`balanced`) only
// because they had no grammar — nl, tac, hexdump/hd, paste, fold, lscpu, locale — judged as the companion
// judges them (the policy, then the disk) on the sample repository. Attacks first: every form of the same
// programs that reads a secret (as an operand, an option's file, standard input, a link in the workspace),
// writes outside, changes what libc loads, or hides a word until run time is never allowed.
import { linkSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { judgeEveryday, profilePolicy } from "../../../../src/companion/profiles/preview.ts";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";

let ws: string;
const disk = diskCheck({ env: {} });
const balanced = profilePolicy("balanced", "/home/dev");

beforeAll(() => {
  // The sample workspace has a `.env`; a symlink and a hard link to it carry ordinary names.
  ws = sampleWorkspace();
  symlinkSync(join(ws, ".env"), join(ws, "notes.txt"));
  linkSync(join(ws, ".env"), join(ws, "copy.txt"));
  // hexdump opens `-` as a file of that name (a repository may ship a link so named), not standard input.
  symlinkSync(join(ws, ".env"), join(ws, "-"));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

function judged(command: string): { action: string; reason: string } {
  const [j] = judgeEveryday(balanced, ws, "/home/dev", disk, [
    { kind: "read", tool: "Bash", input: { command } },
  ]);
  return { action: j?.record.action ?? "none", reason: j?.reason ?? "" };
}

describe("attacks: the same programs reading a secret, writing outside, or hiding a word", () => {
  it.each([
    // A secret as an operand, by every program.
    "hexdump -C ~/.ssh/id_ed25519",
    "hexdump -C .env",
    "hd ~/.ssh/id_rsa",
    "hexdump -n 64 -s 0 ~/.aws/credentials",
    "nl .env",
    "nl -ba ~/.aws/credentials",
    "nl -b pKEY .env",
    "tac .env",
    "tac -s x ~/.ssh/id_rsa",
    "paste README.md .env",
    "paste -s ~/.netrc",
    "paste -d, -- .env",
    "fold .env",
    "fold -w 80 ~/.aws/credentials",
    "fold -80 .env",
    // A secret on standard input.
    "paste - - < .env",
    "nl < .env",
    "tac < ~/.ssh/id_rsa",
    "hexdump -C < .env",
    "cat .env | fold",
    // hexdump's format file is a file it reads (and prints in its error message).
    "hexdump -f .env README.md",
    "hexdump -Cf.env README.md",
    "hexdump --format-file=.env README.md",
    "hexdump --format-f .env README.md",
    "hexdump -f ~/.ssh/id_rsa README.md",
    // A link in the workspace to the secret: the disk has it.
    "nl notes.txt",
    "hexdump -C notes.txt",
    "tac copy.txt",
    "paste copy.txt",
    "fold notes.txt",
    "hexdump -C -",
    "hd -",
    "hexdump -f - README.md",
    "hexdump -C -- -",
    // lscpu's system root: it reads the files below a directory the command names.
    "lscpu -s /home/dev/.ssh",
    "lscpu --sysroot=.",
    "lscpu --sys .",
    "lscpu -s.",
    // locale -m runs gzip or bzip2, found on PATH, to read compressed charmaps (the effects oracle saw it).
    "locale -m",
    "locale --charm",
    "locale -km LC_NUMERIC",
    // Words the grammars cannot place: options they do not have, run-time words, globs that may be options.
    "nl --zz README.md",
    "tac --zz README.md",
    "hexdump --zz README.md",
    "paste --zz README.md",
    "fold --zz README.md",
    "lscpu --zz",
    "lscpu extra",
    "locale --zz",
    'nl "$F"',
    "tac $(cat list)",
    "hexdump -C *",
    "fold *",
    "paste *",
    // Output to a file outside the workspace, and libc told where to load locale data from.
    "locale -a > ~/.bashrc",
    "lscpu > ~/.profile",
    "LOCPATH=. locale",
  ])("%s is never allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).not.toBe("allow");
  });
});

describe("everyday forms are reads of the project or the system's own summary", () => {
  it.each([
    "nl src/index.ts",
    "nl -ba README.md",
    "nl -b pTODO -w 3 -s ': ' src/index.ts",
    "nl -d '' README.md",
    "tac README.md",
    "tac -s , -b README.md",
    "hexdump -C README.md",
    "hexdump -C src/index.ts",
    "hd README.md",
    "hexdump -n 64 -s 16 -C README.md",
    'hexdump -e \'16/1 "%02x " "\\n"\' README.md',
    "paste README.md src/index.ts",
    "paste -sd, README.md",
    "paste - - < README.md",
    "fold README.md",
    "fold -w 40 -s README.md",
    "fold -80 README.md",
    "lscpu",
    "lscpu -J",
    "lscpu -e",
    "lscpu --extended=CPU,CORE",
    "locale",
    "locale -a",
    "locale -k LC_NUMERIC",
    "cat README.md | nl",
    "git log --oneline | tac",
  ])("%s is allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).toBe("allow");
  });
});
