// When a hosted turn must stop: the first of its limits reached, in order, and a zero money cap off.
import { describe, expect, it } from "vitest";
import { reachedBound } from "../../../src/domain/turn-budget.ts";

const limits = {
  max_tool_steps: 3,
  max_tool_tokens: 1000,
  max_context_messages: 10,
  max_wall_clock_s: 60,
  max_tokens: 5000,
  max_cost_usd: 0.5,
};
const idle = { steps: 0, tool_tokens: 0, tokens: 0, cost_usd: 0, wall_clock_ms: 0, context_messages: 2 };

describe("reachedBound", () => {
  it("nothing reached on an idle turn", () => expect(reachedBound(idle, limits)).toBeNull());
  it.each([
    [{ steps: 3 }, "max_tool_steps"],
    [{ tool_tokens: 1000 }, "max_tool_tokens"],
    [{ context_messages: 11 }, "max_context_messages"],
    [{ wall_clock_ms: 60_000 }, "max_wall_clock_s"],
    [{ tokens: 5000 }, "max_tokens"],
    [{ cost_usd: 0.5 }, "max_cost_usd"],
  ])("%j reaches %s", (usage, bound) => {
    expect(reachedBound({ ...idle, ...usage }, limits)).toBe(bound);
  });
  it("a zero money cap is off (models without a price)", () => {
    expect(reachedBound({ ...idle, cost_usd: 0 }, { ...limits, max_cost_usd: 0 })).toBeNull();
  });
});
