// The policy bench's config, Cedar policy and workload, shared by run.mjs and profile.mjs so a
// profile measures exactly the mix the bench reports.
export const CWD = "/home/dev/project";
export const N_BASH = 600;
export const N_REGEX = 100;
export const N_DIRS = 100;
export const N_MCP = 96;

// ---- the 1,000-rule config ----------------------------------------------------------------
export function airlockConfig() {
  const lines = ["version: 1", "default_action: ask", "rules:"];
  const leaf = (indent, name, condition, action) =>
    lines.push(
      `${indent}- name: ${JSON.stringify(name)}`,
      `${indent}  condition: ${JSON.stringify(condition)}`,
      `${indent}  action: ${action}`,
    );
  leaf("  ", "no secrets", 'tool == "read" && path.endsWith(".env")', "deny");
  lines.push("  - name: Bash", '    condition: tool == "bash"', "    rules:");
  leaf("      ", "no rm", 'command == "rm" || command.startsWith("rm ")', "deny");
  for (let i = 0; i < N_BASH; i++)
    leaf("      ", `tool${i}`, `command == "tool${i}" || command.startsWith("tool${i} ")`, "allow");
  for (let i = 0; i < N_REGEX; i++)
    leaf("      ", `svc${i} deploy`, `command.matches("^svc${i}-[a-z]+ deploy")`, "ask");
  lines.push("      - default: ask");
  for (let i = 0; i < N_DIRS; i++)
    leaf("  ", `read dir${i}`, `tool == "read" && path.startsWith(cwd + "/dir${i}/")`, "allow");
  for (let i = 0; i < N_DIRS; i++) {
    leaf(
      "  ",
      `write dir${i}`,
      `tool in ["write", "edit"] && path.startsWith(cwd + "/dir${i}/")`,
      i % 2 === 0 ? "allow" : "deny",
    );
  }
  for (let i = 0; i < N_MCP; i++) leaf("  ", `mcp ${i}`, `tool == "mcp__srv${i}__act"`, "allow");
  return lines.join("\n");
}

// The equivalent Cedar policy for what Cedar can express: reads/writes by path prefix, MCP
// tools by name, and simple bash commands by their (pre-split) first word. Cedar has no `ask`
// and no first match, so "allow" is compared with "allow" and everything else with "deny".
export function cedarPolicies() {
  const p = [];
  p.push('forbid(principal, action == Action::"read", resource) when { context.path like "*.env" };');
  p.push('forbid(principal, action == Action::"bash", resource) when { context.word == "rm" };');
  for (let i = 0; i < N_BASH; i++)
    p.push(`permit(principal, action == Action::"bash", resource) when { context.word == "tool${i}" };`);
  for (let i = 0; i < N_DIRS; i++)
    p.push(
      `permit(principal, action == Action::"read", resource) when { context.path like "${CWD}/dir${i}/*" };`,
    );
  for (let i = 0; i < N_DIRS; i++) {
    const effect = i % 2 === 0 ? "permit" : "forbid";
    for (const a of ["write", "edit"])
      p.push(
        `${effect}(principal, action == Action::"${a}", resource) when { context.path like "${CWD}/dir${i}/*" };`,
      );
  }
  for (let i = 0; i < N_MCP; i++)
    p.push(`permit(principal, action == Action::"mcp__srv${i}__act", resource);`);
  return p.join("\n");
}

// ---- workload ------------------------------------------------------------------------------
let seed = 42;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
/** `unique` tags every bash command with `--<tag>=i`, so no two share a cache entry. */
export function workload(count, unique, tag = "n") {
  const calls = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    const d = rand(N_DIRS + 10);
    const t = rand(N_BASH + 20);
    const suffix = unique ? ` --${tag}=${i}` : "";
    if (kind === 0)
      calls.push({
        kind: "read",
        call: { tool: "read", input: { path: `dir${d}/file${rand(50)}.ts` }, cwd: CWD },
      });
    else if (kind === 1)
      calls.push({
        kind: "write",
        call: { tool: rand(2) ? "write" : "edit", input: { path: `dir${d}/out.ts` }, cwd: CWD },
      });
    else if (kind === 2)
      calls.push({ kind: "mcp", call: { tool: `mcp__srv${rand(N_MCP + 10)}__act`, input: {}, cwd: CWD } });
    else if (kind === 3)
      calls.push({
        kind: "bash-simple",
        call: { tool: "bash", input: { command: `tool${t} --flag x${suffix}` }, cwd: CWD },
      });
    else {
      // Agents repeat themselves: compound commands come from a pool of 200 unless `unique`.
      const k = unique ? i : rand(200);
      const cmd = `git status && tool${(k * 7) % (N_BASH + 20)} a | grep -v x; tool${(k * 13) % N_BASH} "$(tool${(k * 17) % N_BASH} b)"${suffix}`;
      calls.push({ kind: "bash-compound", call: { tool: "bash", input: { command: cmd }, cwd: CWD } });
    }
  }
  return calls;
}

export function stats(ns) {
  const sorted = Float64Array.from(ns).sort();
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1000;
  return { n: sorted.length, p50_us: +q(0.5).toFixed(2), p99_us: +q(0.99).toFixed(2) };
}

export function timeEach(items, fn) {
  const ns = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const t0 = process.hrtime.bigint();
    fn(items[i]);
    ns[i] = Number(process.hrtime.bigint() - t0);
  }
  return ns;
}

export function throughput(items, fn, rounds = 3) {
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const it of items) fn(it);
  return Math.round((items.length * rounds) / (Number(process.hrtime.bigint() - t0) / 1e9));
}
