// Conveyor grants cover exactly their key: never a higher or other risk class, never the other identity.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ConveyorGrantKey,
  type ConveyorGrantRule,
  matchConveyorGrants,
} from "../../../src/policy/conveyor-grants.ts";
import { NO_EMERGENCY, proposalGate } from "../../../src/policy/index.ts";
import type { RiskClass } from "../../../src/policy/risk-class.ts";

const CLASSES: RiskClass[] = ["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"];
const post = (riskClass: RiskClass, identity: "user" | "bot" = "bot"): ConveyorGrantKey => ({
  tool: "http.request",
  scope: "POST x.example/hook",
  riskClass,
  identity,
});
const allow = (key: ConveyorGrantKey, id = "grt_a"): ConveyorGrantRule => ({ id, ...key, effect: "allow" });

/** What the gate answers for a key, given saved rules (the conveyor's path, without I/O). */
function gate(rules: ConveyorGrantRule[], key: ConveyorGrantKey) {
  const hit = matchConveyorGrants(rules, key);
  return proposalGate({
    tool: key.tool,
    riskClass: key.riskClass,
    external: true,
    grant: hit?.effect,
    grantClass: hit?.rule.riskClass ?? null,
    grantCoversHigh: false,
    untrustedSource: false,
    emergency: NO_EMERGENCY,
  });
}

describe("conveyor grants know what they cover", () => {
  it("a WRITE grant (bodiless POST, always) never lets an EXFILTRATION POST to the same host run", () => {
    const rules = [allow(post("WRITE"))];
    expect(gate(rules, post("WRITE"))).toMatchObject({ action: "allow" });
    expect(gate(rules, post("EXFILTRATION"))).toMatchObject({ action: "ask", gate: "ask_confirm" });
  });

  it("a WRITE grant never covers DESTRUCTIVE", () => {
    expect(gate([allow(post("WRITE"))], post("DESTRUCTIVE"))).toMatchObject({ gate: "ask_confirm" });
  });

  it("a bot grant never covers the user identity, nor the other way round", () => {
    expect(matchConveyorGrants([allow(post("WRITE", "bot"))], post("WRITE", "user"))).toBeUndefined();
    expect(matchConveyorGrants([allow(post("WRITE", "user"))], post("WRITE", "bot"))).toBeUndefined();
  });

  it("an exact EXFILTRATION grant is the only thing that skips the confirmation token", () => {
    expect(gate([allow(post("EXFILTRATION"))], post("EXFILTRATION"))).toMatchObject({ action: "allow" });
  });

  it("a grant saved before grants knew their class covers nothing; its deny still holds", () => {
    const legacy = {
      id: "grt_l",
      tool: "http.request",
      scope: "POST x.example/hook",
      riskClass: null,
      identity: null,
    };
    expect(gate([{ ...legacy, effect: "allow" }], post("WRITE"))).toMatchObject({ action: "ask" });
    expect(gate([{ ...legacy, effect: "deny" }], post("WRITE"))).toMatchObject({ action: "deny" });
  });

  it("deny beats allow and holds for every class and identity of its scope", () => {
    const rules: ConveyorGrantRule[] = [
      allow(post("WRITE")),
      { ...allow(post("READ"), "grt_d"), effect: "deny" },
    ];
    for (const c of CLASSES) expect(matchConveyorGrants(rules, post(c, "user"))?.effect).toBe("deny");
  });

  it("property: an allow stands in only for a grant of exactly the call's tool, scope, class and identity", () => {
    const key = fc.record({
      tool: fc.constantFrom("http.request", "notify.send"),
      scope: fc.constantFrom("POST a/x", "POST b/x", "PUT a/x"),
      riskClass: fc.constantFrom(...CLASSES),
      identity: fc.constantFrom<"user" | "bot">("user", "bot"),
    });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 6 }), key, (saved, call) => {
        const rules = saved.map((k, i) => allow(k, `grt_${i}`));
        const verdict = gate(rules, call);
        const exact = saved.some(
          (k) =>
            k.tool === call.tool &&
            k.scope === call.scope &&
            k.riskClass === call.riskClass &&
            k.identity === call.identity,
        );
        if (verdict.action === "allow" && call.riskClass !== "READ") return exact;
        return true;
      }),
    );
  });
});
