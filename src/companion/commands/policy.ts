// `airlock policy explain|test|lint`: the policy engine from the command line.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { type CallFact, factLine } from "../../policy/call-facts.ts";
import {
  type CompiledPolicy,
  compilePolicy,
  type DecisionRecord,
  EmergencyControlsSchema,
  type GrantUnit,
  grantOffer,
  judgeCall,
  type PolicySource,
  type Risk,
  storedUnit,
} from "../../policy/index.ts";
import { type Command, type CommandIo, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { diskCheck } from "../guards/disk-view.ts";
import { formatLoadError, parseConfigArg, readConfigArgs, sourcesFor } from "./policy-sources.ts";

const CONFIG_HELP = `  --config [LAYER:]FILE  Use only these files, lowest layer first (repeatable). LAYER is
                         agent, user (default), project, trusted-project or account.`;

function compileOrReport(sources: PolicySource[], io: CommandIo): CompiledPolicy | null {
  const result = compilePolicy(sources);
  if (result.ok) return result.policy;
  io.stderr(`policy could not be loaded (nothing is allowed until it is fixed):\n`);
  for (const e of result.errors) io.stderr(`  ${formatLoadError(e)}\n`);
  return null;
}

function renderRecord(r: DecisionRecord, facts: readonly CallFact[] = []): string {
  const lines = [
    `action:     ${r.action}`,
    // Where a path or a field refused the allow: the path and the reason, on one line.
    ...(facts[0] ? [`why:        ${factLine(facts[0])}`] : []),
    `layer:      ${r.layer}`,
    `rule:       ${r.rule ?? "(none)"}`,
    `capability: ${r.capability} (${r.risk.toUpperCase()} risk: ${r.justification})`,
    `scope:      ${r.scope.kind} ${r.scope.summary} [group ${r.scope.group}]`,
    `scopeHash:  ${r.scopeHash}`,
  ];
  if (r.message) lines.push(`message:    ${r.message}`);
  lines.push("reasons:", ...r.reasons.map((x) => `  - ${x}`));
  return `${lines.join("\n")}\n`;
}

/** What an "allow always" on this call would save: each unit, and the wider patterns a card would offer. */
function renderGrant(units: readonly GrantUnit[], risk: Risk): string {
  const lines = ["grant units (an allow grant must cover every one):"];
  for (const u of units)
    lines.push(
      `  - ${u.capability} ${u.display}${u.coverable ? "" : ` (never covered by an allow grant: ${u.why ?? "not known exactly"})`}`,
    );
  const offer = grantOffer(risk, units.map(storedUnit));
  if (offer.wider.length > 0) lines.push(`wider patterns offered: ${offer.wider.join(", ")}`);
  if (offer.why !== null) lines.push(`no "always": ${offer.why}`);
  if (offer.rule !== null) lines.push(`rule to add: ${offer.rule}`);
  return `${lines.join("\n")}\n`;
}

/** The tools whose decision depends on their input, with an input to show when it is missing. */
const INPUT_EXAMPLES: Record<string, string> = {
  bash: '{"command":"git status"}',
  read: '{"path":"src/index.ts"}',
  write: '{"path":"src/index.ts"}',
  edit: '{"path":"src/index.ts"}',
  grep: '{"pattern":"TODO","path":"src"}',
  find: '{"pattern":"*.ts","path":"src"}',
  ls: '{"path":"src"}',
  webfetch: '{"url":"https://example.com/"}',
};

export const policyExplain: Command = {
  name: ["policy", "explain"],
  help: `Usage: airlock policy explain --tool NAME --input JSON [options]

Prints the decision record {action, layer, rule, capability, risk, reasons, scope, scopeHash}.

Options:
  --tool NAME            Tool name (read, write, edit, bash, grep, find, ls, webfetch, or any other)
  --input JSON           Tool input as JSON ("-" reads it from stdin), e.g. '{"command":"git status"}'
  --cwd DIR              Working directory of the call (default: current directory)
${CONFIG_HELP}
                         Without --config: ~/.agents, ~/.pi/agent, ~/.airlock, <repo>/.pi, <repo>/.airlock.
  --no-ui                Decide as if no person can answer (ask becomes deny unless headless_ask: allow)
  --workspace DIR        The session's project directory when --cwd is elsewhere (Claude Code's
                         CLAUDE_PROJECT_DIR); a cwd outside it is never allowed
  --no-disk              Judge the text only: do not resolve paths on this machine's filesystem
  --declared-host HOST   A host in the declared http scope (repeatable)
  --agent NAME           Agent identity seen by conditions as \`agent\`
  --json                 Print the record as JSON

Paths are resolved on this machine as the companion resolves them when it decides: symlinks, hard
links, globs, recursive walks and git's repository discovery. When one refuses the allow, \`why:\`
names the path and the reason.

Exit codes: 0 allow or ask, 1 deny or hidden, 2 bad arguments, 3 policy could not be loaded.`,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      tool: { type: "string" },
      input: { type: "string" },
      cwd: { type: "string" },
      config: { type: "string", multiple: true },
      "no-ui": { type: "boolean" },
      "no-disk": { type: "boolean" },
      workspace: { type: "string" },
      "declared-host": { type: "string", multiple: true },
      agent: { type: "string" },
      json: { type: "boolean" },
    });
    if (!values.tool) throw new UsageError("--tool is required, e.g. --tool bash");
    const example = INPUT_EXAMPLES[values.tool];
    // A known tool decides on its input; without one the answer would be about "<dynamic>", not the call meant.
    if (values.input === undefined && example)
      throw new UsageError(`--input is required for ${values.tool}, e.g. --input '${example}'`);
    const rawInput = values.input === "-" ? await io.readStdin() : (values.input ?? "{}");
    let input: unknown;
    try {
      input = JSON.parse(rawInput);
    } catch (error) {
      throw new UsageError(`--input is not JSON (${(error as Error).message})`);
    }
    if (input === null || typeof input !== "object" || Array.isArray(input))
      throw new UsageError("--input must be a JSON object");
    const cwd = resolve(io.cwd, values.cwd ?? ".");
    const policy = compileOrReport(sourcesFor(values.config ?? [], cwd, io.env, io.cwd), io);
    if (!policy) return ExitCode.config;
    const call = {
      tool: values.tool,
      input: input as Record<string, unknown>,
      cwd,
      ...(values.agent ? { agent: values.agent } : {}),
      ...(values.workspace ? { workspace: resolve(io.cwd, values.workspace) } : {}),
    };
    // Through the agent tool-name table, as a hook judges it (Claude Code's `Bash` is the shell).
    const { record, units, facts } = judgeCall(
      policy,
      call,
      {
        hasUI: !values["no-ui"],
        ...(values["declared-host"] ? { declaredHosts: values["declared-host"] } : {}),
      },
      values["no-disk"] ? undefined : diskCheck({ env: io.env }),
    );
    io.stdout(
      values.json
        ? `${JSON.stringify(facts.length > 0 ? { ...record, why: factLine(facts[0] as CallFact) } : record, null, 2)}\n`
        : `${renderRecord(record, facts)}${record.action === "ask" ? renderGrant(units, record.risk) : ""}`,
    );
    return record.action === "deny" || record.action === "hidden" ? ExitCode.failure : ExitCode.ok;
  },
};

