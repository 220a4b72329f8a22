// The Worker as the tests run it (vitest's workerd, and `wrangler dev` in e2e via AIRLOCK_DEV_ENTRY): the
// production entry, plus the one thing production can never have: the conveyor may reach the local
// target server on 127.0.0.1:TEST_TARGET_PORT (and nothing else on loopback).
import { env } from "cloudflare:workers";
import { allowLoopbackTargetsForTests } from "../../src/edge/conveyor/egress/config.ts";

const port = Number(env.TEST_TARGET_PORT);
if (Number.isInteger(port) && port > 0) allowLoopbackTargetsForTests([{ address: "127.0.0.1", port }]);

export * from "../../src/edge/index.ts";
export { default } from "../../src/edge/index.ts";
