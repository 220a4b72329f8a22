// Which WebAuthn relying party a request's host uses. By default each host is its own RP (its hostname), so a
// passkey works only where it was registered. With AIRLOCK_PASSKEY_RP_ID set, the hosts under that domain and the
// origins in AIRLOCK_PASSKEY_ORIGINS share that one RP ID: browsers that support related origins (WebAuthn Level 3,
// §5.11) fetch https://<RP ID>/.well-known/webauthn and let a listed origin use it.

export interface RelyingPartyEnv {
  AIRLOCK_PASSKEY_RP_ID?: string;
  AIRLOCK_PASSKEY_ORIGINS?: string;
}

export interface RelyingParty {
  /** The RP ID the ceremony uses and the passkey is saved under. */
  rpID: string;
  /** The origin the browser reports in clientDataJSON (the request's own). */
  origin: string;
}

/** The configured shared RP ID, lower-cased; "" when none (every host its own RP). */
export function sharedRpId(env: RelyingPartyEnv): string {
  return (env.AIRLOCK_PASSKEY_RP_ID ?? "").trim().toLowerCase().replace(/\.$/, "");
}

/** The configured related origins, each normalised to scheme://host[:port]; entries that are not http(s) URLs are left out. */
export function relatedOrigins(env: RelyingPartyEnv): string[] {
  const origins = new Set<string>();
  for (const entry of (env.AIRLOCK_PASSKEY_ORIGINS ?? "").split(",")) {
    const text = entry.trim();
    if (!text) continue;
    try {
      const url = new URL(text);
      if (url.protocol === "https:" || url.protocol === "http:") origins.add(url.origin);
    } catch {
      // A typo in the list must not take passkeys down for the hosts spelled right.
    }
  }
  return [...origins];
}

const underDomain = (hostname: string, domain: string) =>
  hostname === domain || hostname.endsWith(`.${domain}`);

/** The RP for a request to `url` (the host the browser sees: the Worker's, or the Pages domain forwarding to it). */
export function relyingPartyFor(env: RelyingPartyEnv, url: string): RelyingParty {
  const { hostname, origin } = new URL(url);
  const shared = sharedRpId(env);
  if (shared && (underDomain(hostname, shared) || relatedOrigins(env).includes(origin)))
    return { rpID: shared, origin };
  return { rpID: hostname, origin };
}