const ScenarioSchema = z.strictObject({
  configs: z
    .array(
      z.union([
        z.string(),
        z.strictObject({
          path: z.string(),
          layer: z.enum(["agent", "user", "project", "account"]).default("user"),
          trusted: z.boolean().optional(),
        }),
      ]),
    )
    .optional(),
  cases: z
    .array(
      z.strictObject({
        name: z.string().optional(),
        tool: z.string().min(1),
        input: z.record(z.string(), z.unknown()).default({}),
        cwd: z.string().optional(),
        agent: z.string().optional(),
        has_ui: z.boolean().default(true),
        declared_hosts: z.array(z.string()).optional(),
        emergency: EmergencyControlsSchema.optional(),
        expected: z.enum(["allow", "deny", "ask", "hidden"]),
        expected_rule: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

function scenarioSources(
  configs: z.infer<typeof ScenarioSchema>["configs"],
  baseDir: string,
): PolicySource[] | null {
  if (!configs) return null;
  return configs.map((c) => {
    if (typeof c === "string") return readConfigArgs([c], baseDir)[0] as PolicySource;
    const path = parseConfigArg(c.path, baseDir).path;
    const source: PolicySource = { layer: c.layer, path, text: readFileSync(path, "utf8") };
    if (c.layer === "project") source.trusted = c.trusted ?? false;
    return source;
  });
}

export const policyTest: Command = {
  name: ["policy", "test"],
  help: `Usage: airlock policy test FILE... [--config [LAYER:]FILE]... [--json]

Each FILE is YAML:
  configs:                 # optional; paths relative to FILE, lowest layer first
    - path: ../permissions.yaml
      layer: user          # agent | user | project | account
      trusted: true        # project files only
  cases:
    - name: no rm          # optional
      tool: bash
      input: {command: "rm -rf /"}
      cwd: /work/repo      # default: the current directory
      has_ui: true         # default true
      expected: deny       # allow | deny | ask | hidden
      expected_rule: "Bash > rm"   # optional; null expects no rule (a default)

Policy: the file's configs, else --config files, else the layers discovered for each case's cwd.

Exit codes: 0 all cases pass, 1 any mismatch, 2 bad scenario file or arguments, 3 policy could not be loaded.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { config: { type: "string", multiple: true }, json: { type: "boolean" } },
      { max: Number.POSITIVE_INFINITY },
    );
    if (positionals.length === 0) throw new UsageError("give at least one scenario FILE");
    let mismatches = 0;
    let total = 0;
    const results: unknown[] = [];
    for (const file of positionals) {
      const path = resolve(io.cwd, file);
      let scenario: z.infer<typeof ScenarioSchema>;
      try {
        const parsed = ScenarioSchema.safeParse(parseYaml(readFileSync(path, "utf8")));
        if (!parsed.success) {
          io.stderr(
            `${path}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}\n`,
          );
          return ExitCode.usage;
        }
        scenario = parsed.data;
      } catch (error) {
        io.stderr(`${path}: ${(error as Error).message}\n`);
        return ExitCode.usage;
      }
      const fixed =
        scenarioSources(scenario.configs, dirname(path)) ??
        (values.config?.length ? readConfigArgs(values.config, io.cwd) : null);
      const fixedPolicy = fixed ? compileOrReport(fixed, io) : undefined;
      if (fixedPolicy === null) return ExitCode.config;
      for (const [i, c] of scenario.cases.entries()) {
        total++;
        const cwd = resolve(io.cwd, c.cwd ?? ".");
        const policy = fixedPolicy ?? compileOrReport(sourcesFor([], cwd, io.env), io);
        if (!policy) return ExitCode.config;
        const { record } = judgeCall(
          policy,
          { tool: c.tool, input: c.input, cwd, ...(c.agent ? { agent: c.agent } : {}) },
          {
            hasUI: c.has_ui,
            ...(c.emergency ? { emergency: c.emergency } : {}),
            ...(c.declared_hosts ? { declaredHosts: c.declared_hosts } : {}),
          },
        );
        const ruleOk = c.expected_rule === undefined || c.expected_rule === record.rule;
        const ok = record.action === c.expected && ruleOk;
        results.push({
          file: path,
          case: i,
          name: c.name ?? null,
          ok,
          expected: c.expected,
          expected_rule: c.expected_rule,
          actual: record.action,
          rule: record.rule,
        });
        if (!ok) {
          mismatches++;
          const label = `${path}: case ${i + 1}${c.name ? ` (${c.name})` : ""}`;
          const want = `${c.expected}${c.expected_rule !== undefined ? ` by ${c.expected_rule === null ? "no rule" : `"${c.expected_rule}"`}` : ""}`;
          const got = `${record.action} by ${record.rule === null ? `${record.layer} (no rule)` : `"${record.rule}"`}`;
          if (!values.json)
            io.stdout(`MISMATCH ${label}: expected ${want}, got ${got}\n  ${record.reasons.join("\n  ")}\n`);
        }
      }
    }
    if (values.json) io.stdout(`${JSON.stringify({ total, mismatches, results }, null, 2)}\n`);
    else io.stdout(`${total - mismatches}/${total} cases passed\n`);
    return mismatches > 0 ? ExitCode.failure : ExitCode.ok;
  },
};

export const policyLint: Command = {
  name: ["policy", "lint"],
  help: `Usage: airlock policy lint [[LAYER:]FILE...] [--cwd DIR] [--json]

Parses and compiles the files together (lowest layer first; LAYER as for --config) or, with no
files, every layer discovered for --cwd. Prints each error with file, rule, line and column,
and notes allow rules of untrusted project files that will not apply.

Exit codes: 0 valid, 1 problems found, 2 bad arguments.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { cwd: { type: "string" }, json: { type: "boolean" } },
      { max: Number.POSITIVE_INFINITY },
    );
    const cwd = resolve(io.cwd, values.cwd ?? ".");
    let sources: PolicySource[];
    try {
      sources = sourcesFor(positionals, cwd, io.env, io.cwd);
    } catch (error) {
      io.stderr(`airlock policy lint: ${(error as Error).message}\n`);
      return ExitCode.failure;
    }
    const result = compilePolicy(sources);
    if (values.json) {
      io.stdout(
        `${JSON.stringify(result.ok ? { ok: true, files: result.policy.sources } : { ok: false, errors: result.errors }, null, 2)}\n`,
      );
      return result.ok ? ExitCode.ok : ExitCode.failure;
    }
    if (!result.ok) {
      for (const e of result.errors) io.stdout(`${formatLoadError(e)}\n`);
      io.stdout(`${result.errors.length} problem${result.errors.length === 1 ? "" : "s"}\n`);
      return ExitCode.failure;
    }
    const p = result.policy;
    for (const s of p.sources) {
      io.stdout(
        `ok  ${s.layer.padEnd(7)} ${s.path}${s.layer === "project" ? (s.trusted ? " (trusted)" : " (untrusted)") : ""}\n`,
      );
      for (const r of s.ignoredAllowRules)
        io.stdout(`    note: allow rule "${r}" is ignored until you run \`airlock trust\`\n`);
    }
    if (p.sources.length === 0)
      io.stdout("no policy files found: every call is denied (default_action deny)\n");
    io.stdout(
      `${p.local.rules.length + (p.account?.rules.length ?? 0) + (p.sources.some((s) => s.layer === "project" && !s.trusted) ? (p.project?.rules.length ?? 0) : 0)} rules, default_action ${p.defaultAction}\n`,
    );
    return ExitCode.ok;
  },
};
