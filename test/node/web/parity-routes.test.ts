// `npm run parity` compares every view's path and the deep links a phone opens, not only `/`: its route list
// stays equal to the dashboard's own views (web/src/route.ts), so a new view is compared from its first day.
import { describe, expect, it } from "vitest";
import { HTML_ROUTES } from "../../../scripts/parity.mjs";
import { pathOf, routes } from "../../../web/src/route.ts";

describe("parity routes", () => {
  it("names every view of the dashboard", () => {
    for (const route of routes) {
      const path = pathOf[route];
      if (path === "/") continue; // compared by the page-and-headers rows of `/`
      expect(HTML_ROUTES).toContain(path);
    }
  });

  it("includes the deep links a phone opens first", () => {
    expect(HTML_ROUTES).toEqual(expect.arrayContaining(["/pair?code=12345678", "/?prompt=prm_parity"]));
    expect(HTML_ROUTES.some((r) => /^\/(proposals|jobs)\/./.test(r))).toBe(true);
  });
});
