// Builds the dashboard to web/dist. JSX goes through Vite's own oxc transform with Preact's automatic runtime.
// VITE_AIRLOCK_API (optional, at build time) points a Pages deployment at a Worker on another origin.
import { defineConfig } from "vite";

export default defineConfig({
  root: "web",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
});
