// Over-ask, round 21 (fix21d): `touch src/new.ts`, `mkdir -p src/ui`, `echo x | tee -a notes.md` and `sed -i`
// asked under balanced although each file they write is allowed by "Edit the workspace": the command itself
// matched no rule. A program whose grammar says its files are all it touches (placedOnly) is now judged by those files,
// so a protected, outside or linked-out target still asks through its write unit, an option that reads or
// labels what its paths do not show keeps the command asking, and a profile that asks for edits still asks.
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { profilePolicy } from "../../../../src/companion/profiles/preview.ts";
import { git } from "./disk-fixture.ts";
import { HOME, judgeCommand } from "./judge-command.ts";

const CAUTIOUS = profilePolicy("cautious", HOME);
const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa21d-")));
const outside = join(base, "outside");
const ws = join(base, "ws");
mkdirSync(outside);
writeFileSync(join(outside, "rc"), "export A=1\n");
mkdirSync(join(ws, "src"), { recursive: true });
writeFileSync(join(ws, "src", "a.ts"), "export const a = 1;\n");
writeFileSync(join(ws, "package.json"), '{"name":"x","scripts":{"test":"vitest"}}\n');
git(ws, "init", "-q");
symlinkSync(join(outside, "rc"), join(ws, "notes-link.md"));
symlinkSync(outside, join(ws, "out-dir"));
linkSync(join(outside, "rc"), join(ws, "hard.md"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const balanced = (command: string) => judgeCommand(ws, command);

describe("writes the rules allow: the command is judged by them", () => {
  it.each([
    'echo "x" | tee -a notes.md',
    'echo "x" | tee notes.md',
    "echo x | tee -p --output-error=warn a.md b.md",
    "mkdir -p src/components",
    "mkdir -m 700 -v build",
    "touch src/new.ts",
    "touch -c -m src/a.ts",
    "/usr/bin/touch src/b.ts",
    // touch changes no text: an existing package.json keeps its settings, a new one is empty.
    "touch package.json",
    "sed -i s/a/b/ src/a.ts",
    "sed -i.bak -e 's/a/b/' src/a.ts",
    "sed -n 'w out.txt' src/a.ts",
  ])("allows %s", (command) => {
    const j = balanced(command);
    expect(j.action, j.reason).toBe("allow");
  });

  it.each(["touch src/new.ts", "mkdir -p src/components", "echo x | tee notes.md", "sed -i s/a/b/ src/a.ts"])(
    "still asks under cautious: %s",
    (command) => expect(judgeCommand(ws, command, { policy: CAUTIOUS }).action).toBe("ask"),
  );
});

describe("a target the write rules do not allow asks through its write unit", () => {
  it.each([
    "touch .envrc",
    "touch .git/hooks/pre-commit",
    "mkdir -p .git/hooks/x",
    "touch .vscode/tasks.json",
    "echo x | tee -a ~/.bashrc",
    "touch /etc/x",
    "touch ../x",
    "echo x | tee notes-link.md",
    "touch out-dir/new",
    "mkdir -p out-dir/d",
    "echo x | tee hard.md",
    "touch $X",
    "sudo touch x",
    "LD_PRELOAD=./x.so touch a",
    "sed -i s/a/b/ .envrc",
    "sed -i s/a/b/ ~/.bashrc",
    "sed -i s/a/b/ notes-link.md",
    "sed -i 's/a/b/w .git/hooks/pre-commit' src/a.ts",
    "sed -i 's/a/b/e' src/a.ts",
    "sed -i '1e id' src/a.ts",
    "sed -i -f x.sed src/a.ts",
    // Text a program makes up into package.json may set a hook manager's settings, which a file tool's write
    // there is checked for (package-hooks.ts) and a program's is not.
    'echo \'{"lint-staged":{"*":"sh x"}}\' | tee package.json',
    'sed -i \'s/"test"/"lint-staged"/\' package.json',
    "sed -n 'w package.json' src/a.ts",
    "echo x | tee pack*.json",
  ])("asks for %s", (command) => {
    const j = balanced(command);
    expect(j.action, j.reason).not.toBe("allow");
  });
});

describe("options whose effect the paths do not show keep the command asking", () => {
  it.each([
    // GNU touch opens the zone file a date names (strace: openat "/etc/passwd").
    "touch -d 'TZ=\"/etc/passwd\" 2020-01-01' x",
    "touch -t 202001010000 x",
    // -r copies the times of a file that is not judged as read.
    "touch -r src/a.ts x",
    // An SELinux label, and `touch -` (stdout's file) or `mkdir -` (a directory the grammar does not place).
    "mkdir -Z d",
    "mkdir --context=x d",
    "touch -",
    "mkdir -",
    // Nothing written to stand in for it: sed -i skips `-`.
    "sed -i s/a/b/ -",
  ])("asks for %s", (command) => {
    const j = balanced(command);
    expect(j.action, j.reason).not.toBe("allow");
  });

  it("tee - writes a file named - (not stdout), judged as a write there", () => {
    expect(balanced("echo x | tee -").action).toBe("allow");
    expect(judgeCommand(ws, "echo x | tee -", { policy: CAUTIOUS }).action).toBe("ask");
  });
});

/** Where a target lands on disk: its existing parent's real path, the link it is followed. */
function landing(target: string): string {
  const abs = target.startsWith("/") ? target : join(ws, target);
  try {
    return realpathSync(abs);
  } catch {
    const dir = abs.slice(0, abs.lastIndexOf("/"));
    return join(landing(dir), abs.slice(abs.lastIndexOf("/") + 1));
  }
}

const PROTECTED = /(^|\/)(\.git|\.vscode|\.envrc|\.env)(\/|$)/;

describe("property: a command of the class never writes outside or to a protected path while allowed", () => {
  const targets = fc.constantFrom(
    ...[
      "src/new.ts",
      "notes.md",
      "build",
      "src",
      ".envrc",
      ".env",
      ".git/config",
      ".git/hooks/post-checkout",
    ],
    ...[".vscode/settings.json", "notes-link.md", "out-dir/x", "out-dir", "hard.md", "../up", "/etc/y", "-"],
    ...[`${outside}/z`, "src/../../up2"],
  );
  const command = fc.oneof(
    fc
      .tuple(fc.subarray(["-a", "-c", "-m", "-h", "-f"]), fc.array(targets, { minLength: 1, maxLength: 3 }))
      .map(([o, t]) => ({ text: ["touch", ...o, ...t].join(" "), targets: t })),
    fc
      .tuple(fc.subarray(["-p", "-v", "-m 755"]), fc.array(targets, { minLength: 1, maxLength: 3 }))
      .map(([o, t]) => ({ text: ["mkdir", ...o, ...t].join(" "), targets: t })),
    fc
      .tuple(fc.subarray(["-a", "-p", "-i"]), fc.array(targets, { minLength: 1, maxLength: 3 }))
      .map(([o, t]) => ({ text: `echo x | tee ${[...o, ...t].join(" ")}`, targets: t })),
    fc
      .tuple(
        fc.subarray(["-E", "-i.bak", "--follow-symlinks"]),
        fc.array(targets, { minLength: 1, maxLength: 3 }),
      )
      .map(([o, t]) => ({ text: ["sed", "-i", ...o, "s/a/b/", ...t].join(" "), targets: t })),
  );

  it("allowed only when every landing is inside the workspace and not protected; never under cautious", () => {
    const inside = `${realpathSync(ws)}/`;
    fc.assert(
      fc.property(command, ({ text, targets: t }) => {
        expect(judgeCommand(ws, text, { policy: CAUTIOUS }).action).not.toBe("allow");
        if (balanced(text).action !== "allow") return;
        for (const target of t) {
          const to = landing(target);
          expect(to.startsWith(inside), `${text}: ${to}`).toBe(true);
          expect(PROTECTED.test(to.slice(inside.length)), `${text}: ${to}`).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
