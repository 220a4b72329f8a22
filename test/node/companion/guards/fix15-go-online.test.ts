// go in a default (online) environment (fix15e, issue 20): with GOPROXY, GOFLAGS and GOTOOLCHAIN unset,
// `go build`, `go test` and `go vet` load the module graph as `go list` does, downloading every required
// module not in the module cache (go.dev/ref/mod#module-cache), and go.mod's `go` line newer than the
// installed go downloads that release (GOTOOLCHAIN=auto). A runner's allow covered them with no look at
// either. A module whose requirements are all vendored or cached, with no newer go asked for, is allowed as
// before. (No go on the machine this was written on: the cache is laid out as the reference describes.)
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-f15-go-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, "home");
let n = 0;

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** A module at go 1.21 whose go.mod holds `rest`. */
function module(rest: string): string {
  const ws = join(base, `ws${n++}`);
  write(join(ws, "go.mod"), `module example.com/p\n\ngo 1.21\n\n${rest}`);
  write(join(ws, "main.go"), "package main\n\nfunc main() {}\n");
  return ws;
}

/** An installed go 1.22.1 on PATH, its release read from GOROOT/VERSION. */
const goroot = join(base, "goroot");
write(join(goroot, "VERSION"), "go1.22.1\ntime 2024-03-05T00:00:00Z\n");
write(join(goroot, "bin", "go"), "#!/bin/sh\n");
chmodSync(join(goroot, "bin", "go"), 0o755);
const ENV = { HOME: home, PATH: `${join(goroot, "bin")}:/usr/bin:/bin` };

/** The module cache as go leaves it after downloading `path@version` (its .mod, its .zip, its files). */
function cached(path: string, version: string, files = true): void {
  const at = join(home, "go", "pkg", "mod", "cache", "download", path, "@v", version);
  write(`${at}.mod`, `module ${path}\n`);
  if (files) {
    write(`${at}.zip`, "");
    write(join(home, "go", "pkg", "mod", `${path}@${version}`, "quote.go"), "package quote\n");
  }
}

const REQUIRES =
  "require rsc.io/quote v1.5.2\n\nrequire golang.org/x/text v0.0.0-20170915032832-14c0d48ead0c // indirect\n";
const COMMANDS = ["go build ./...", "go test ./...", "go vet ./...", "go list ./..."];

function action(command: string, ws: string) {
  const r = judgeOnDisk(
    AUTONOMOUS,
    { tool: "bash", input: { command }, cwd: ws, home },
    { disk: diskCheck({ env: ENV }) },
  );
  return { action: r.action, text: `${command}\n${r.why}\n${r.reasons.join("\n")}` };
}

describe("go that would download (written first)", () => {
  it.each(COMMANDS)("%s asks where a required module is not in the module cache", (command) => {
    const ws = module(REQUIRES);
    cached("golang.org/x/text", "v0.0.0-20170915032832-14c0d48ead0c");
    const r = action(command, ws);
    expect(r.action, r.text).toBe("ask");
    expect(r.text).toMatch(/requires modules/);
  });

  it.each(COMMANDS)("%s asks where go.mod asks for a go newer than the installed one", (command) => {
    const ws = join(base, `ws${n++}`);
    write(join(ws, "go.mod"), "module example.com/p\n\ngo 1.23\n");
    const r = action(command, ws);
    expect(r.action, r.text).toBe("ask");
    expect(r.text).toMatch(/GOTOOLCHAIN=auto/);
  });

  it("asks where a direct requirement's go.mod is cached but not its files", () => {
    const ws = module("require rsc.io/quote v1.5.2\n");
    cached("rsc.io/quote", "v1.5.2", false);
    expect(action("go build ./...", ws).action).toBe("ask");
  });
});

describe("everyday: nothing to download", () => {
  it.each(COMMANDS)("%s is allowed with no requirement, all of them vendored, or all cached", (command) => {
    const plain = module("");
    const vendored = module(REQUIRES);
    write(join(vendored, "vendor", "modules.txt"), "# rsc.io/quote v1.5.2\n## explicit\nrsc.io/quote\n");
    const inCache = module(REQUIRES);
    cached("rsc.io/quote", "v1.5.2");
    cached("golang.org/x/text", "v0.0.0-20170915032832-14c0d48ead0c", false);
    for (const ws of [plain, vendored, inCache]) {
      const r = action(command, ws);
      expect(r.action, r.text).toBe("allow");
    }
  });
});
