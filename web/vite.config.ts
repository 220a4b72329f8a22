// Builds the dashboard to web/dist. JSX goes through Vite's own oxc transform with Preact's automatic runtime.
// VITE_AIRLOCK_API (optional, at build time) points a Pages deployment at a Worker on another origin.
import { defineConfig, loadEnv, type Plugin } from "vite";

/**
 * Emits `_headers`, which both Workers static assets and Pages apply to the dashboard's files: a strict CSP (no
 * inline script, no eval, sockets and fetches only to this origin or the configured API) and anti-framing.
 */
function staticSecurityHeaders(apiOrigin: string | null): Plugin {
  const connect = ["'self'", ...(apiOrigin ? [apiOrigin, apiOrigin.replace(/^http/, "ws")] : [])];
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  const headers = [
    "/*",
    `  Content-Security-Policy: ${csp}`,
    "  X-Content-Type-Options: nosniff",
    "  X-Frame-Options: DENY",
    "  Referrer-Policy: no-referrer",
    "  Permissions-Policy: camera=(), microphone=(), geolocation=()",
    "",
  ].join("\n");
  return {
    name: "airlock-static-security-headers",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "_headers", source: headers });
    },
  };
}

export default defineConfig(({ mode }) => {
  const api = loadEnv(mode, "web", "VITE_").VITE_AIRLOCK_API;
  return {
    root: "web",
    oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
    build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
    plugins: [staticSecurityHeaders(api ? new URL(api).origin : null)],
  };
});
