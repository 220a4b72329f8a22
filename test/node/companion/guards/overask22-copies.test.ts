// Over-ask, round 22 (fix23a): `cp src/a.js src/b.js`, `chmod +x evil.sh` and `python3 -m json.tool package.json
// out.json` asked under balanced although the file each reads and the file each writes are allowed on their own
// ("Read the workspace", "Edit the workspace"). A plain copy, a mode change of read/write/execute bits and
// json.tool's IN OUT are now judged by those files (placedOnly), their sources inside the project; every class
// the judge closed before still asks: whole trees, kept links, landings in a directory, a protected, linked-out
// or hard-linked file, a source outside, a backup's or label's name, a setuid bit, a reference file.
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { profilePolicy } from "../../../../src/companion/profiles/preview.ts";
import { git } from "./disk-fixture.ts";
import { HOME, judgeCommand } from "./judge-command.ts";

const CAUTIOUS = profilePolicy("cautious", HOME);
const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa22a-")));
const outside = join(base, "outside");
const ws = join(base, "ws");
mkdirSync(outside);
writeFileSync(join(outside, "rc"), "export A=1\n");
for (const dir of ["src", "bin", "secrets", "tmpl/.vscode"]) mkdirSync(join(ws, dir), { recursive: true });
writeFileSync(join(ws, "src", "a.js"), "export const a = 1;\n");
writeFileSync(join(ws, "b2.txt"), "b\n");
writeFileSync(join(ws, "evil.sh"), "echo hi\n");
writeFileSync(join(ws, "package.json"), '{"name":"x","scripts":{"test":"vitest"}}\n');
writeFileSync(join(ws, ".env"), "TOKEN=1\n");
writeFileSync(join(ws, ".gitignore"), ".env\nsecrets/\n");
writeFileSync(join(ws, "tmpl", ".vscode", "tasks.json"), '{"tasks":[]}\n');
git(ws, "init", "-q");
symlinkSync(join(outside, "rc"), join(ws, "link.md"));
symlinkSync("src/a.js", join(ws, "inlink.js"));
linkSync(join(outside, "rc"), join(ws, "hard.md"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const balanced = (command: string) => judgeCommand(ws, command);
const allowed = (command: string) => {
  const j = balanced(command);
  expect(j.action, `${command}: ${j.reason}`).toBe("allow");
};
const asks = (command: string) => {
  const j = balanced(command);
  expect(j.action, `${command}: ${j.reason}`).not.toBe("allow");
};

describe("the round's records, and their everyday kin, are judged by their files", () => {
  it.each([
    "cp src/a.js src/b.js",
    `cp src/a.js ${ws}/src/c.js`,
    "cd src && cp a.js b.js",
    "cp -t src b2.txt evil.sh",
    "cp --parents src/a.js dist",
    "cp -T src/a.js one.js",
    "cp -u -n -i -v src/a.js two.js",
    // cp follows a source link (no -P, -d, -a, -r): the copy is of the file it names, judged there.
    "cp inlink.js three.js",
    "chmod +x evil.sh",
    "chmod 755 evil.sh",
    "chmod 0644 b2.txt",
    "chmod u+x,go-w evil.sh src/a.js",
    "chmod -v g=u evil.sh",
    // chmod puts no text in package.json: its settings stay what they are.
    "chmod 644 package.json",
    "python3 -m json.tool package.json out.json",
    `python3 -m json.tool package.json ${ws}/out.json`,
    "python3 -m json.tool --indent 2 src/a.js src/a.json",
  ])("allows %s", allowed);

  it.each(["cp src/a.js src/b.js", "chmod +x evil.sh", "python3 -m json.tool package.json out.json"])(
    "still asks under cautious: %s",
    (command) => expect(judgeCommand(ws, command, { policy: CAUTIOUS }).action).toBe("ask"),
  );
});

describe("mv is judged as before: the disk alone knows a file from a tree, and the rules ask for trees", () => {
  it("asks for a rename the write rules would allow file by file (round 22's record, left asking)", () =>
    expect(balanced("mv b2.txt b3.txt").action).toBe("ask"));

  it.each([
    // A tree or a link moves as it is: its names, or where a relative link then points, are not judged.
    "mv tmpl new",
    "mv tmpl/.vscode .",
    "mv src lib",
    "mv inlink.js x.js",
    "mv link.md x",
    // A name the command makes first is not on the disk to look at.
    "touch n.txt && mv n.txt m.txt",
    "mv nothere x",
    // A secret, a hard link, a source outside; a protected file moved away or onto.
    "mv .env x",
    "mv hard.md x",
    "mv ../outside/rc x",
    "mv /etc/hostname x",
    "mv .envrc x",
    "mv package.json x",
    "mv .git/hooks/pre-commit.sample .git/hooks/pre-commit",
    "mv b2.txt .git/hooks/",
    "mv b2.txt .vscode",
    "mv b2.txt package.json",
    "mv b2.txt ../x",
    "mv b2.txt $X",
    // A backup's name, a label.
    "mv -b b2.txt x",
    "mv --backup=t b2.txt x",
    "mv -S .old b2.txt x",
    "mv -Z b2.txt x",
  ])("asks for %s", asks);
});

describe("a copy whose paths do not show all it does keeps asking", () => {
  it.each([
    // Whole trees and kept links: the names that land, and where a link then points, are the disk's.
    "cp -r tmpl new",
    "cp -R tmpl/.vscode .",
    "cp -a src/a.js x.js",
    "cp -P inlink.js x.js",
    "cp -d inlink.js x.js",
    "cp --preserve=links src/a.js x.js",
    "cp --preserve=all src/a.js x.js",
    "cp -p src/a.js x.js",
    "cp -l src/a.js x.js",
    "cp -s src/a.js x.js",
    // A backup's name and an SELinux label.
    "cp -b src/a.js x.js",
    "cp --backup=numbered src/a.js x.js",
    "cp -S .orig src/a.js x.js",
    "cp -Z src/a.js x.js",
    "cp --attributes-only src/a.js x.js",
  ])("asks for %s", asks);
});

describe("a source or destination the rules do not allow asks", () => {
  it.each([
    // Into a directory, or onto a protected file.
    "cp src/a.js .vscode",
    "cp -t .vscode src/a.js",
    "cp --parents tasks.json .vscode",
    "cp src/a.js .git/hooks/pre-commit",
    "cp src/a.js .git/hooks/",
    "cp src/a.js .envrc",
    "cp src/a.js package.json",
    "cp src/a.js pack*.json",
    "cp src/a.js ~/.bashrc",
    "cp src/a.js node_modules/.bin/tsc",
    // A secret, a link out, a hard link, a path outside or not known.
    "cp .env x",
    "cp secrets/k x",
    "cp link.md x",
    "cp hard.md x",
    "cp /etc/hostname x",
    "cp ../outside/rc x",
    "cd .. && cp outside/rc ws/x",
    "cp .*/x y",
    "cp src/a.js ../x",
    "cp src/a.js /tmp/x",
    "cp $X y",
    "cp src/a.js $Y",
    "sudo cp src/a.js x",
    // json.tool's files are judged the same way.
    "python3 -m json.tool package.json .vscode/settings.json",
    "python3 -m json.tool package.json package.json",
    "python3 -m json.tool /etc/hostname out.json",
    "python3 -m json.tool link.md out.json",
    "python3 -m json.tool package.json ../out.json",
    "PYTHONPATH=x python3 -m json.tool package.json out.json",
  ])("asks for %s", asks);
});

describe("chmod: each file a write of that file, only read/write/execute bits", () => {
  it.each([
    "chmod +x .git/hooks/pre-commit",
    "chmod +x .envrc",
    "chmod +x link.md",
    "chmod +x hard.md",
    "chmod +x ../x",
    "chmod +x /usr/local/bin/x",
    "chmod +x node_modules/.bin/x",
    "chmod +x $F",
    // A walk, a reference file, a mode like an option, setuid/setgid/sticky, or no file.
    "chmod -R +x src",
    "chmod --reference=b2.txt evil.sh",
    "chmod -x evil.sh",
    "chmod +s evil.sh",
    "chmod u+s evil.sh",
    "chmod 4755 evil.sh",
    "chmod 2755 evil.sh",
    "chmod +t bin",
    "chmod 1777 bin",
    "chmod +x",
  ])("asks for %s", asks);

  it("asks for a file made runnable in a project directory on PATH, allows it elsewhere", () => {
    const env = { PATH: `${ws}/bin:/usr/bin:/bin` };
    expect(judgeCommand(ws, "chmod +x bin/tool", { env }).action).not.toBe("allow");
    expect(judgeCommand(ws, "chmod +x evil.sh", { env }).action).toBe("allow");
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

/** A file a write there decides what runs or holds a secret (package.json aside: chmod changes no text there). */
const PROTECTED = /(^|\/)(\.git|\.vscode|\.envrc|\.env|secrets|node_modules)(\/|$)/;
/** A secret a read there would copy out. */
const SECRET = /(^|\/)(\.env|secrets)(\/|$)/;

describe("property: a cp, mv or chmod of the class never touches a path outside or protected while allowed", () => {
  const paths = fc.constantFrom(
    ...["src/a.js", "src/new.js", "b2.txt", "evil.sh", "inlink.js", "notes.md", "src", "tmpl", ".env"],
    ...[".envrc", ".git/config", ".git/hooks/pre-commit", ".vscode/tasks.json", "secrets/k", "package.json"],
    ...["link.md", "hard.md", "../up", "/etc/hostname", `${outside}/rc`, "src/../../up2", "node_modules/x"],
  );
  const cpOptions = fc.subarray([
    "-f",
    "-n",
    "-u",
    "-v",
    "-i",
    "-T",
    "-r",
    "-a",
    "-P",
    "-p",
    "-b",
    "-l",
    "-s",
  ]);
  const command = fc.oneof(
    fc
      .tuple(cpOptions, fc.array(paths, { minLength: 2, maxLength: 3 }))
      .map(([o, t]) => ({ text: ["cp", ...o, ...t].join(" "), read: t.slice(0, -1), written: t.slice(-1) })),
    // mv writes where each source was too: the name it leaves.
    fc
      .tuple(fc.subarray(["-f", "-n", "-v", "-T", "-b"]), fc.array(paths, { minLength: 2, maxLength: 3 }))
      .map(([o, t]) => ({ text: ["mv", ...o, ...t].join(" "), read: t.slice(0, -1), written: t })),
    fc
      .tuple(
        fc.constantFrom("+x", "755", "u+rw", "4755", "+s", "g=u"),
        fc.subarray(["-v", "-c", "-R"]),
        fc.array(paths, { minLength: 1, maxLength: 3 }),
      )
      .map(([m, o, t]) => ({ text: ["chmod", ...o, m, ...t].join(" "), read: [], written: t })),
  );

  it("allowed only when every path is inside the workspace and not protected; never under cautious", () => {
    const inside = `${realpathSync(ws)}/`;
    fc.assert(
      fc.property(command, ({ text, read, written }) => {
        expect(judgeCommand(ws, text, { policy: CAUTIOUS }).action).not.toBe("allow");
        if (balanced(text).action !== "allow") return;
        for (const [paths, off] of [
          [read, SECRET],
          [written, PROTECTED],
        ] as const)
          for (const target of paths) {
            const to = landing(target);
            expect(to.startsWith(inside), `${text}: ${to}`).toBe(true);
            expect(off.test(to.slice(inside.length)), `${text}: ${to}`).toBe(false);
          }
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
