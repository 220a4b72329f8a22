// Access tokens the contract servers accept: they name their provider, account and generation, so the
// servers need no token table and a refreshed token is visibly a new one. Shared by the in-memory
// connections port (test/support/memory-connections.ts) and the servers.
export type TokenProvider = "google" | "github";

export function testToken(provider: TokenProvider, account: string, generation: number): string {
  return `tk_${provider}_${generation}_${encodeURIComponent(account)}`;
}

export function parseTestToken(
  header: string | undefined,
): { provider: TokenProvider; account: string; generation: number; token: string } | null {
  const m = /^Bearer (tk_(google|github)_(\d+)_(\S+))$/.exec(header ?? "");
  if (!m?.[1] || !m[2] || !m[3] || !m[4]) return null;
  return {
    token: m[1],
    provider: m[2] as TokenProvider,
    generation: Number(m[3]),
    account: decodeURIComponent(m[4]),
  };
}
