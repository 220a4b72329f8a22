// The companion's path guards: workspace containment, symlink resolution and the serving denylist.
export { type OpenedFile, type OpenedInside, openInside, readOpened } from "./open-inside.ts";
export { pathSpellings, servingRefusal } from "./serving-denylist.ts";
export { resolveWorkspacePath, type WorkspacePath } from "./workspace-path.ts";
