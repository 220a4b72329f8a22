// ripgrep's configuration file: when RIPGREP_CONFIG_PATH names one (in the agent's environment), rg reads
// its lines as options before the command's own words. `--hidden`, `-u`, `--no-ignore`, `-L` or a glob
// there widen what rg walks, and `--pre`/`--hostname-bin` make it run a program (red team, round 8: the
// judge must know which files rg reads as rg does). Only the environment the agent's shell has counts.
import { readFileSync } from "node:fs";
import type { CallFact, WalkStyle } from "../../policy/call-facts.ts";
import { rgWords } from "../../policy/walk-styles.ts";

/** rg's options that run a program. */
const RUNS = /^--(pre|pre-glob|hostname-bin)(=|$)/;

/** Both walks at once: everything either would read. */
function widest(a: WalkStyle, b: WalkStyle): WalkStyle {
  return {
    content: a.content || b.content,
    hidden: a.hidden || b.hidden,
    ignoreFiles: a.ignoreFiles && b.ignoreFiles,
    follow: a.follow || b.follow,
    skipVcs: a.skipVcs && b.skipVcs,
    // A filter narrows only when both have one (the config's globs and the command's are both applied).
    only: a.only.length > 0 && b.only.length > 0 ? [...a.only, ...b.only] : [],
    ...(a.depth !== undefined ? { depth: a.depth } : {}),
    ...(a.prune !== undefined ? { prune: a.prune } : {}),
    ...(a.binarySilent && b.binarySilent ? { binarySilent: true } : {}),
  };
}

/** The walk with the configuration file's options applied, or a fact when they run a program. */
export function withConfig(
  style: WalkStyle,
  env: NodeJS.ProcessEnv,
  subject: string,
): { style: WalkStyle } | { fact: CallFact } {
  const name = style.config;
  const path = name === undefined ? undefined : env[name];
  if (name === undefined || path === undefined || path === "") return { style };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    // rg goes on without a configuration it cannot read.
    return { style };
  }
  const args = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  const runs = args.find((a) => RUNS.test(a));
  if (runs !== undefined)
    return {
      fact: {
        subject,
        reason: `${name} names \`${path}\`, whose \`${runs}\` makes rg run a program on the files it reads`,
      },
    };
  return { style: widest(style, rgWords(["rg", ...args])) };
}
