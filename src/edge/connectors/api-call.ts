// A connector call's connection: opened once per run from the port (the only way to a token), it signs
// each request, refreshes once after a 401, and records "last used". The token never leaves this object.
import { failed, type ToolOutcome } from "../conveyor/tool.ts";
import { type ConnectorDeps, identityWords, providerName } from "./deps.ts";
import { type ApiAnswer, type ApiRequest, type Credential, exchange } from "./exchange.ts";
import type { ConnectionAccess, ConnectorIdentity, ConnectorProvider } from "./port.ts";

export interface SessionTarget {
  userId: string;
  provider: ConnectorProvider;
  identity: ConnectorIdentity;
  /** OAuth scopes any one of which allows the call, least privileged first (named when missing); [] = any. */
  scopes: readonly string[];
}

export class ConnectorSession {
  private access: ConnectionAccess;
  private readonly deps: ConnectorDeps;
  private readonly target: SessionTarget;
  private used = false;

  private constructor(deps: ConnectorDeps, target: SessionTarget, access: ConnectionAccess) {
    this.deps = deps;
    this.target = target;
    this.access = access;
  }

  /** The account the call acts as (an email for Google, a login for GitHub). */
  get account(): string {
    return this.access.account;
  }

  static async open(deps: ConnectorDeps, target: SessionTarget): Promise<ConnectorSession | ToolOutcome> {
    const name = providerName(target.provider);
    const access = await deps.tokens.access(target.userId, target.provider, target.identity);
    // The port answers for exactly this identity; anything else is treated as no connection at all.
    if (!access || access.identity !== target.identity || access.provider !== target.provider) {
      return failed(
        "permission_denied",
        `Connect ${name} first: there is no ${name} connection ${identityWords(target.identity)}.`,
        {
          remediation: `Open Connections on the phone and connect ${name} ${identityWords(target.identity)}.`,
        },
      );
    }
    // Known scopes are checked before any call; an empty list (a GitHub App token) is left to the provider.
    if (lacks(access, target.scopes)) return missingScope(target);
    return new ConnectorSession(deps, target, access);
  }

  /**
   * A call that needs more than the session's scopes (a reply also reads the original's headers): refused before
   * any request when the connection is known to lack all of `scopes`, naming the first; null when it may proceed.
   */
  alsoNeeds(scopes: readonly string[]): ToolOutcome | null {
    return lacks(this.access, scopes) ? missingScope({ ...this.target, scopes }) : null;
  }

  request(req: ApiRequest): Promise<ApiAnswer> {
    return exchange(this.credential(), req);
  }

  private credential(): Credential {
    const { target, deps } = this;
    const title = providerName(target.provider);
    return {
      title,
      kind: target.provider,
      headers: () => ({
        authorization: `Bearer ${this.access.accessToken}`,
        ...(target.provider === "github"
          ? {
              accept: "application/vnd.github+json",
              "x-github-api-version": "2022-11-28",
              "user-agent": "airlock-connectors",
            }
          : {}),
      }),
      refresh: async () => {
        const next = await deps.tokens.refreshAfterUnauthorized(target.userId, this.access.connectionId);
        if (!next || next.identity !== target.identity) return false;
        this.access = next;
        return true;
      },
      refused: () =>
        failed(
          "permission_denied",
          `${title} refused the connection ${identityWords(target.identity)} (HTTP 401) even after a refresh.`,
          { remediation: `Reconnect ${title} on the phone (Connections).` },
        ),
      missingScope: (scopes) => missingScope(scopes ? { ...target, scopes } : target),
      used: async () => {
        if (this.used) return;
        this.used = true;
        // "Last used" is a convenience: failing to record it never fails the call.
        await deps.tokens
          .markUsed(target.userId, this.access.connectionId)
          .catch((error: unknown) =>
            console.error("[connectors] markUsed failed:", error instanceof Error ? error.message : "error"),
          );
      },
      sleep: deps.sleep,
    };
  }
}

/** Known scopes that include none of `needed` (unknown scopes, or no need, are left to the provider). */
const lacks = (access: ConnectionAccess, needed: readonly string[]) =>
  needed.length > 0 && access.scopes.length > 0 && !needed.some((s) => access.scopes.includes(s));

function missingScope(t: SessionTarget): ToolOutcome {
  const name = providerName(t.provider);
  const first = t.scopes[0] ?? "the scope the call needs";
  const others = t.scopes.length > 1 ? ` (or one of ${t.scopes.slice(1).join(", ")})` : "";
  return failed(
    "permission_denied",
    `The ${name} connection ${identityWords(t.identity)} lacks the scope ${first}${others}.`,
    { remediation: `Reconnect ${name} on the phone and grant ${first}.` },
  );
}
