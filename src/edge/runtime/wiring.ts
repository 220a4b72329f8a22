// Builds the turn kernel's ports from the Worker's bindings: D1, the conveyor's registry and executor
// (egress through the SSRF guard), the provider and planner from config, the user's hub.
import { writeAuditBatch } from "../audit/audit-log.ts";
import { connectorDeps } from "../connectors/wiring.ts";
import { egressConfig } from "../conveyor/egress/config.ts";
import { createEgress } from "../conveyor/egress/guard.ts";
import { Executor } from "../conveyor/executor.ts";
import { toolRegistry } from "../conveyor/registry.ts";
import { openDb } from "../db/client.ts";
import { TurnKernel } from "./kernel.ts";
import { knownSecrets } from "./model-input.ts";
import { modelToolSpecs } from "./model-tools.ts";
import { Planner } from "./planner.ts";
import type { KernelPorts } from "./ports.ts";
import { ModelProvider, type ProviderDeps } from "./provider.ts";
import { providerConfig } from "./provider-config.ts";
import { runtimeHub } from "./runtime-hub.ts";

export function kernelPorts(
  env: Env,
  extra: Partial<KernelPorts> & { provider?: ProviderDeps } = {},
): KernelPorts {
  const db = openDb(env.DB);
  const registry = toolRegistry({ connectors: connectorDeps(env) });
  const config = providerConfig(env);
  const planner = config.ok
    ? new Planner(new ModelProvider(config.config, extra.provider), registry, modelToolSpecs(registry))
    : null;
  return {
    db,
    registry,
    executor: new Executor({
      db,
      registry,
      egress: createEgress(egressConfig(env)),
      audit: (entries) => writeAuditBatch(db, entries),
    }),
    planner,
    plannerProblem: config.ok ? "" : config.message,
    hub: (userId) => runtimeHub(env, userId),
    secrets: knownSecrets(env),
    now: Date.now,
    ...extra,
  };
}

export function turnKernel(env: Env): TurnKernel {
  return new TurnKernel(kernelPorts(env));
}
