// When a returning dashboard locks again (web/src/app-lock-store.ts): only after it was hidden for the whole idle
// window; a page that was never hidden, or came back sooner, stays as it was.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { APP_LOCK_IDLE_MS, lockDue } from "../../../web/src/app-lock-store.ts";

describe("lockDue", () => {
  it.each([
    [null, 10 * APP_LOCK_IDLE_MS, false],
    [0, APP_LOCK_IDLE_MS - 1, false],
    [0, APP_LOCK_IDLE_MS, true],
    [1_000, 1_000 + 60 * 60_000, true],
  ])("hidden at %s, shown at %s → %s", (hiddenAt, now, due) => {
    expect(lockDue(hiddenAt, now)).toBe(due);
  });

  it("is due exactly when the page was away for at least the window", () => {
    fc.assert(
      fc.property(
        fc.nat(2 ** 40),
        fc.nat(2 ** 32),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (at, away, idle) => {
          expect(lockDue(at, at + away, idle)).toBe(away >= idle);
        },
      ),
    );
  });
});
