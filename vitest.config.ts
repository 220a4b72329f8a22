// One vitest config, four projects: `edge` and `edge-shared` run inside workerd (fresh storage per file, or one
// storage for all), `node` runs pure and Node code, `e2e` drives real processes (wrangler dev, the companion) and
// real Chromium.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { SHARED_STORAGE_FILES } from "./test/edge/shared-storage.ts";
import { OAUTH_TEST_SECRETS } from "./test/support/oauth-test-secrets.ts";

/** The Workers pool for an edge project: one plugin instance per project (it keeps per-project state). */
const edgeWorkers = () =>
  cloudflareTest(async ({ inject }) => ({
    wrangler: { configPath: "./wrangler.toml" },
    // The production entry plus the test-only loopback allowance for the conveyor's target server.
    main: "./test/edge/worker-entry.ts",
    miniflare: {
      bindings: {
        AIRLOCK_DOH_URL: inject("egress").dohUrl,
        TEST_TARGET_PORT: String(inject("egress").targetPort),
        TOKEN_PEPPER: "test-pepper-0123456789abcdef0123456789abcdef",
        ADMIN_BOOTSTRAP_TOKEN: "test-admin-bootstrap-token-0123456789",
        DASHBOARD_ORIGINS: "https://dash.example.test",
        TEST_MIGRATIONS: await readD1Migrations("./migrations"),
        // The hosted runtime talks to the scripted model server (test/support/planner-server.ts).
        AIRLOCK_MODEL_BASE_URL: `${inject("planner").url}/v1`,
        AIRLOCK_MODEL_MODELS: "primary-model,fallback-model",
        AIRLOCK_MODEL_API_KEY: "sk-test-modelkey-0123456789abcdefghij",
        AIRLOCK_MODEL_RETRY_BASE_MS: "5",
        AIRLOCK_MODEL_PRICES: "primary-model=1/2,fallback-model=3/6",
        // Connector tools talk to the contract servers (test/support/contract/server.ts).
        TEST_CONNECTOR_ENDPOINTS: JSON.stringify(inject("contract").endpoints),
        BRAVE_SEARCH_API_KEY: "brave-test-key-0123456789abcdef",
        // Connections (docs/connectors.md) against the OAuth contract server (test/support/oauth-contract-server.ts).
        TEST_OAUTH_URL: inject("oauth").url,
        ...OAUTH_TEST_SECRETS,
      },
    },
  }));

export default defineConfig({
  test: {
    // The JSON report feeds .ci/run's closing "N passed, M failed" line.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    projects: [
      {
        plugins: [edgeWorkers()],
        test: {
          name: "edge",
          include: ["test/edge/**/*.test.ts"],
          // A busy 2-core machine stretches the heavier edge tests (3 MB calls, hundreds of prompts) past 5 s.
          testTimeout: 30_000,
          exclude: SHARED_STORAGE_FILES,
          setupFiles: ["./test/edge/setup.ts"],
          globalSetup: ["./test/edge/global-setup.ts"],
        },
      },
      {
        // The files that pass on used storage share one workerd: no fresh Miniflare, database and module graph per
        // file (test/edge/shared-storage.ts). One worker, after the others, so they always run in one given order
        // on one storage (two workers would split them differently each run).
        plugins: [edgeWorkers()],
        test: {
          name: "edge-shared",
          include: SHARED_STORAGE_FILES,
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          setupFiles: ["./test/edge/setup.ts"],
          globalSetup: ["./test/edge/global-setup.ts"],
        },
      },
      {
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          // Property tests run hundreds of cases; on a busy 2-core CI machine 5 s is too tight.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
