// The browser session cookie's attributes, in one place: pairing sets the cookie with them, and the parity probe
// (GET /v1/parity/cookie) sets a harmless cookie with the very same ones, so parity can compare them across URLs.
import type { CookieOptions } from "hono/utils/cookie";
import { TOKEN_TTL_MS } from "../../policy/deadlines.ts";

export function sessionCookieOptions(env: Env): CookieOptions {
  return {
    httpOnly: true,
    // Browsers drop a Secure cookie sent over plain http from anywhere but localhost; `npm run dev -- --lan`
    // (a phone on the LAN, http) turns this off for local development only.
    secure: env.AIRLOCK_COOKIE_SECURE !== "false",
    sameSite: "Strict",
    path: "/",
    maxAge: Math.floor(TOKEN_TTL_MS / 1000),
  };
}
