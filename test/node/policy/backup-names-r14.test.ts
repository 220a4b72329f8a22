// Red team round 14 (r14-12): copies of a secret under names round 12's backup rule missed — vim's undo
// file `..pgpass.un~` (every changed line, the deleted ones too), Finder's `.pgpass copy`, a numbered
// `.pgpass.1`, a rotated `.netrc.bak.1`, a dated `.netrc.2024-01-01`, kate's `.netrc.kate-swp` — were read
// unasked while `.pgpass` is a secret. Each form maps a copy's name to the name it copies.
import { describe, expect, it } from "vitest";
import { isDenylistedPath } from "../../../src/policy/secret-paths.ts";
import { AUTONOMOUS, BALANCED, judge } from "./shell/policies.ts";

const SECRETS = [".env", ".pgpass", "id_rsa", ".netrc", "kubeconfig"];
/** Each tool's name for a copy of NAME. */
const COPIES: Record<string, (n: string) => string> = {
  "vim undo file": (n) => `.${n}.un~`,
  "vim undo file, no leading dot": (n) => `${n}.un~`,
  "vim undo/swap file named by its path": (n) => `%home%dev%project%${n}.swp`,
  "kate swap": (n) => `.${n}.kate-swp`,
  "Finder duplicate": (n) => `${n} copy`,
  "Finder second duplicate": (n) => `${n} copy 2`,
  "Windows copy": (n) => `${n} - Copy (2)`,
  "download twice": (n) => `${n} (1)`,
  "Copy of": (n) => `Copy of ${n}`,
  numbered: (n) => `${n}.1`,
  "GNU numbered backup": (n) => `${n}.~3~`,
  "rotated backup": (n) => `${n}.bak.1`,
  "numbered orig": (n) => `${n}.orig.2`,
  "dot copy": (n) => `${n}.copy`,
  "dash copy": (n) => `${n}-copy`,
  "dated backup": (n) => `${n}.backup-2024-01-01`,
  dated: (n) => `${n}.2024-01-01`,
  "dated with time": (n) => `${n}_20240101T1200`,
  "saved as text": (n) => `${n}.txt`,
};

describe("copies of a secret under other tools' names", () => {
  for (const [form, copy] of Object.entries(COPIES))
    it(`${form}: ${copy("NAME")}`, () => {
      for (const name of SECRETS) {
        expect(isDenylistedPath(name), name).toBe(true);
        expect(isDenylistedPath(copy(name)), copy(name)).toBe(true);
        expect(isDenylistedPath(`config/${copy(name)}`), `config/${copy(name)}`).toBe(true);
      }
    });

  it("reading one is not allowed unasked, by cat or the Read tool", () => {
    for (const p of [BALANCED, AUTONOMOUS])
      for (const name of ["..pgpass.un~", ".kubeconfig.un~", ".pgpass copy", ".netrc.bak.1", ".netrc (1)"]) {
        expect(judge(p, `cat '${name}'`).action, name).not.toBe("allow");
      }
  });

  it("an ordinary file's copies, and source files with such suffixes, stay ordinary", () => {
    for (const p of [
      "src/app.1.ts",
      "CHANGELOG.1",
      "notes copy.md",
      "README (1).md",
      ".README.md.un~",
      "man/airlock.1",
      "lib/libfoo.so.1.2",
      "data.2024-01-01.csv",
      "backup-2024-01-01",
      "requirements.txt",
      "id_ed25519.pub.txt.md",
      "src/environment copy.ts",
    ])
      expect(isDenylistedPath(p), p).toBe(false);
    expect(judge(BALANCED, "cat 'notes copy.md' CHANGELOG.1").action).toBe("allow");
  });

  it("a name longer than a file name can be is not undecorated (no deep recursion on a crafted word)", () => {
    expect(isDenylistedPath(`a${".bak".repeat(5000)}`)).toBe(false);
  });
});
