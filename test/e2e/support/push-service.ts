// A local stand-in for the browser's push service (Chromium's own needs Google's servers): an HTTP server that
// receives the Worker's encrypted pushes, a PushManager stub that subscribes pages with real P-256 keys and that
// server's endpoint, decryption with http_ece, and delivery to the service worker over CDP.
import { createECDH } from "node:crypto";
import { createServer, type Server } from "node:http";
import ece from "http_ece";
import type { BrowserContext, Page } from "playwright-core";
import { WAIT_MS } from "./dashboard.ts";

export interface Delivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class LocalPushService {
  readonly deliveries: Delivery[] = [];
  #server: Server | null = null;
  #listeners: (() => void)[] = [];
  port = 0;

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.deliveries.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(201).end();
        for (const listener of this.#listeners) listener();
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", () => resolve()));
    const address = this.#server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
    return this;
  }

  endpoint(name: string): string {
    return `http://127.0.0.1:${this.port}/push/${name}`;
  }

  /** The delivery with this index (0 = the first ever), once it arrived. */
  delivery(index: number): Promise<Delivery> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no push delivery #${index} in time`)), WAIT_MS);
      const check = () => {
        const found = this.deliveries[index];
        if (!found) return;
        clearTimeout(timer);
        this.#listeners = this.#listeners.filter((l) => l !== check);
        resolve(found);
      };
      this.#listeners.push(check);
      check();
    });
  }

  stop(): void {
    this.#server?.close();
  }
}

/** Makes PushManager.subscribe in this context hand out `endpoint` with fresh real keys (kept on window). */
export async function stubPushManager(context: BrowserContext, endpoint: string): Promise<void> {
  await context.addInitScript((pushEndpoint: string) => {
    let current: PushSubscription | null = null;
    const toB64 = (bytes: ArrayBuffer | Uint8Array) =>
      btoa(String.fromCharCode(...new Uint8Array(bytes)))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "");
    PushManager.prototype.getSubscription = async () => current;
    PushManager.prototype.subscribe = async () => {
      const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
        "deriveBits",
      ])) as CryptoKeyPair;
      const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
      const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
      const auth = toB64(crypto.getRandomValues(new Uint8Array(16)));
      (window as unknown as { __pushKeys: unknown }).__pushKeys = { d: jwk.d, auth };
      const keys = { p256dh: toB64(raw), auth };
      current = {
        endpoint: pushEndpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => ({ endpoint: pushEndpoint, expirationTime: null, keys }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      } as unknown as PushSubscription;
      return current;
    };
  }, endpoint);
}

export interface PushKeys {
  d: string;
  auth: string;
}

/** The private keys the stub gave the page when it subscribed (read them before the page navigates away). */
export async function pushKeysOf(page: Page): Promise<PushKeys> {
  return page.evaluate(() => (window as unknown as { __pushKeys: PushKeys }).__pushKeys);
}

/** Decrypts a delivery with the subscription's keys (RFC 8291 aes128gcm). */
export function decryptDelivery(keys: PushKeys, delivery: Delivery): string {
  const receiver = createECDH("prime256v1");
  receiver.setPrivateKey(Buffer.from(keys.d, "base64url"));
  return ece
    .decrypt(delivery.body, { version: "aes128gcm", privateKey: receiver, authSecret: keys.auth })
    .toString("utf8");
}

/** Hands a push message to the page's service worker, as the browser's push service would. */
export async function deliverToWorker(page: Page, origin: string, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registration = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => {
      const found = event.registrations.find((r) => r.scopeURL === `${origin}/`);
      if (found) resolve(found.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin,
    registrationId: await registration,
    data,
  });
  // Not detached: detaching a page's CDP session also ends the virtual authenticator environment another session
  // set up on it (addVirtualAuthenticator), and WebAuthn calls after it fail. The session ends with its context.
}
