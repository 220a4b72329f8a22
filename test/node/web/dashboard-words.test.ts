// Pure helpers of the dashboard: default device names, the words a prompt card shows, who decided, the tab title.
import { describe, expect, it } from "vitest";
import { deviceNameFromUserAgent } from "../../../web/src/device-name.ts";
import { deciderWords } from "../../../web/src/devices-cache.ts";
import {
  batchLabel,
  capabilityLabel,
  confirmQuestion,
  decisionButtonLabel,
  decisionOrder,
  formatRemaining,
  scopePreview,
} from "../../../web/src/labels.ts";
import { titleFor } from "../../../web/src/title-badge.ts";

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
    expect(confirmQuestion({ capability: "exec", callIds: ["a", "b", "c"] })).toBe(
      "Confirm: allow Run commands for all 3 calls?",
    );
    expect(confirmQuestion({ capability: "exec", callIds: ["a"] })).toBe("Confirm: allow Run commands?");
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

describe("batch and long-command words", () => {
  it("puts the batch size on the allow buttons", () => {
    expect(decisionButtonLabel("allow_once", 1)).toBe("Allow once");
    expect(decisionButtonLabel("allow_once", 10)).toBe("Allow once (all 10)");
    expect(decisionButtonLabel("deny_once", 10)).toBe("Deny");
  });
});

describe("who decided", () => {
  const devices = [
    {
      id: "dev_a",
      name: "Pixel 8",
      kind: "browser" as const,
      role: "approver" as const,
      created_at: "",
      last_seen_at: null,
      revoked_at: null,
      current: false,
    },
  ];
  it.each([
    [{ actor: "device:dev_me", deviceId: "dev_me" }, "by this device"],
    [{ actor: "device:dev_a", deviceId: "dev_a" }, "by Pixel 8"],
    [{ actor: "device:dev_gone", deviceId: "dev_gone" }, "by a removed device"],
    [{ actor: "timeout", deviceId: null }, "no answer in time"],
    [{ actor: "api", deviceId: null }, "by the API"],
  ])("%j -> %s", (decidedBy, words) => {
    expect(deciderWords(decidedBy, devices, "dev_me")).toBe(words);
  });

  it("never shows a raw device id", () => {
    expect(
      deciderWords({ actor: "device:dev_Xyz123", deviceId: "dev_Xyz123" }, devices, "dev_me"),
    ).not.toContain("dev_");
  });
});

describe("tab title", () => {
  it("counts pending prompts", () => {
    expect(titleFor(0)).toBe("Airlock");
    expect(titleFor(3)).toBe("(3) Airlock");
  });
});

describe("views over newer APIs", () => {
  it("reads a precognition report and totals a workspace", async () => {
    const { FuturesStatsList, totals } = await import("../../../web/src/precog-stats.ts");
    const report = FuturesStatsList.parse({
      devices: [
        {
          deviceId: "dev_x",
          receivedAt: "2030-01-01T00:00:00.000Z",
          stats: {
            enabled: true,
            injectionMode: "silent-futures",
            toolCache: true,
            commandFutures: true,
            generatedAt: "2030-01-01T00:00:00.000Z",
            workspaces: [
              {
                workspaceId: "w1",
                name: "app",
                files: 10,
                futures: 2,
                overflows: 0,
                classes: [
                  {
                    class: "read",
                    warms: 3,
                    hits: 2,
                    misses: { stale: 1, no_future: 2 },
                    staleRejections: 1,
                    savedMs: 1500,
                  },
                  {
                    class: "bash:npm test",
                    warms: 1,
                    hits: 1,
                    misses: {},
                    staleRejections: 0,
                    savedMs: 9000,
                  },
                ],
              },
            ],
          },
        },
      ],
    });
    const workspace = report.devices[0]?.stats.workspaces[0];
    if (!workspace) throw new Error("no workspace parsed");
    expect(totals(workspace)).toEqual({ hits: 3, misses: 3, stale: 1, savedMs: 10_500 });
  });

  it("shows a proposal's backend summary", async () => {
    const { summaryText } = await import("../../../web/src/proposal-summary.ts");
    expect(
      summaryText({ summary: { what: "POST /issues", where: "api.github.com", impact: "creates an issue" } }),
    ).toBe("POST /issues · api.github.com · creates an issue");
    expect(summaryText({ summary: "old text" })).toBe("old text");
  });
});
