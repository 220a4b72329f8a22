// Red team round 12: editors' and backup tools' copies of a secret hold the same secret, under names the
// families did not list: `#.env#` (emacs autosave), `.netrc~`, `.npmrc.bak`, `kubeconfig.bak`,
// `auth.json.bak`, `.git-credentials~`. A copy is judged as the name it copies.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDenylistedPath } from "../../../src/policy/secret-paths.ts";

const SECRETS = [
  ".env",
  "app.env",
  ".netrc",
  ".npmrc",
  ".git-credentials",
  ".pgpass",
  "id_rsa",
  "id_ed25519",
];
const PLAIN = ["README.md", "src/a.ts", "package.json", "notes.txt", "Makefile"];
const DECORATE = [
  (n: string) => `${n}~`,
  (n: string) => `${n}.bak`,
  (n: string) => `${n}.orig`,
  (n: string) => `${n}.old`,
  (n: string) => `${n}.dpkg-old`,
  (n: string) => `#${n}#`,
  (n: string) => `.#${n}`,
  (n: string) => `.${n}.swp`,
];

describe("copies of a secret by name", () => {
  it("property: every decoration of a secret's name is a secret, in any directory", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRETS),
        fc.constantFrom(...DECORATE),
        fc.constantFrom("", "config/", "/home/dev/"),
        (name, decorate, dir) => {
          expect(isDenylistedPath(`${dir}${name}`), name).toBe(true);
          expect(isDenylistedPath(`${dir}${decorate(name)}`), decorate(name)).toBe(true);
        },
      ),
    );
  });

  it("the red team's names", () => {
    for (const p of [
      "#.env#",
      "app.env~",
      ".netrc~",
      ".netrc.bak",
      ".npmrc.bak",
      ".git-credentials~",
      ".pgpass~",
    ])
      expect(isDenylistedPath(p), p).toBe(true);
  });

  it("a copy of an ordinary file is ordinary", () => {
    for (const name of PLAIN)
      for (const d of DECORATE) expect(isDenylistedPath(d(name)), d(name)).toBe(false);
  });
});
