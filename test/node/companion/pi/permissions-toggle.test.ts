// The Pi session's /permissions state is read back from its own entries: the newest valid one on the branch wins.
import { describe, expect, it } from "vitest";
import {
  gatedOnBranch,
  PERMISSIONS_ENTRY,
} from "../../../../src/companion/adapters/pi/permissions-toggle.ts";

const entry = (data: unknown, customType = PERMISSIONS_ENTRY) => ({
  type: "custom",
  id: "e",
  customType,
  data,
});
const message = { type: "message", id: "m", message: { role: "user", content: "hi" } };

describe("gatedOnBranch", () => {
  it("is gated when the session never toggled", () => {
    expect(gatedOnBranch([])).toBe(true);
    expect(gatedOnBranch([message])).toBe(true);
  });

  it("follows the newest entry of the branch", () => {
    expect(gatedOnBranch([message, entry({ gated: false }), message])).toBe(false);
    expect(gatedOnBranch([entry({ gated: false }), message, entry({ gated: true })])).toBe(true);
  });

  it("ignores other extensions' entries and malformed data, falling back to an older valid entry", () => {
    const branch = [
      entry({ gated: false }),
      entry({ gated: true }, "permissions-state"),
      entry({ gated: "no" }),
      entry(null),
    ];
    expect(gatedOnBranch(branch)).toBe(false);
  });
});
