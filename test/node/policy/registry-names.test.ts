// Registry and tool configurations that hold a token in plain text (red team, round 12): yarn berry's
// `.yarnrc.yml` (npmAuthToken), bun's `bunfig.toml`, pip's `pip.conf`/`pip.ini` (an index URL with a
// password), NuGet's `nuget.config` (ClearTextPassword), poetry's `auth.toml`, conda's `.condarc`, sentry-cli's
// `.sentryclirc`. They are secrets by name, with or without a token, as `.npmrc` is: the edge judges names only.
import { describe, expect, it } from "vitest";
import { judge, READ_ONLY, STRICT_PROFILES } from "./shell/policies.ts";

const NAMES = [
  ".yarnrc.yml",
  "cfg/.yarnrc.yml",
  "bunfig.toml",
  "pip.conf",
  ".config/pip/pip.conf",
  "pip.ini",
  "nuget.config",
  "NuGet.Config",
  ".config/pypoetry/auth.toml",
  ".condarc",
  ".sentryclirc",
];

describe("registry configurations are secrets by name", () => {
  it("a read of each never runs unasked, under every strict profile", () => {
    for (const name of NAMES)
      for (const [profile, policy] of [["read-only", READ_ONLY], ...STRICT_PROFILES] as const) {
        const r = judge(policy, `cat ${name}`);
        expect(r.action, `${profile}: cat ${name}`).not.toBe("allow");
      }
  });

  it("their neighbours stay plain files (pyproject.toml, a project's gradle.properties, yarn.lock)", () => {
    for (const name of ["pyproject.toml", "gradle.properties", "yarn.lock", "package.json"])
      expect(judge(READ_ONLY, `cat ${name}`).action, name).toBe("allow");
  });
});
