// Builds the dashboard to web/dist: the app (JSX through Vite's oxc transform with Preact's runtime), its service
// worker and web app manifest (vite-plugin-pwa, injectManifest), `_headers` with the security headers, and
// `asset-manifest.json` (every file's SHA-256 and a build id) that the parity check compares between deployments.
// The API is always on the page's own origin: the Worker serves the dashboard, or a Pages Function forwards /v1/*.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers both Workers static assets and Pages apply (`_headers`); the Worker's API middleware sends the same. */
export const STATIC_HEADERS: Record<string, string> = {
  "Content-Security-Policy": CSP,
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

function staticSecurityHeaders(): Plugin {
  const lines = ["/*", ...Object.entries(STATIC_HEADERS).map(([k, v]) => `  ${k}: ${v}`)];
  // The service worker must never be served stale, or a deploy would not reach installed apps.
  lines.push("/sw.js", "  Cache-Control: no-cache", "/asset-manifest.json", "  Cache-Control: no-cache", "");
  return {
    name: "airlock-static-security-headers",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "_headers", source: lines.join("\n") });
    },
  };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** After everything is written (service worker included): every served file's hash and a build id over them. */
function assetManifest(): Plugin {
  let outDir = "";
  return {
    name: "airlock-asset-manifest",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: "post",
      sequential: true,
      handler() {
        const files: Record<string, string> = {};
        for (const path of walk(outDir).sort()) {
          const name = `/${relative(outDir, path).replaceAll("\\", "/")}`;
          // The Vite manifest is a build-time file (bench/dashboard reads it); it is not served.
          if (name === "/asset-manifest.json" || name === "/_headers" || name.startsWith("/.vite/")) continue;
          files[name] = createHash("sha256").update(readFileSync(path)).digest("hex");
        }
        const buildId = createHash("sha256").update(JSON.stringify(files)).digest("hex").slice(0, 16);
        writeFileSync(
          join(outDir, "asset-manifest.json"),
          `${JSON.stringify({ build_id: buildId, files }, null, 2)}\n`,
        );
      },
    },
  };
}

export default defineConfig({
  root: "web",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    manifest: true,
    rollupOptions: {
      // src/policy holds declarations only (no statement runs for its effect), so a policy module none of whose
      // exports the dashboard uses is left out, even one whose tables are built by calls: shown-call.ts's
      // `visibleText` alone must not bring the tool-name table and the redactor into the first view.
      treeshake: {
        moduleSideEffects: (id: string) => (/[\\/]src[\\/]policy[\\/]/.test(id) ? false : undefined),
      },
      output: {
        // zod and the line that turns its JIT off travel in one chunk, so the setting is in force before any
        // schema is built, whichever chunk builds it first (the CSP forbids eval; zod would try `new Function`).
        manualChunks: (id: string) =>
          /[\\/]node_modules[\\/]zod[\\/]/.test(id) || id.endsWith("zod-config.ts") ? "zod" : undefined,
      },
    },
  },
  plugins: [
    staticSecurityHeaders(),
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src",
      filename: "sw.ts",
      injectRegister: false,
      registerType: "autoUpdate",
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
        globIgnores: ["**/.vite/**"],
      },
      manifest: {
        name: "Airlock",
        short_name: "Airlock",
        description: "Approve your agents' tool calls.",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: "#0f1115",
        theme_color: "#1f5fd1",
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
          { src: "/icon.svg", sizes: "any", type: "image/svg+xml" },
        ],
      },
    }),
    assetManifest(),
  ],
});
