// Asks per everyday call under the `balanced` starter policy, judged as the companion judges them (the
// policy, then the disk) on the sample repository of test/node/companion/profiles: the built-in everyday
// list as is, the same repository with a private-key test fixture committed (as many real ones have), and
// a list of further everyday reads (bench/policy/everyday-extra.txt), and both lists' shell commands as
// Codex's `shell` tool sends them (argv `["bash","-lc",CMD]`). With --base=DIR (a `git archive` of
// an older commit's src/ and test/, node_modules linked) the same figures for that engine too.
//   node bench/policy/everyday-asks.mjs [--base=DIR]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const base = process.argv.find((a) => a.startsWith("--base="))?.slice(7);
const KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----\n";
const extra = readFileSync(join(here, "everyday-extra.txt"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((command) => ({ kind: "read", tool: "Bash", input: { command } }));

async function measure(root) {
  const { diskCheck } = await import(join(root, "src/companion/guards/disk-view.ts"));
  const { judgeEveryday, profilePolicy, shownEveryday } = await import(
    join(root, "src/companion/profiles/preview.ts")
  );
  const { sampleWorkspace } = await import(join(root, "test/node/companion/profiles/sample-workspace.ts"));
  const { EVERYDAY_CALLS } = await import(join(root, "src/companion/profiles/everyday-calls.ts"));
  // Codex runs a shell command as `bash -lc CMD`; its other calls have no Codex form and are left out.
  const asCodex = (calls) =>
    calls
      .filter((c) => c.tool === "Bash")
      .map((c) => ({ ...c, tool: "shell", input: { command: ["bash", "-lc", c.input.command] } }));
  const judge = (ws, calls) => {
    const j = judgeEveryday(profilePolicy("balanced", "/home/dev"), ws, "/home/dev", diskCheck(), calls);
    const asks = j.filter((x) => x.record.action !== "allow");
    const reads = j.filter((x) => x.call.kind === "read");
    return {
      calls: j.length,
      asks: asks.length,
      asksPerCall: +(asks.length / j.length).toFixed(3),
      readCalls: reads.length,
      readAsks: reads.filter((x) => x.record.action !== "allow").map((x) => shownEveryday(x.call)),
    };
  };
  const plain = sampleWorkspace();
  const keyed = sampleWorkspace();
  mkdirSync(join(keyed, "tests", "fixtures"), { recursive: true });
  writeFileSync(join(keyed, "tests", "fixtures", "server.pem"), KEY);
  const git = (...a) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...a], { cwd: keyed });
  git("add", "-A");
  git("commit", "-qm", "fixture");
  return {
    everyday: judge(plain, undefined),
    everydayWithKeyFixture: judge(keyed, undefined),
    extraReads: judge(plain, extra),
    codexEveryday: judge(plain, asCodex(EVERYDAY_CALLS)),
    codexExtraReads: judge(plain, asCodex(extra)),
  };
}

const after = await measure(join(here, "..", ".."));
const before = base === undefined ? null : await measure(base);
const result = { date: new Date().toISOString(), before, after };
writeFileSync(join(here, "everyday-asks-results.json"), `${JSON.stringify(result, null, 2)}\n`);
for (const [k, v] of Object.entries(after))
  console.log(
    `${k}: ${v.asks}/${v.calls} ask (${v.asksPerCall} per call), reads ${v.readAsks.length}/${v.readCalls}` +
      (before
        ? ` — before ${before[k].asks}/${before[k].calls} (${before[k].asksPerCall}), reads ${before[k].readAsks.length}`
        : ""),
  );
