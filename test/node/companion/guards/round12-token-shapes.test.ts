// Never (red team, round 12): `git log -p` printed registry tokens committed in the history (an npm
// automation token, a Hugging Face token), and `cat` a work-tree file holding one: the content check knew
// only some credential shapes. npm, Hugging Face, PyPI, Docker Hub, DigitalOcean and SendGrid tokens
// have shapes no other text has; each is found by content, in the history and in the work tree.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { holdsCredential } from "../../../../src/policy/secret-families.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12-tokens-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const b62 = (n: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${n}}$`));
const TOKENS = fc.oneof(
  b62(36).map((s) => `npm_${s}`),
  b62(34).map((s) => `hf_${s}`),
  fc.stringMatching(/^[A-Za-z0-9_-]{40,80}$/).map((s) => `pypi-AgEIcHlwaS5vcmc${s}`),
  fc.stringMatching(/^[A-Za-z0-9_-]{27}$/).map((s) => `dckr_pat_${s}`),
  fc.stringMatching(/^[a-f0-9]{64}$/).map((s) => `dop_v1_${s}`),
  fc
    .tuple(fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
    .map(([a, b]) => `SG.${a}.${b}`),
);

describe("registry and service tokens by shape", () => {
  it("property: each shape is found wherever it sits in a line", () => {
    fc.assert(
      fc.property(
        TOKENS,
        fc.constantFrom("", "TOKEN=", '"token": "', "//registry/:_authToken="),
        (t, before) => {
          expect(holdsCredential(`${before}${t}\n`), t).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("ordinary words with the same beginnings are not tokens", () => {
    for (const text of [
      "npm_install",
      "hf_hub_download(repo)",
      "SG.example.com",
      "pypi-simple",
      "dckr_pat_x",
    ])
      expect(holdsCredential(text), text).toBe(false);
  });

  it("git log -p over a history holding one, and cat of a file holding one, ask on the disk", () => {
    const home = join(base, "home");
    const ws = join(base, "proj");
    mkdirSync(home, { recursive: true });
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "README.md"), "hello\n");
    writeFileSync(join(ws, "deploy.txt"), `NPM_TOKEN=npm_${"a1B2c3D4e5".repeat(3)}abcdef\n`);
    git(ws, "init", "-q");
    git(ws, "add", ".");
    git(ws, "commit", "-q", "-m", "init");
    git(ws, "rm", "-q", "deploy.txt");
    git(ws, "commit", "-q", "-m", "remove");
    writeFileSync(join(ws, "tok4.txt"), `hf_${"AbCdEfGhIj".repeat(3)}wxyz\n`);
    const disk = diskCheck({ env: { HOME: home } });
    for (const command of ["git log -p", "cat tok4.txt"])
      for (const p of [CAUTIOUS, BALANCED]) {
        const r = judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk });
        expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
      }
    const plain = judgeOnDisk(
      BALANCED,
      { tool: "bash", input: { command: "cat README.md" }, cwd: ws, home },
      { disk },
    );
    expect(plain.action).toBe("allow");
  });
});
