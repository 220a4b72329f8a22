// Issue 20, over-asks round 15: everyday programs that asked under the starter policy (`balanced`) only
// because they had no grammar — uptime, top, lsb_release, lsof, ss, netstat, comm, join, rev, cksum,
// expand/unexpand, iconv — judged as the companion judges them (the policy, then the disk) on the sample
// repository. Attacks first: the same programs reading a secret (an operand, an option's file, standard
// input, a link in the workspace), writing a protected file, changing what they source or load, running
// interactively, closing sockets, or hiding a word until run time are never allowed.
import { linkSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import {
  AUTONOMOUS as autonomous,
  BALANCED as balanced,
  type Judged,
  judgeCommand,
} from "./judge-command.ts";

let ws: string;

beforeAll(() => {
  // The sample workspace has a `.env`; a symlink and a hard link to it carry ordinary names.
  ws = sampleWorkspace();
  symlinkSync(join(ws, ".env"), join(ws, "notes.txt"));
  linkSync(join(ws, ".env"), join(ws, "copy.txt"));
  // rev opens `-` as a file of that name (a repository may ship a link so named), not standard input.
  symlinkSync(join(ws, ".env"), join(ws, "-"));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const judged = (command: string, policy = balanced): Judged => judgeCommand(ws, command, { policy });

describe("attacks: the same programs reading a secret, writing, sourcing or hiding a word", () => {
  it.each([
    // A secret as an operand, as cat of it asks.
    "comm -12 README.md .env",
    "comm ~/.ssh/id_rsa README.md",
    "join .env README.md",
    "join -t = -o 1.2 ~/.aws/credentials README.md",
    "rev .env",
    "rev ~/.ssh/id_ed25519",
    "cksum .env",
    "cksum -a md5 ~/.ssh/id_rsa",
    "expand .env",
    "expand -t 4 ~/.netrc",
    "unexpand -a .env",
    "iconv -f utf-8 -t ascii .env",
    "iconv -f latin1 -t utf-8 ~/.aws/credentials",
    "ss -F .env",
    "ss --filter=~/.ssh/id_rsa",
    // A secret on standard input.
    "rev < .env",
    "comm - README.md < .env",
    "cat .env | expand",
    "iconv -f utf-8 -t ascii < ~/.netrc",
    // A link in the workspace to the secret: the disk has it.
    "rev notes.txt",
    "cksum copy.txt",
    "join notes.txt README.md",
    "rev -",
    "rev -- -",
    // Writes: iconv -o and ss -D onto protected or outside files.
    "iconv -f latin1 -t utf-8 -o ~/.bashrc README.md",
    "iconv -f latin1 -t utf-8 --output=.git/hooks/pre-commit README.md",
    "iconv -f latin1 -t utf-8 -o .git/config README.md",
    "iconv -f latin1 -t utf-8 --out /etc/passwd README.md",
    "ss -D ~/.profile",
    "ss --diag=.git/hooks/post-checkout",
    // What the grammars leave not understood: checksum lists, sockets closed, interactive top, lsof's files.
    "cksum -c sums.txt",
    "cksum --check ~/.ssh/known_hosts",
    "ss -K dst 10.0.0.1",
    "ss --kill",
    "ss -N other",
    "top",
    "top -n1",
    "top -d 1",
    "lsof -D x",
    "lsof +m mounts",
    "lsof -e /home",
    "lsof -x l +D src",
    "lsof -Z",
    // lsof's names and +D are listings: of a secret directory, as `ls ~/.ssh` asks.
    "lsof +D ~/.ssh",
    "lsof ~/.ssh/id_rsa",
    "lsof +M -i",
    // lsb_release sources the file LSB_OS_RELEASE names as shell code.
    "LSB_OS_RELEASE=./evil lsb_release -a",
    "export LSB_OS_RELEASE=./evil; lsb_release -a",
    // iconv loads conversion modules from GCONV_PATH.
    "GCONV_PATH=. iconv -f x -t utf-8 README.md",
    // Words the grammars cannot place: options they do not have, run-time words, globs that may be options.
    "uptime --zz",
    "uptime extra",
    "lsb_release --zz",
    "netstat --zz",
    "netstat -tlnp extra",
    "comm --zz README.md README.md",
    "rev --zz README.md",
    "iconv --zz README.md",
    'top -b "$F"',
    "lsof $(cat pids)",
    'lsof -i "$X"',
    "lsof *",
    "rev *",
    "cksum *",
    // Output to a file outside the workspace.
    "uptime > ~/.bashrc",
    "netstat -tlnp > ~/.profile",
  ])("%s is never allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).not.toBe("allow");
  });
});

describe("everyday forms are reads of the project or the system's own summary", () => {
  it.each([
    // The calls the blind tester recorded.
    "uptime",
    "top -bn1 | head -20",
    "lsb_release -a",
    "lsof -i :3000",
    "ss -ltnp",
    "netstat -tlnp",
    "comm -12 README.md src/index.ts",
    "join README.md src/util.ts",
    "rev README.md",
    "cksum README.md",
    "expand src/index.ts",
    "unexpand src/index.ts",
    "iconv -f latin1 -t utf-8 README.md",
    // Their everyday neighbours.
    "uptime -p",
    "uptime --since",
    "top -b -n 1 -o %MEM",
    "top -bn1 -w 200",
    "top -b -n1 -p 1",
    "lsb_release -cs",
    "lsb_release -sd",
    "lsof -ti:3000",
    "lsof -iTCP -sTCP:LISTEN -P -n",
    "lsof -i tcp:8080 -t",
    "lsof -p 1",
    "lsof +D src",
    "lsof README.md",
    "ss -tulpn",
    "ss -s",
    "ss -tn state established '( dport = :443 )'",
    "ss -ltn sport = :3000",
    "netstat -tulpn",
    "netstat -an",
    "netstat -rn",
    "comm -3 README.md src/index.ts",
    "comm --total -12 README.md src/util.ts",
    "join -t , -1 2 -2 1 README.md src/util.ts",
    "cat README.md | rev",
    "cksum -a sha256 README.md src/index.ts",
    "expand -t 4 src/index.ts",
    "expand -4 src/index.ts",
    "unexpand -a -t 2 src/index.ts",
    "iconv -l",
    "iconv -f utf-8 -t ascii//TRANSLIT README.md",
    "cat README.md | iconv -f utf-8 -t utf-16",
  ])("%s is allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).toBe("allow");
  });
});

describe("iconv -o and ss -D write the file they name (the starter that allows writes in the workspace)", () => {
  it.each([
    "iconv -f latin1 -t utf-8 -o README.utf8.md README.md",
    "iconv -f latin1 -t utf-8 --output=src/index.utf8.ts src/index.ts",
    "ss -tn -D dump.bin",
  ])("%s is allowed", (command) => {
    const { action, reason } = judged(command, autonomous);
    expect(action, reason).toBe("allow");
  });

  it.each([
    "iconv -f latin1 -t utf-8 -o .git/hooks/pre-commit README.md",
    "iconv -f latin1 -t utf-8 -o .git/config README.md",
    "iconv -f latin1 -t utf-8 -o ~/.bashrc README.md",
    "iconv -f latin1 -t utf-8 --outp ~/.ssh/authorized_keys README.md",
    "ss --diag .git/config",
  ])("%s is never allowed", (command) => {
    const { action, reason } = judged(command, autonomous);
    expect(action, reason).not.toBe("allow");
  });
});
