// `airlock grants list|revoke` as a person runs them: every kind listed with what it covers and where it came
// from (text and --json), revoke by id, the edge's 403 for a non-approver token explained, a missing token and
// a missing id told apart by their exit codes. The edge here is a loopback server speaking its contract.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GrantList } from "../../../src/protocol/grants.ts";
import { ensureBuilt, runAirlock, type Sandbox, sandbox } from "./support/sandbox.ts";

const LIST: GrantList = {
  grants: [
    {
      id: "grt_agentAAAAAAAAAAA",
      agent_id: "claude-code",
      capability: "read",
      match: "exact",
      scope_pattern: "/work/repo/src/a.ts",
      scope_hash: "h",
      version_range: "~2.1.0",
      effect: "allow",
      covers: "Allows read exactly /work/repo/src/a.ts for agent claude-code ~2.1.0",
      created_at: "2030-01-01T00:00:00.000Z",
      created_by: "dev_phoneAAAAAAAAAAA",
      prompt_id: "prm_cardAAAAAAAAAAAA",
      last_used_at: null,
    },
  ],
  conveyor_grants: [
    {
      id: "grt_proposalAAAAAAAA",
      tool: "http.request",
      scope: "POST api.example.com/hooks/build",
      risk_class: "WRITE",
      identity: "bot",
      effect: "allow",
      covers: "Allows http.request POST api.example.com/hooks/build as bot, WRITE only",
      created_at: "2030-01-02T00:00:00.000Z",
      created_by: "dev_phoneAAAAAAAAAAA",
      prompt_id: "prm_otherAAAAAAAAAAA",
      last_used_at: "2030-01-03T00:00:00.000Z",
    },
  ],
  session_grants: [],
};

const APPROVER = "alk_approver.secret";
let server: Server;
let base: string;
let box: Sandbox;
const deleted: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${APPROVER}`)
      return send(403, { error: { code: "forbidden", message: "This action needs an approver device." } });
    if (req.method === "GET" && req.url === "/v1/grants") return send(200, LIST);
    const revoke = req.url?.match(/^\/v1\/grants\/(grt_\w+)$/);
    if (req.method === "DELETE" && revoke?.[1] === "grt_proposalAAAAAAAA") {
      deleted.push(revoke[1]);
      return send(200, { deleted: true });
    }
    send(404, { error: { code: "not_found", message: "No such grant." } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  box = sandbox({ AIRLOCK_SERVER: base });
}, 240_000);

afterAll(() => {
  server?.close();
  box?.cleanup();
});

const run = (args: string[], token?: string) =>
  runAirlock(["grants", ...args], { ...box.env, ...(token ? { AIRLOCK_APPROVER_TOKEN: token } : {}) });

describe("airlock grants", () => {
  it("lists every kind with what it covers, who saved it, when, from which card and last use", async () => {
    const text = await run(["list"], APPROVER);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("grt_proposalAAAAAAAA  proposal");
    expect(text.stdout).toContain(
      "covers     Allows http.request POST api.example.com/hooks/build as bot, WRITE only",
    );
    expect(text.stdout).toContain("from prm_otherAAAAAAAAAAA");
    expect(text.stdout).toContain("last used  never");
    const json = await run(["list", "--json"], APPROVER);
    expect(JSON.parse(json.stdout)).toEqual(LIST);
  });

  it("revokes one by id; an unknown id is the edge's 404 (exit 1)", async () => {
    const ok = await run(["revoke", "grt_proposalAAAAAAAA", "--json"], APPROVER);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ id: "grt_proposalAAAAAAAA", deleted: true });
    expect(deleted).toEqual(["grt_proposalAAAAAAAA"]);
    const missing = await run(["revoke", "grt_nopeAAAAAAAAAAAA"], APPROVER);
    expect(missing.code).toBe(1);
  });

  it("a non-approver token is refused and told why; no token and no id are their own exit codes", async () => {
    const refused = await run(["list"], "alk_companion.secret");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/approver token/);
    expect((await run(["list"])).code).toBe(3);
    expect((await run(["revoke"], APPROVER)).code).toBe(2);
  });
});
