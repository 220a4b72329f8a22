// A future served with a Pi call's decision is used at its execute only if no other call of the batch that could
// change the result ran after the snapshot: Pi's sequential and parallel batches, event by event.
import { describe, expect, it } from "vitest";
import { BatchSnapshots } from "../../../../src/companion/adapters/pi/batch-snapshots.ts";
import type { FutureAnswer } from "../../../../src/companion/control/protocol.ts";

const future: FutureAnswer = { hit: true, kind: "command", chunks: [], exitCode: 0 };

describe("BatchSnapshots", () => {
  it("a lone call: served with its decision, used at its execute, once", () => {
    const s = new BatchSnapshots();
    s.started("a", "bash");
    s.hold("a", future);
    expect(s.take("a")).toBe(future);
    expect(s.take("a")).toBeUndefined();
  });

  it("sequential batch: an edit that ended before the decision leaves the snapshot valid", () => {
    const s = new BatchSnapshots();
    s.started("w", "edit");
    s.ended("w");
    s.started("a", "bash");
    s.hold("a", future);
    expect(s.take("a")).toBe(future);
  });

  it("parallel batch: a writing call prepared after the snapshot spoils it (both run at once)", () => {
    const s = new BatchSnapshots();
    s.started("a", "bash");
    s.hold("a", future);
    s.started("w", "write");
    expect(s.take("a")).toBeUndefined();
  });

  it("parallel batch: a writing call prepared before, still to run, keeps the snapshot from being held", () => {
    const s = new BatchSnapshots();
    s.started("w", "bash");
    s.started("a", "bash");
    s.hold("a", future);
    expect(s.take("a")).toBeUndefined();
  });

  it("reads around it change nothing it depends on", () => {
    const s = new BatchSnapshots();
    s.started("r1", "read");
    s.started("a", "bash");
    s.hold("a", future);
    s.started("r2", "grep");
    s.started("r3", "ls");
    expect(s.take("a")).toBe(future);
  });

  it("an unknown tool (an MCP or extension tool) counts as one that could write", () => {
    const s = new BatchSnapshots();
    s.started("a", "bash");
    s.hold("a", future);
    s.started("m", "github_create_issue");
    expect(s.take("a")).toBeUndefined();
  });

  it("a call that ended without running (blocked by another extension) drops its snapshot", () => {
    const s = new BatchSnapshots();
    s.started("a", "bash");
    s.hold("a", future);
    s.ended("a");
    expect(s.take("a")).toBeUndefined();
  });
});
