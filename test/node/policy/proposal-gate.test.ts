// The proposal gate, table-driven: emergency first, deny grants, risk classes, untrusted sources.
import { describe, expect, it } from "vitest";
import { type GateInput, NO_EMERGENCY, proposalGate } from "../../../src/policy/index.ts";

const base: GateInput = {
  tool: "http.request",
  riskClass: "WRITE",
  external: true,
  grant: undefined,
  grantCoversHigh: false,
  untrustedSource: false,
  emergency: NO_EMERGENCY,
};

describe("proposalGate", () => {
  it.each<[string, Partial<GateInput>, string, string?]>([
    ["an internal write runs", { external: false }, "allow", "none"],
    ["an external read runs", { riskClass: "READ" }, "allow", "none"],
    ["an external write asks", {}, "ask", "ask"],
    ["an exfiltration asks with confirmation", { riskClass: "EXFILTRATION" }, "ask", "ask_confirm"],
    ["a destructive action asks with confirmation", { riskClass: "DESTRUCTIVE" }, "ask", "ask_confirm"],
    ["HIGH asks with confirmation", { riskClass: "HIGH" }, "ask", "ask_confirm"],
    [
      "HIGH asks even with a grant when the tool does not accept grants",
      { riskClass: "HIGH", grant: "allow", grantClass: "HIGH" },
      "ask",
      "ask_confirm",
    ],
    [
      "HIGH runs with a grant for companion.run",
      { riskClass: "HIGH", grant: "allow", grantClass: "HIGH", grantCoversHigh: true },
      "allow",
      "none",
    ],
    [
      "DESTRUCTIVE never runs on a grant saved for another class",
      { riskClass: "DESTRUCTIVE", grant: "allow", grantClass: "WRITE", grantCoversHigh: true },
      "ask",
      "ask_confirm",
    ],
    [
      "DESTRUCTIVE runs on a grant saved for exactly DESTRUCTIVE",
      { riskClass: "DESTRUCTIVE", grant: "allow", grantClass: "DESTRUCTIVE" },
      "allow",
      "none",
    ],
    ["a write with an allow grant runs", { grant: "allow", grantClass: "WRITE" }, "allow", "none"],
    [
      "a WRITE grant never covers an EXFILTRATION: confirmation token",
      { riskClass: "EXFILTRATION", grant: "allow", grantClass: "WRITE" },
      "ask",
      "ask_confirm",
    ],
    [
      "an EXFILTRATION grant covers an EXFILTRATION",
      { riskClass: "EXFILTRATION", grant: "allow", grantClass: "EXFILTRATION" },
      "allow",
      "none",
    ],
    ["an allow grant without a class never stands in", { grant: "allow" }, "ask", "ask"],
    [
      "a webhook-started write asks despite a grant",
      { grant: "allow", grantClass: "WRITE", untrustedSource: true },
      "ask",
      "ask",
    ],
    ["a deny grant denies", { grant: "deny", riskClass: "READ" }, "deny"],
    [
      "a webhook-started proposal still honours a deny grant",
      { grant: "deny", untrustedSource: true },
      "deny",
    ],
    ["read-only mode denies a write", { emergency: { ...NO_EMERGENCY, readOnly: true } }, "deny"],
    [
      "read-only mode lets a read run",
      { riskClass: "READ", emergency: { ...NO_EMERGENCY, readOnly: true } },
      "allow",
      "none",
    ],
    [
      "high-impact off denies HIGH even with a grant",
      {
        riskClass: "HIGH",
        grant: "allow",
        grantClass: "HIGH",
        grantCoversHigh: true,
        emergency: { ...NO_EMERGENCY, disableHighImpact: true },
      },
      "deny",
    ],
    [
      "a blocked tool is denied",
      { riskClass: "READ", emergency: { ...NO_EMERGENCY, blockedTools: ["http.*"] } },
      "deny",
    ],
  ])("%s", (_name, patch, action, gate) => {
    const verdict = proposalGate({ ...base, ...patch });
    expect(verdict.action).toBe(action);
    if (gate && verdict.action !== "deny") expect(verdict.gate).toBe(gate);
  });
});
