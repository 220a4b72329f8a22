// Over-blocking check for issue 20: of the everyday read-only calls in the existing corpora (the
// adversarial corpus's `allow` cases) and the everyday list of shell-understood.test.ts, how many
// are not understood now, and how many the strict read-only allowlist allows before (at a base
// commit's engine, extracted to a directory) and after. Writes understood-measure.json beside itself.
//   node bench/policy/understood-measure.mjs [--base=/tmp/grammar-base]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const base = process.argv.find((a) => a.startsWith("--base="))?.slice(7);

const corpus = readFileSync(join(root, "test/node/policy/shell/corpus.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l))
  .filter((e) => e.expect === "allow" || e.id === "benign-764")
  .map((e) => e.command);
const everyday = [
  ...["cat package.json", "head -50 README.md", "sed -n 1,50p src/x.ts", "jq .scripts package.json"],
  ...["git blame f", "git ls-files", "find src -type f", "du -sh", "node --version", "grep -rn foo src"],
  ...["rg foo", "ls -la", "git log --oneline -5", "git status", "git diff", "wc -l src/a.ts", "tree src"],
];
const commands = [...new Set([...corpus, ...everyday])];

async function measure(dir) {
  const { analyzeShell } = await import(join(dir, "src/policy/shell/analysis.ts"));
  const { judge, READ_ONLY } = await import(join(dir, "test/node/policy/shell/policies.ts"));
  const rows = commands.map((c) => {
    const units = analyzeShell(c).units;
    const notUnderstood = units.find((u) => u.kind === "exec" && u.notUnderstood !== undefined);
    return {
      command: c,
      allowed: judge(READ_ONLY, c).action === "allow",
      notUnderstood: notUnderstood?.notUnderstood ?? null,
    };
  });
  return {
    allowed: rows.filter((r) => r.allowed).length,
    notUnderstood: rows
      .filter((r) => r.notUnderstood !== null)
      .map((r) => ({ command: r.command, ...r.notUnderstood })),
    newlyAsked: rows.filter((r) => !r.allowed).map((r) => r.command),
  };
}

const after = await measure(root);
const before = base === undefined ? null : await measure(base);
const result = {
  date: new Date().toISOString(),
  commands: commands.length,
  before:
    before === null
      ? null
      : { allowedByReadOnly: before.allowed, notUnderstood: 0, asked: before.newlyAsked },
  after: {
    allowedByReadOnly: after.allowed,
    notUnderstood: after.notUnderstood.length,
    notUnderstoodCommands: after.notUnderstood,
    asked: after.newlyAsked,
  },
};
writeFileSync(join(here, "understood-measure.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `${commands.length} everyday commands: not understood after ${after.notUnderstood.length}; allowed by the read-only allowlist before ${before?.allowed ?? "?"}, after ${after.allowed}`,
);
