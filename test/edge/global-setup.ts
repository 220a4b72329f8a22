// Runs in Node before the workerd tests: starts the conveyor's loopback servers and hands their
// addresses to the Worker's bindings (vitest.config.ts) and to the tests (inject).
import type { TestProject } from "vitest/node";
import { startContractServers } from "../support/contract/server.ts";
import { startEgressServers } from "../support/egress-servers.ts";
import { startOAuthContractServer } from "../support/oauth-contract-server.ts";
import { startPlannerServer } from "../support/planner-server.ts";

export default async function setup(project: TestProject) {
  const servers = await startEgressServers();
  project.provide("egress", {
    dohUrl: servers.dohUrl,
    targetPort: servers.targetPort,
    internalAddress: servers.internalAddress,
    metadataPort: servers.metadataPort,
    controlUrl: servers.controlUrl,
  });
  const planner = await startPlannerServer();
  project.provide("planner", { url: planner.url });
  const oauth = await startOAuthContractServer();
  project.provide("oauth", { url: oauth.url });
  // The APIs also take the tokens the OAuth contract server issued: a connection made through the real flow works.
  const contract = await startContractServers(oauth.introspect);
  project.provide("contract", { endpoints: contract.endpoints, controlUrl: contract.controlUrl });
  return async () => {
    await contract.close();
    await oauth.close();
    await planner.close();
    await servers.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    egress: {
      dohUrl: string;
      targetPort: number;
      internalAddress: string;
      metadataPort: number;
      controlUrl: string;
    };
    /** The scripted model server (test/support/planner-server.ts). */
    planner: { url: string };
    /** The connector contract servers (test/support/contract/server.ts). */
    contract: {
      endpoints: { gmail: string; calendar: string; github: string; braveSearch: string };
      controlUrl: string;
    };
    /** Google's and GitHub's OAuth endpoints (test/support/oauth-contract-server.ts). */
    oauth: { url: string };
  }
}
