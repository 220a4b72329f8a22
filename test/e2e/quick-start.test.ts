// README's quick start, walked as a new user would from an empty HOME: `npm run dev` → pair the phone by the printed
// link (real Chromium at a phone viewport) → mint a second code on the phone's Devices view → `airlock pair` that code → `airlock
// init` → `airlock try` → the card appears on the phone → approve → `try` prints allow. Also: a wrong code is refused
// by name.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/build.ts";
import { launchBrowser, phoneContext } from "./support/browser.ts";
import { tapDecision } from "./support/dashboard.ts";
import { type Edge, freePort, ROOT, startEdge } from "./support/edge.ts";

const BIN = join(ROOT, "bin", "airlock.cjs");
const WAIT_MS = 30_000;

let edge: Edge;
let browser: Browser;
let page: Page;
let home: string;
let env: NodeJS.ProcessEnv;
const started: ChildProcess[] = [];

function airlock(args: string[], cwd = home): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  await ensureBuilt();
  const built = spawnSync("npm", ["run", "-s", "build:web"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error(`build:web failed:\n${built.stdout}\n${built.stderr}`);
  home = mkdtempSync(join(tmpdir(), "airlock-quickstart-"));
  // An empty HOME and a PATH with only Node and the system: no agent, no earlier pairing, no daemon.
  env = {
    HOME: home,
    PATH: [dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    LANG: "C.UTF-8",
    XDG_RUNTIME_DIR: join(home, "run"),
    AIRLOCK_DAEMON_IDLE_MS: "120000",
  };
  edge = await startEdge();
  browser = await launchBrowser();
  page = await (await phoneContext(browser)).newPage();
}, 240_000);

afterAll(async () => {
  // The daemon `try` started on demand goes when its socket does.
  rmSync(join(home, "run"), { recursive: true, force: true });
  for (const child of started) if (child.exitCode === null) child.kill("SIGTERM");
  await browser?.close();
  await edge?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe("the quick start, from an empty HOME", { timeout: 180_000 }, () => {
  let link = "";
  let companionCode = "";

  it("npm run dev prints the first code with its pairing link and a QR code of it", () => {
    const out = edge.output();
    const m = /Pair your phone \(it answers prompts\): open (\S+) or scan/.exec(out);
    expect(m?.[1]).toBe(`${edge.base}/pair?code=${edge.firstCode}`);
    link = m?.[1] ?? "";
    expect(
      out
        .slice(out.indexOf(link))
        .split("\n")
        .filter((l) => /^[█▀▄ ]{20,}$/.test(l)).length,
    ).toBeGreaterThan(10);
  });

  it("the phone pairs by opening the link", async () => {
    await page.goto(link);
    await page.getByRole("button", { name: "Pair this device" }).tap();
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
  });

  it("the phone mints a second code for this machine on its Devices view", async () => {
    await page.goto(`${edge.base}/devices`);
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    await page.getByRole("radio", { name: /a companion/ }).check();
    await page.getByRole("button", { name: "Create a pairing code" }).tap();
    const codeBox = page.getByTestId("pairing-code");
    await codeBox.waitFor({ timeout: WAIT_MS });
    companionCode = ((await codeBox.locator(".code-digits").textContent()) ?? "").trim();
    expect(companionCode).toMatch(/^\d{8}$/);
    // Both ways to type it: installed, and in a checkout (what this README walk uses).
    const hint = (await codeBox.textContent()) ?? "";
    expect(hint).toContain(`airlock pair ${companionCode} --server ${edge.base}`);
    expect(hint).toContain(`npm run -s airlock -- pair ${companionCode} --server ${edge.base}`);
  });

  it("a wrong code is refused, naming the code and where to get a good one", () => {
    const wrong = companionCode === "00000000" ? "11111111" : "00000000";
    const r = airlock(["pair", wrong, "--server", edge.base]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`airlock pair: the code ${wrong} was not accepted by ${edge.base}`);
    expect(r.stderr).toMatch(/More → Devices → Pair another device/);
    expect(existsSync(join(home, ".airlock", "credentials.json"))).toBe(false);
  });

  it("on another port than 8787, an edge that is not there is named with how to point elsewhere", async () => {
    expect(edge.port).not.toBe(8787);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const r = airlock(["pair", companionCode, "--server", closed]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`the Airlock edge at ${closed} could not be reached`);
    expect(r.stderr).toContain("pass --server URL or set AIRLOCK_SERVER=URL");
  });

  it("airlock pair binds this machine with the phone's code, typed as npm run dev printed it for this port", () => {
    // npm run dev prints the command with --server when the port is not the CLI's default (8787).
    const out = edge.output();
    expect(out).toContain(
      `Pair this machine: npm run -s airlock -- pair ${edge.companionCode} --server ${edge.base}\n`,
    );
    const printed = /Pair another device: npm run -s airlock -- (pair CODE[^)\n]*)\)/.exec(out)?.[1];
    expect(printed).toBe(`pair CODE --server ${edge.base}`);
    const r = airlock((printed ?? "").replace("CODE", companionCode).split(" "));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Paired with /);
    expect(r.stdout).toMatch(/Next: .+ init/);
  });

  it("a companion cannot mint codes: airlock devices pair says where to mint one; the recovery code can", () => {
    const refused = airlock(["devices", "pair"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /only a device you approve from may mint pairing codes.*Pair another device/,
    );
    expect(refused.stderr).toContain("--recovery-code");
    const minted = airlock(["devices", "pair", "--recovery-code", edge.recoveryCode, "--json"]);
    expect(minted.code, minted.stderr).toBe(0);
    expect(JSON.parse(minted.stdout)).toMatchObject({
      role: "approver",
      code: expect.stringMatching(/^\d{8}$/),
      link: expect.stringContaining(`${edge.base}/pair?code=`),
    });
  });

  it("airlock devices token: an approver or the recovery code mints a read-only parity token; a companion cannot", async () => {
    const none = airlock(["devices", "token"]);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("--recovery-code");
    const companionToken = (
      JSON.parse(readFileSync(join(home, ".airlock", "credentials.json"), "utf8")) as { token: string }
    ).token;
    const r = spawnSync(process.execPath, [BIN, "devices", "token"], {
      cwd: home,
      env: { ...env, AIRLOCK_APPROVER_TOKEN: companionToken },
      encoding: "utf8",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("a companion's is refused");
    const minted = airlock(["devices", "token", "--recovery-code", edge.recoveryCode, "--minutes", "5"]);
    expect(minted.code, minted.stderr).toBe(0);
    const token = minted.stdout.trim();
    expect(token).toMatch(/^alkp_[A-Za-z0-9_-]+\.[0-9a-f]{64}$/);
    const headers = { authorization: `Bearer ${token}` };
    const devices = await fetch(`${edge.base}/v1/devices`, { headers });
    expect(devices.status).toBe(200);
    const [first] = ((await devices.json()) as { devices: { id: string }[] }).devices;
    const revoke = await fetch(`${edge.base}/v1/devices/${first?.id}/revoke`, { method: "POST", headers });
    expect(revoke.status).toBe(403);
    expect(((await revoke.json()) as { error: { code: string } }).error.code).toBe("read_only_token");
  });

  it("airlock init writes the starter policy and says what it did", () => {
    const r = airlock(["init", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const policy = join(home, ".airlock", "permissions.yaml");
    expect(r.stdout).toContain(`Wrote ${policy}`);
    expect(readFileSync(policy, "utf8")).toContain("default_action: ask");
    expect(r.stdout).toMatch(/Next: .+ try/);
  });

  /** `airlock try`, answered on the phone with `answer`. */
  async function tryOnPhone(answer: "Allow once" | "Deny") {
    await page.goto(`${edge.base}/`);
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    const child = spawn(process.execPath, [BIN, "try"], {
      cwd: home,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const card = page.locator("article", { hasText: "airlock_try" });
    await card.waitFor({ timeout: WAIT_MS });
    const promptId = await card.getAttribute("data-prompt-id");
    if (promptId === null) throw new Error("the card has no data-prompt-id");
    await tapDecision(page, promptId, answer);
    return { code: await exited, stdout, stderr };
  }

  it("airlock try starts the daemon, puts a card on the phone, and the phone's approval comes back as allow", async () => {
    const r = await tryOnPhone("Allow once");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Starting the Airlock daemon…");
    expect(r.stderr).toContain("Sent a test call to your phone");
    expect(r.stdout).toMatch(/^allow: /);
  });

  it("a second try finds the daemon running and does not claim to start one", async () => {
    const r = await tryOnPhone("Deny");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Sent a test call to your phone");
    expect(r.stderr).not.toContain("Starting the Airlock daemon");
    expect(r.stdout).toMatch(/^deny: /);
  });
});
