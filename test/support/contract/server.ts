// The connector contract servers on 127.0.0.1: Gmail, Calendar, GitHub and Brave Search each on its own
// port (as each has its own host in production), one shared memory, and a control port for tests: seed
// mail and repositories, inject faults, read what was sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { json, readBody } from "../http-io.ts";
import { brave } from "./brave.ts";
import { braveError, type ErrorAnswer, githubError, googleError } from "./errors.ts";
import { github } from "./github.ts";
import { calendar, gmail, type SeedMail, seedMail } from "./google.ts";
import {
  type Answer,
  type ContractApi,
  ContractState,
  type Fault,
  type GitHubIssue,
  type Incoming,
} from "./state.ts";
import { parseTestToken, type TokenProvider } from "./tokens.ts";

/** A bearer issued elsewhere (the OAuth contract server's access tokens): its provider and account, or null. */
export type IssuedTokens = (token: string) => { provider: TokenProvider; account: string } | null;

interface Bearer {
  provider: TokenProvider;
  account: string;
  generation: number | null;
  kind: "test" | "oauth";
  token: string;
}

function bearerOf(header: string | undefined, issued: IssuedTokens | undefined): Bearer | null {
  const test = parseTestToken(header);
  if (test) return { ...test, kind: "test" };
  const value = /^Bearer (\S+)$/.exec(header ?? "")?.[1];
  const found = value && issued ? issued(value) : null;
  return found && value ? { ...found, generation: null, kind: "oauth", token: value } : null;
}

export interface ContractServers {
  endpoints: { gmail: string; calendar: string; github: string; braveSearch: string };
  controlUrl: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

function send(res: ServerResponse, answer: Answer) {
  if (answer.status === 204) {
    res.writeHead(204, answer.headers ?? {});
    res.end();
    return;
  }
  json(res, answer.status, answer.body, answer.headers ?? {});
}

async function incoming(req: IncomingMessage): Promise<Incoming> {
  const text = await readBody(req);
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return {
    method: req.method ?? "GET",
    url: new URL(req.url ?? "/", "http://x"),
    headers: req.headers,
    json: body,
  };
}

function faultAnswer(api: ContractApi, f: Fault): ErrorAnswer {
  const base =
    api === "github"
      ? githubError(f.status, f.kind)
      : api === "brave"
        ? braveError(f.status)
        : googleError(f.status, f.kind);
  return f.retryAfter === undefined
    ? base
    : { ...base, headers: { ...base.headers, "retry-after": String(f.retryAfter) } };
}

/**
 * `issued`: also accept the access tokens another server issued (the OAuth contract server's `introspect`), so a
 * test can call the APIs with the token a real OAuth flow obtained; a revoked or expired one answers 401.
 */
export async function startContractServers(issued?: IssuedTokens): Promise<ContractServers> {
  const state = new ContractState();
  const servers: Server[] = [];

  const api = (name: ContractApi, handle: (req: Incoming, account: string) => Answer | Promise<Answer>) => {
    const server = createServer(async (raw, res) => {
      const req = await incoming(raw);
      const path = `${req.url.pathname}${req.url.search}`;
      const token = name === "brave" ? null : bearerOf(raw.headers.authorization, issued);
      const expected = name === "github" ? "github" : "google";
      const record = (status: number) =>
        state.requests.push({
          api: name,
          method: req.method,
          path,
          account: token?.account ?? null,
          tokenGeneration: token?.generation ?? null,
          tokenKind: token?.kind ?? null,
          token: token?.token ?? null,
          status,
        });
      if (name !== "brave" && (!token || token.provider !== expected)) {
        const answer = name === "github" ? githubError(401) : googleError(401);
        record(401);
        return send(res, answer);
      }
      const fault = state.takeFault(name, token?.account ?? null, req.method, path);
      if (fault) {
        const answer = faultAnswer(name, fault);
        record(answer.status);
        return send(res, answer);
      }
      const answer = await handle(req, token?.account ?? "");
      record(answer.status);
      send(res, answer);
    });
    servers.push(server);
    return listen(server);
  };

  const endpoints = {
    gmail: await api("gmail", (req, account) => gmail(state, req, account)),
    calendar: await api("calendar", (req, account) => calendar(state, req, account)),
    github: await api("github", (req, account) => github(state, req, account)),
    braveSearch: await api("brave", (req) => brave(req)),
  };

  const control = createServer(async (raw, res) => {
    const req = await incoming(raw);
    const route = `${req.method} ${req.url.pathname}`;
    if (route === "POST /mail") return json(res, 200, seedMail(state, req.json as SeedMail));
    if (route === "POST /github/issue") {
      const issue = req.json as GitHubIssue & { repo: string };
      state.repo(issue.repo).set(issue.number, { ...issue, comments: issue.comments ?? [] });
      return json(res, 200, { ok: true });
    }
    if (route === "POST /fault") {
      const fault = req.json as Fault;
      state.faults.push({ ...fault, left: fault.times ?? 1 });
      return json(res, 200, { ok: true });
    }
    if (route === "GET /stats") {
      const account = req.url.searchParams.get("account");
      const mine = <T extends { account: string | null }>(list: T[]) =>
        account ? list.filter((x) => x.account === account) : list;
      return json(res, 200, {
        requests: mine(state.requests),
        sends: mine(state.sends),
        drafts: mine(state.drafts),
        comments: mine(state.comments),
        merges: mine(state.merges),
        pulls: mine(state.pulls),
        events: account ? (state.events.get(`${account}|${account}`) ?? []) : [],
      });
    }
    json(res, 404, { error: "no such control route" });
  });
  servers.push(control);
  const controlUrl = await listen(control);

  return {
    endpoints,
    controlUrl,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
