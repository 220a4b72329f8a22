// Remote MCP test helpers: an MCP client's side of OAuth (register, PKCE, token) against the real Worker,
// the person's side (consent with the session cookie), and JSON-RPC over streamable HTTP.
import { device } from "../approvals-helpers.ts";
import { api, ORIGIN } from "../helpers.ts";

export const RESOURCE = `${ORIGIN}/mcp`;
export const REDIRECT = "https://client.example/callback";

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

export async function pkce() {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

export async function register(name = "Claude Desktop", redirect = REDIRECT): Promise<string> {
  const res = await api("/oauth/register", {
    method: "POST",
    json: {
      client_name: name,
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

export function authorizeQuery(
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
): string {
  return new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: "airlock:tools airlock:approvals",
    state: "st-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: RESOURCE,
    ...extra,
  }).toString();
}

/** The phone's browser: the session cookie (and the consent page's own cookie once set), from its origin. */
export function browser(sessionToken: string) {
  const jar = new Map<string, string>([["airlock_session", sessionToken]]);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  return {
    get: async (path: string) => keep(await api(path, { headers: { cookie: cookie() } })),
    post: async (path: string, json: unknown) =>
      keep(await api(path, { method: "POST", headers: { cookie: cookie(), origin: ORIGIN }, json })),
  };
}

export type Phone = ReturnType<typeof browser>;

/** The person reads the request on the consent page and approves it with these scopes. */
export async function consent(
  phone: Phone,
  query: string,
  scopes = ["airlock:tools", "airlock:approvals"],
): Promise<URL> {
  const view = await phone.get(`/v1/mcp/consent?${query}`);
  if (view.status !== 200) throw new Error(`consent view: ${view.status} ${await view.text()}`);
  const { handle } = (await view.json()) as { handle: string };
  const answer = await phone.post("/v1/mcp/consent", { handle, decision: "approve", scopes });
  if (answer.status !== 200) throw new Error(`consent: ${answer.status} ${await answer.text()}`);
  return new URL(((await answer.json()) as { redirect_to: string }).redirect_to);
}

export async function exchange(clientId: string, code: string, verifier: string, resource = RESOURCE) {
  return api("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource,
    }).toString(),
  });
}

/** A user with a phone and a companion, and an MCP client authorized by the phone: its access token. */
export async function connectedClient(scopes?: string[]) {
  const d = await device();
  const phone = browser(d.approver.token);
  const clientId = await register();
  const { verifier, challenge } = await pkce();
  const back = await consent(phone, authorizeQuery(clientId, challenge), scopes);
  const code = back.searchParams.get("code") ?? "";
  const res = await exchange(clientId, code, verifier);
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string; refresh_token: string }).access_token;
  return { d, phone, clientId, token };
}

let rpcId = 0;

/** One JSON-RPC request to /mcp as a streamable HTTP client sends it. */
export function mcp(token: string | null, method: string, params: unknown = {}) {
  rpcId += 1;
  return api("/mcp", {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    json: { jsonrpc: "2.0", id: rpcId, method, params },
  });
}

export const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "test-client", version: "1.0.0" },
};

export interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export async function callTool(token: string, name: string, args: Record<string, unknown>) {
  const res = await mcp(token, "tools/call", { name, arguments: args });
  if (res.status !== 200) throw new Error(`tools/call: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { result?: ToolResult; error?: unknown };
  if (!body.result) throw new Error(`tools/call error: ${JSON.stringify(body.error)}`);
  return body.result;
}
