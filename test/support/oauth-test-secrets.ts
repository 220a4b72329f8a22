// The Worker secrets of connections as tests set them: the contract server's OAuth clients and a one-key ring.
import { TEST_CLIENTS } from "./oauth-contract-server.ts";

/** A 32-byte AES key, base64, under id "k1" (a rotation test adds "k2" in front). */
export const TEST_OAUTH_KEY = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

export const OAUTH_TEST_SECRETS = {
  AIRLOCK_OAUTH_KEYS: TEST_OAUTH_KEY,
  AIRLOCK_GOOGLE_CLIENT_ID: TEST_CLIENTS.google.id,
  AIRLOCK_GOOGLE_CLIENT_SECRET: TEST_CLIENTS.google.secret,
  AIRLOCK_GITHUB_CLIENT_ID: TEST_CLIENTS.github.id,
  AIRLOCK_GITHUB_CLIENT_SECRET: TEST_CLIENTS.github.secret,
};
