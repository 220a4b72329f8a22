// Wrangler's offline DNS noise is dropped from `npm run dev` and `airlock deploy` output, block by block, however the
// stream is chunked; every other line passes unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OfflineNoiseFilter, withoutOfflineNoise } from "../../../src/companion/deploy/offline-noise.ts";

const NOISE = [
  "✘ [ERROR] Error: getaddrinfo ENOTFOUND registry.npmjs.org",
  "    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:120:26) {",
  "  errno: -3008,",
  "  code: 'ENOTFOUND',",
  "  syscall: 'getaddrinfo',",
  "  hostname: 'registry.npmjs.org'",
  "}",
].join("\n");
const BEFORE = "⎔ Starting local server...";
const AFTER = "[wrangler:info] Ready on http://127.0.0.1:8788";
const TEXT = `${BEFORE}\n${NOISE}\n${AFTER}\n${NOISE}\n${AFTER}\n`;
const CLEAN = `${BEFORE}\n${AFTER}\n${AFTER}\n`;

describe("offline noise", () => {
  it("drops each getaddrinfo block and counts it, keeping the lines around it", () => {
    const filter = new OfflineNoiseFilter();
    expect(filter.push(TEXT) + filter.flush()).toBe(CLEAN);
    expect(filter.dropped).toBe(2);
  });

  it("keeps an error that is not offline noise, stack included", () => {
    const real = "✘ [ERROR] Build failed\n    at build (file.js:1:1)\n";
    expect(withoutOfflineNoise(real)).toBe(real);
  });

  it("gives the same answer however the stream is cut into chunks", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: TEXT.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), TEXT.length];
        const filter = new OfflineNoiseFilter();
        let out = "";
        for (let i = 1; i < points.length; i++) out += filter.push(TEXT.slice(points[i - 1], points[i]));
        expect(out + filter.flush()).toBe(CLEAN);
      }),
    );
  });
});
