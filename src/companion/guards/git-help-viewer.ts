// `git help NAME` runs `man` (judged as its own unit) unless configuration chooses another viewer: help.format
// (info, html: a browser), man.viewer (woman, konqueror, or any tool whose man.<tool>.cmd is a command
// line git runs through the shell), man.<tool>.path, help.browser, web.browser, browser.<tool>.cmd/path,
// help.htmlPath; GIT_MAN_VIEWER in the environment too (builtin/help.c, 2.39). Any layer may set them, the
// repository's own (which may arrive with the project) or the user's: any such key makes the unit ask.
import { configLayers } from "./git-config-layers.ts";
import type { Repository } from "./git-discovery.ts";

const VIEWER_KEYS =
  /^(help\.(format|browser|htmlpath)|man\.(viewer|.+\.(cmd|path))|web\.browser|browser\..+\.(cmd|path))$/;

/** Why `git help NAME` would open its page in something other than man, or null. */
export function helpViewerReason(repo: Repository | null, env: NodeJS.ProcessEnv): string | null {
  if ((env.GIT_MAN_VIEWER ?? "") !== "")
    return "GIT_MAN_VIEWER is set in the agent's environment: git help opens pages in the viewer it names";
  const entry = configLayers(repo, env).find((e) => VIEWER_KEYS.test(e.key));
  if (entry === undefined) return null;
  return `git help opens pages in a viewer the configuration chooses: ${entry.key} is set in \`${entry.from}\``;
}
