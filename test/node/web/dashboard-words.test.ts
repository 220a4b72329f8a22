// Pure helpers of the dashboard: reconnect backoff, default device names, and the words a prompt card shows.
import { describe, expect, it } from "vitest";
import { BACKOFF_CAP_MS, reconnectDelay } from "../../../web/src/backoff.ts";
import { deviceNameFromUserAgent } from "../../../web/src/device-name.ts";
import {
  batchLabel,
  capabilityLabel,
  confirmQuestion,
  decisionOrder,
  formatRemaining,
  scopePreview,
} from "../../../web/src/labels.ts";

describe("reconnectDelay", () => {
  it.each([
    [0, 0, 250],
    [0, 0.999, 500],
    [1, 0, 500],
    [3, 0.5, 3000],
    [5, 0, 5000],
    [5, 1, BACKOFF_CAP_MS],
    [40, 1, BACKOFF_CAP_MS],
  ])("attempt %i, random %f -> %i ms", (attempt, random, expected) => {
    expect(reconnectDelay(attempt, random)).toBe(expected);
  });

  it("grows from half a second and never passes the 10 s cap", () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      const delay = reconnectDelay(attempt);
      expect(delay).toBeGreaterThanOrEqual(250);
      expect(delay).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    }
  });
});

describe("deviceNameFromUserAgent", () => {
  it.each([
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
      "Safari on iPhone",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0",
      "Edge on Windows",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0", "Firefox on Linux"],
    ["curl/8.0", "Browser"],
  ])("%s -> %s", (ua, name) => {
    expect(deviceNameFromUserAgent(ua)).toBe(name);
  });
});

describe("prompt words", () => {
  const prompt = {
    capability: "exec" as const,
    scopes: [
      { kind: "command" as const, summary: "git status" },
      { kind: "command" as const, summary: "git commit ..." },
    ],
    moreScopes: 1,
  };

  it("names every capability for a person", () => {
    expect(capabilityLabel.exec).toBe("Run commands");
    expect(capabilityLabel.write).toBe("Write files");
    expect(capabilityLabel.http).toBe("Network access");
    expect(capabilityLabel.read).toBe("Read files");
  });

  it("shows up to three scopes then +N more", () => {
    expect(scopePreview(prompt)).toEqual({ shown: ["git status", "git commit ..."], more: 1 });
    const five = Array.from({ length: 5 }, (_, i) => ({ kind: "path" as const, summary: `f${i}` }));
    expect(scopePreview({ scopes: five, moreScopes: 2 })).toEqual({ shown: ["f0", "f1", "f2"], more: 4 });
  });

  it("counts the batch", () => {
    expect(batchLabel(1)).toBe("1 pending call");
    expect(batchLabel(3)).toBe("3 pending calls");
  });

  it("states the high-risk confirm question plainly", () => {
    expect(confirmQuestion(prompt)).toBe(
      "Confirm: allow Run commands for git status, git commit ... (+1 more)?",
    );
  });

  it("puts the least-privileged allow first", () => {
    expect(decisionOrder[0]).toBe("allow_once");
    expect(decisionOrder).toHaveLength(5);
  });

  it("formats the countdown and never goes negative", () => {
    expect(formatRemaining(29_001)).toBe("0:30");
    expect(formatRemaining(61_000)).toBe("1:01");
    expect(formatRemaining(-5)).toBe("0:00");
  });
});
