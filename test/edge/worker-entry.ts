// The Worker as the tests run it (vitest's workerd, and `wrangler dev` in e2e via AIRLOCK_DEV_ENTRY): the
// production entry, plus what production can never have: the conveyor may reach the local target server
// on 127.0.0.1:TEST_TARGET_PORT (and nothing else on loopback), connector tools call the contract servers
// on loopback (their connections from the in-memory port, else from the D1 store the real OAuth flow fills),
// and connections' OAuth goes to the contract server at TEST_OAUTH_URL.
import { env } from "cloudflare:workers";
import { overrideConnectorEndpointsForTests } from "../../src/edge/connectors/config.ts";
import { routeOAuthToLoopbackForTests } from "../../src/edge/connectors/oauth/endpoints.ts";
import { connectionTokens } from "../../src/edge/connectors/tokens.ts";
import { useConnectionTokensForTests } from "../../src/edge/connectors/wiring.ts";
import { allowLoopbackTargetsForTests } from "../../src/edge/conveyor/egress/config.ts";
import { everyoneConnected, memoryInFrontOf, testConnections } from "../support/memory-connections.ts";

const port = Number(env.TEST_TARGET_PORT);
if (Number.isInteger(port) && port > 0) allowLoopbackTargetsForTests([{ address: "127.0.0.1", port }]);
if (env.TEST_CONNECTOR_ENDPOINTS) {
  overrideConnectorEndpointsForTests(JSON.parse(env.TEST_CONNECTOR_ENDPOINTS));
  // An e2e run (`wrangler dev`) cannot reach this isolate's objects: with TEST_CONNECT_EVERYONE every user is
  // connected; without it, connections are only what the person connected through OAuth (the D1 store).
  useConnectionTokensForTests((e) =>
    env.TEST_CONNECT_EVERYONE === "1"
      ? everyoneConnected
      : memoryInFrontOf(testConnections, connectionTokens(e)),
  );
}
// Google's and GitHub's OAuth endpoints: the contract server on loopback, never the real hosts.
if (env.TEST_OAUTH_URL) routeOAuthToLoopbackForTests(env.TEST_OAUTH_URL);

export * from "../../src/edge/index.ts";
export { default } from "../../src/edge/index.ts";
