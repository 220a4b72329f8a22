// Where each program reads its user configuration (red team, round 18, r18-06): one row per program,
// XDG and environment overrides included. What each file names is program-configs.ts's; this reads the
// files and their include chains for config-references.ts.
import { dirname, join } from "node:path";
import type { Reference } from "../../policy/path-references.ts";
import {
  type ProgramFormat,
  type ProgramReference,
  programReferences,
} from "../../policy/program-configs.ts";

/** The environment these rows read (config-references' cache is keyed by it too). */
export const PROGRAM_ENV = [
  ...["MYVIMRC", "NPM_CONFIG_USERCONFIG", "PSQLRC", "R_PROFILE_USER"],
  ...["IPYTHONDIR", "KITTY_CONFIG_DIRECTORY", "INPUTRC"],
];

interface Row {
  format: ProgramFormat;
  files(home: string, env: NodeJS.ProcessEnv, xdg: string): (string | undefined)[];
}

const ROWS: Row[] = [
  {
    format: "vim",
    files: (h, e, x) => [
      ...[
        join(h, ".vimrc"),
        join(h, ".vim", "vimrc"),
        join(h, ".gvimrc"),
        join(h, ".vim", "gvimrc"),
        join(h, ".exrc"),
      ],
      ...[
        join(x, "vim", "vimrc"),
        join(x, "nvim", "init.vim"),
        join(x, "nvim", "init.lua"),
        join(x, "nvim", "ginit.vim"),
      ],
      e.MYVIMRC,
    ],
  },
  { format: "tmux", files: (h, _e, x) => [join(h, ".tmux.conf"), join(x, "tmux", "tmux.conf")] },
  { format: "npm", files: (h, e) => [e.NPM_CONFIG_USERCONFIG || join(h, ".npmrc")] },
  {
    format: "emacs",
    files: (h, _e, x) => [
      ...[
        join(h, ".emacs"),
        join(h, ".emacs.el"),
        join(h, ".emacs.d", "init.el"),
        join(h, ".emacs.d", "early-init.el"),
      ],
      ...[join(x, "emacs", "init.el"), join(x, "emacs", "early-init.el")],
    ],
  },
  { format: "psql", files: (h, e) => [e.PSQLRC || join(h, ".psqlrc")] },
  {
    format: "gdb",
    files: (h, _e, x) => [
      join(h, ".gdbinit"),
      join(h, ".gdbearlyinit"),
      join(x, "gdb", "gdbinit"),
      join(x, "gdb", "gdbearlyinit"),
    ],
  },
  { format: "r", files: (h, e) => [e.R_PROFILE_USER || join(h, ".Rprofile")] },
  {
    format: "ipython",
    files: (h, e) => {
      const dir = join(e.IPYTHONDIR || join(h, ".ipython"), "profile_default");
      return [join(dir, "ipython_config.py"), join(dir, "ipython_kernel_config.py")];
    },
  },
  {
    format: "kitty",
    files: (_h, e, x) => [join(e.KITTY_CONFIG_DIRECTORY || join(x, "kitty"), "kitty.conf")],
  },
  {
    format: "alacritty",
    files: (h, _e, x) => [
      join(x, "alacritty", "alacritty.toml"),
      join(h, ".alacritty.toml"),
      join(h, ".config", "alacritty", "alacritty.toml"),
    ],
  },
  { format: "inputrc", files: (h, e) => [e.INPUTRC || join(h, ".inputrc")] },
];

/** Include chains are followed this deep. */
const MAX_DEPTH = 4;

/**
 * Every program configuration's references, by the file that makes them. `open` reads a file once per
 * look (null when absent, unreadable or read already), stamping it for the cache.
 */
export function programConfigPaths(
  open: (file: string) => string | null,
  env: NodeJS.ProcessEnv,
  home: string,
): { from: string; refs: Reference[] }[] {
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  const out: { from: string; refs: Reference[] }[] = [];
  const read = (format: ProgramFormat, file: string, depth: number) => {
    const text = open(file);
    if (text === null) return;
    const refs = programReferences(format, text, { home, base: dirname(file) });
    out.push({ from: file, refs: refs.map(({ chain: _, ...r }) => r) });
    if (depth < MAX_DEPTH) for (const r of refs.filter(literalChain)) read(format, literalPath(r), depth + 1);
  };
  for (const row of ROWS)
    for (const f of new Set(row.files(home, env, xdg)))
      if (f !== undefined && f !== "") read(row.format, f, 0);
  return out;
}

/** An include that names one file, which the chain reads next (a glob is protected but not followed). */
function literalChain(r: ProgramReference): boolean {
  return r.chain && r.parts.every((p) => p.type === "lit");
}

function literalPath(r: ProgramReference): string {
  return r.parts.map((p) => (p.type === "lit" ? p.value : "")).join("");
}
