// README is the front page: at most 25 kB, its quick start is the walk test/e2e/quick-start.test.ts takes, and every
// topic in docs/ (and every picture it shows) is linked and exists.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

describe("README", () => {
  it("is a front page of at most 25 kB", () => {
    expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(25_000);
  });

  it("links every docs/ topic, and every link and picture it has resolves", () => {
    for (const f of readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md")))
      expect(README, `docs/${f} is not linked`).toContain(`(docs/${f}`);
    for (const [, target] of README.matchAll(/\]\(((?:docs\/)[^)#]+)(?:#[^)]*)?\)/g))
      expect(existsSync(join(ROOT, target as string)), `${target} is missing`).toBe(true);
  });

  it("walks the quick start in order: install, dev, pair phone, pair machine, init, try, approve, agent", () => {
    const steps = [
      "npm install",
      "npm run dev",
      "Pair this device",
      "airlock -- pair",
      "airlock -- init",
      "airlock -- try",
      "Allow once",
      "Run a real agent",
    ];
    let at = README.indexOf("## Quick start");
    for (const step of steps) {
      const next = README.indexOf(step, at);
      expect(next, `"${step}" after position ${at}`).toBeGreaterThan(at);
      at = next;
    }
  });
});
