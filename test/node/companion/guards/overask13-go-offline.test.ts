// Over-ask, round 13: `go list ./...` and `go doc fmt` in a module whose go.mod requires modules (no
// vendor/) asked even where the agent's environment keeps go off the network. With GOPROXY=off go fetches
// no module GONOPROXY does not match ("module lookup disabled by GOPROXY=off", go's mod_gonoproxy.txt), and
// with GOSUMDB=off it asks no checksum database; GONOPROXY or GOPRIVATE (fetched by git), -mod=mod in GOFLAGS
// (go.mod rewritten) or a replace directive (another directory loaded) keep it asking. No go toolchain on
// the machine this was written on: the `real go` checks of round12-go.test.ts run where there is one.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa13go-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

function module(goMod: string): string {
  const ws = join(base, `ws${n++}`);
  mkdirSync(ws);
  writeFileSync(join(ws, "go.mod"), `module example.com/p\n\ngo 1.21\n\n${goMod}`);
  writeFileSync(join(ws, "main.go"), "package main\n\nfunc main() {}\n");
  return ws;
}
const REQUIRES = "require rsc.io/quote v1.5.2\n";
const OFFLINE = { GOPROXY: "off", GOSUMDB: "off", GOTOOLCHAIN: "local" };

function actions(command: string, ws: string, env: NodeJS.ProcessEnv) {
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(
      p,
      { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") },
      { disk: diskCheck({ env }) },
    ),
  );
}

describe("go reaching the network (written first)", () => {
  it.each([
    ["the default environment", {}],
    [
      "GOPROXY=off alone (a cached module missing from go.sum is checked against sum.golang.org)",
      { GOPROXY: "off" },
    ],
    ["GONOPROXY (fetched directly, by git)", { ...OFFLINE, GONOPROXY: "example.com/*" }],
    ["GOPRIVATE (GONOPROXY's default)", { ...OFFLINE, GOPRIVATE: "example.com/*" }],
    ["-mod=mod in GOFLAGS", { ...OFFLINE, GOFLAGS: "-mod=mod" }],
  ])("asks for go list ./... with %s", (_, env) => {
    const ws = module(REQUIRES);
    for (const r of actions("go list ./...", ws, env)) expect(r.action, r.why).not.toBe("allow");
  });

  it("asks where go.mod replaces a module (go loads the directory or version it names)", () => {
    const ws = module(`${REQUIRES}replace rsc.io/quote => ../quote\n`);
    for (const r of actions("go list ./...", ws, OFFLINE)) expect(r.action, r.why).not.toBe("allow");
  });

  it.each(["GOPROXY=direct go list ./...", "GOFLAGS=-mod=mod go list ./...", "go list -mod=mod ./..."])(
    "never allows %s, offline environment or not",
    (command) => {
      for (const r of actions(command, module(REQUIRES), OFFLINE)) expect(r.action, r.why).not.toBe("allow");
    },
  );
});

describe("everyday", () => {
  it.each(["go list ./...", "go doc fmt", "go list -json ."])(
    "allows %s where the environment keeps go offline",
    (command) => {
      const ws = module(REQUIRES);
      for (const r of actions(command, ws, OFFLINE))
        expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    },
  );
});
