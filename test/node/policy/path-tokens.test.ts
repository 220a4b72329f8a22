// The spellings of an absolute path the class scan of user configuration files reads (round 19), as a table:
// each line of a configuration and the paths it names (a `cd` target marked), URLs and relative words naming none.
import { describe, expect, it } from "vitest";
import { expandBraces, pathTokens } from "../../../src/policy/path-tokens.ts";

const H = { home: "/home/u", xdgConfig: "/home/u/.cfg" };
const named = (line: string) => pathTokens(line, H).map((t) => (t.cd ? `cd:${t.path}` : t.path));

const TABLE: [string, string[]][] = [
  ["export BASH_ENV=~/p/v1.sh", ["/home/u/p/v1.sh"]],
  ['export NODE_OPTIONS="--require $HOME/p/v2.js"', ["/home/u/p/v2.js"]],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's own spelling, as a configuration writes it
  ["GIT_DIR=${HOME}/p/.git", ["/home/u/p/.git"]],
  ["source $XDG_CONFIG_HOME/zsh/x.zsh", ["/home/u/.cfg/zsh/x.zsh"]],
  ["PATH=~/p/bin:/usr/bin:$PATH", ["/home/u/p/bin", "/usr/bin"]],
  ['{"python.defaultInterpreterPath": "/opt/p/py", "u": "https://github.com/a/b"}', ["/opt/p/py"]],
  ['"recent": "file:///home/u/p/x.ts"', ["/home/u/p/x.ts"]],
  ['"escaped": "\\/srv\\/p\\/x.sh"', ["/srv/p/x.sh"]],
  ["yarnPath: /home/u/p/yarn.cjs", ["/home/u/p/yarn.cjs"]],
  ["text/html; /home/u/p/view.sh %s", ["/home/u/p/view.sh"]],
  ['dofile("/home/u/p/init.lua")', ["/home/u/p/init.lua"]],
  ["set shell=/home/u/p/sh", ["/home/u/p/sh"]],
  ["source ~/p/{a,b}.sh", ["/home/u/p/a.sh", "/home/u/p/b.sh"]],
  ["source ~/p/rc.d/*.sh", ["/home/u/p/rc.d"]],
  ['load "~/My Projects/a b.rb"', ["/home/u/My", "/home/u/My Projects/a b.rb"]],
  ["alias app='cd ~/code/app'", ["cd:/home/u/code/app"]],
  ["alias web='cd \"$HOME/code/app/web\"'", ["cd:/home/u/code/app/web"]],
  ["pushd ~/code/app/api >/dev/null", ["cd:/home/u/code/app/api", "/dev/null"]],
  ["x=$HOME/../u/p/y.sh", ["/home/u/p/y.sh"]],
  ["s/foo/bar/g; a/b; ./rel/x.sh; ~user/x", []],
];

describe("pathTokens", () => {
  for (const [line, paths] of TABLE) it(line, () => expect(named(line)).toEqual(paths));

  it("expands braces as bash does, nested too, and gives up past its bound", () => {
    expect(expandBraces("a{b,c{d,e}}f")).toEqual(["abf", "acdf", "acef"]);
    expect(expandBraces("a{b}c")).toEqual(["a{b}c"]);
    expect(expandBraces("{x{a,b}}")).toEqual(["{xa}", "{xb}"]);
    expect(expandBraces(`x${"{a,b}".repeat(7)}`)).toBeNull();
  });
});
