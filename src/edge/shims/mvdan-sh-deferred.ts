// Stands in for "mvdan-sh" in the Worker bundle (wrangler.toml [alias]): its GopherJS runtime starts a
// timer when it loads, which workerd forbids in global scope, so the real module is imported inside a
// handler by loadShellParser() and reached through this object afterwards.
import type real from "mvdan-sh";

type MvdanSh = typeof real;
let loaded: MvdanSh | undefined;

/** Loads the real parser; call (and await) inside a handler before the first policy decision. */
export async function loadShellParser(): Promise<void> {
  if (loaded) return;
  // A specifier the alias does not match, so this reaches the real package.
  loaded = (await import("mvdan-sh/index.js")).default;
}

const deferred = {
  get syntax(): MvdanSh["syntax"] {
    // Until loaded, parsing fails, and the policy treats an unparsable command as "ask".
    if (!loaded) throw new Error("the shell parser is not loaded yet");
    return loaded.syntax;
  },
} as MvdanSh;

export default deferred;
