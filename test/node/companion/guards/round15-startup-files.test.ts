// Red team, round 15 (r15b-03, s02): with the agent started in ~ (workspace = home) the Write tool and shell
// writes were allowed on start-up files programs read on their own: nvm.sh and .cargo/env (sourced by the
// shell rc), Emacs's init, direnv's rc and allow list, gh's shell aliases, .curlrc and .wgetrc, less's
// lesskey (LESSOPEN) and lessfilter, the X session and window managers' autostarts, OpenCode's and Copilot
// CLI's global plugins and hooks. In any project, files a tool runs when a person merely starts it there
// (.Rprofile, .irbrc, .pryrc, *.code-workspace, Crush's and opencode-ai's config) were ordinary writes too.
// Each write now asks, under both starters; ordinary files with similar names stay allowed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { isProtectedWritePath } from "../../../../src/policy/secret-paths.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, gitWorkspace, judgeOnDisk } from "./disk-fixture.ts";

const homeBase = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt15-startup-")));
const home = join(homeBase, "home");
mkdirSync(home);
git(home, "init", "-q");
const project = gitWorkspace("airlock-rt15-startup-ws-", {
  "src/app.ts": "export const app = 1;\n",
  "README.md": "# app\n",
});
afterAll(() => {
  rmSync(homeBase, { recursive: true, force: true });
  rmSync(project.base, { recursive: true, force: true });
});

const STARTERS = [
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;

/** Home-level start-up files, by their path below ~. */
const HOME_STARTUP = [
  ".nvm/nvm.sh",
  ".nvm/bash_completion",
  ".nvm/versions/node/v24.0.0/bin/node",
  ".cargo/env",
  ".cargo/env.fish",
  ".cargo/bin/cargo",
  ".bun/bin/bun",
  ".pyenv/plugins/x/etc/pyenv.d/exec/x.bash",
  ".local/share/pipx/venvs/black/bin/black",
  ".emacs",
  ".emacs.el",
  ".emacs.d/init.el",
  ".emacs.d/early-init.el",
  ".config/emacs/init.el",
  ".config/direnv/direnvrc",
  ".config/direnv/direnv.toml",
  ".config/direnv/lib/x.sh",
  ".local/share/direnv/allow/0123abcd",
  ".config/gh/config.yml",
  ".local/share/gh/extensions/gh-x/gh-x",
  ".curlrc",
  ".config/curlrc",
  ".wgetrc",
  ".lesskey",
  ".config/lesskey",
  ".lessfilter",
  ".pythonrc",
  ".pythonrc.py",
  ".config/starship.toml",
  ".bashrc.d/x.sh",
  ".oh-my-zsh/custom/x.zsh",
  ".tcshrc",
  ".config/nushell/config.nu",
  ".hgrc",
  ".config/jj/config.toml",
  ".jupyter/jupyter_server_config.py",
  ".xprofile",
  ".xsessionrc",
  ".xinitrc",
  ".config/i3/config",
  ".config/sway/config",
  ".config/hypr/hyprland.conf",
  ".config/labwc/autostart",
  ".config/openbox/autostart",
  ".config/plasma-workspace/env/x.sh",
  ".config/opencode/plugin/x.js",
  ".config/opencode/plugins/x.ts",
  ".copilot/hooks/x.json",
  ".copilot/mcp-config.json",
  ".copilot/config.json",
  ".config/crush/crush.json",
  ".lldbinit",
  ".lldbinit-lldb",
  ".irbrc",
  ".config/irb/irbrc",
  ".pryrc",
  ".Rprofile",
];

/** Project-level ones: read from the directory the tool starts in. */
const PROJECT_STARTUP = [
  ".Rprofile",
  ".Renviron",
  ".irbrc",
  "irb.rc",
  "_irbrc",
  ".pryrc",
  ".lldbinit",
  "app.code-workspace",
  "sub/team.code-workspace",
  ".opencode.json",
  ".crush.json",
  "crush.json",
];

/** Ordinary files with similar names, in the home workspace and in a project. */
const EVERYDAY = [
  "src/emacs.ts",
  "docs/curlrc.md",
  "docs/lldbinit.md",
  "src/crush.ts",
  "src/irb.rb",
  "analysis/model.R",
  "docs/code-workspace.md",
  "src/gh/config.ts",
  "scripts/less.sh",
  "config/i3.ts",
  "docs/login.md",
  "src/shell/bashrc.ts",
  "notebooks/analysis.ipynb",
  "README.md",
];

type Place = { ws: string; home: string };

/** Every way of writing `rel` in `place` (Write tool, Edit tool, `echo >>`), under both starters, with its action. */
function actions(place: Place, rel: string): string[] {
  const file_path = join(place.ws, rel);
  const calls = [
    { tool: "write", input: { file_path, content: "x\n" } },
    { tool: "edit", input: { file_path, old_string: "x", new_string: "y" } },
    { tool: "bash", input: { command: `echo x >> '${rel}'` } },
  ];
  const disk = diskCheck({ env: { HOME: place.home } });
  const got: string[] = [];
  for (const [name, policy] of STARTERS)
    for (const call of calls) {
      const r = judgeOnDisk(
        policy,
        { ...call, cwd: place.ws, workspace: place.ws, home: place.home },
        { disk },
      );
      got.push(`${name} ${call.tool} ${rel}: ${r.action}`);
    }
  return got;
}

function expectEvery(place: Place, rel: string, action: "ask" | "allow"): void {
  const got = actions(place, rel);
  expect(got).toEqual(got.map((a) => a.replace(/: \w+$/, `: ${action}`)));
}

const HOME_PLACE: Place = { ws: home, home };

describe("round 15: start-up files where the workspace is the home directory", () => {
  it.each(HOME_STARTUP)("writing ~/%s asks under both starters", (rel) => {
    expectEvery(HOME_PLACE, rel, "ask");
    expect(isProtectedWritePath(rel)).toBe(true);
  });
});

describe("round 15: files a tool runs when started in an ordinary project", () => {
  it.each(PROJECT_STARTUP)("writing %s in a project asks under both starters", (rel) => {
    expectEvery(project, rel, "ask");
  });
});

describe("ordinary files with similar names stay writable", () => {
  it.each(EVERYDAY)("writing %s is allowed in the home workspace and in a project", (rel) => {
    expect(isProtectedWritePath(rel)).toBe(false);
    expectEvery(HOME_PLACE, rel, "allow");
    expectEvery(project, rel, "allow");
  });
});

describe("the home-level ones named through ~ (the agent started in ~)", () => {
  const disk = diskCheck({ env: { HOME: home } });
  const ctx = { cwd: home, workspace: home, home };
  /** `echo >> ~/REL` and a Write of `~/REL`, under both starters. */
  const tildeActions = (rel: string) =>
    STARTERS.flatMap(([, policy]) => [
      judgeOnDisk(policy, { tool: "bash", input: { command: `echo x >> ~/${rel}` }, ...ctx }, { disk })
        .action,
      judgeOnDisk(policy, { tool: "write", input: { file_path: `~/${rel}`, content: "x" }, ...ctx }, { disk })
        .action,
    ]);
  it.each([
    ".nvm/nvm.sh",
    ".emacs.d/init.el",
    ".curlrc",
    ".config/opencode/plugin/x.js",
    ".copilot/hooks/x.json",
  ])("writing ~/%s asks", (rel) => {
    expect(tildeActions(rel)).toEqual(["ask", "ask", "ask", "ask"]);
  });
  it("writing ~/notes.md stays allowed", () => {
    expect(tildeActions("notes.md")).toEqual(["allow", "allow", "allow", "allow"]);
  });
});
