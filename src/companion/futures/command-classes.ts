// The command-future registry: which exact shell commands may be warmed, and which files each one depends on.
//
// A command is warmable only if its whole text matches a registered shape; anything else (pipes other than
// the listed `| tail -N`, chains, redirections, other arguments) is not a future and runs normally.

import { TOOL_CONFIGS } from "../../policy/causal-runners.ts";

export interface CommandClass {
  /** Stable id, shown in stats: `bash:npm test`. */
  id: string;
  /** Whole-command shapes, matched against the command with runs of blanks collapsed. */
  shapes: readonly RegExp[];
  /**
   * Workspace-relative globs of the files whose change invalidates a future of this class. Empty: the class
   * is unfingerprinted and its futures live only for the TTL (≤ 2 s).
   */
  causal: readonly string[];
  /** What to run when the class is warmed from intent words (the first shape's plain form). */
  canonical: string;
  /** Test, typecheck, lint and build: not auto-warmed when the text asks for a change. */
  diagnostic: boolean;
  /** Words in the prompt that suggest the agent will run this class first. */
  intents: readonly RegExp[];
}

const JS_MANIFEST = [
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
];
const JS_SOURCES = [
  "src/**",
  "lib/**",
  "app/**",
  "test/**",
  "tests/**",
  "__tests__/**",
  "**/test.*",
  "**/*.test.*",
  "**/*.spec.*",
];
// The config files come from the one causal-file model (src/policy/causal-runners.ts), which causal grants
// pin; a future also depends on the sources its output reflects.
const JS_TEST_CAUSAL = [
  ...JS_MANIFEST,
  ...JS_SOURCES,
  ...TOOL_CONFIGS.tsc,
  ...TOOL_CONFIGS.vitest,
  ...TOOL_CONFIGS.jest,
  // Tests often load these; only their change is noticed, never their contents.
  ".env",
  ".env.*",
];
const TS_CAUSAL = [...JS_MANIFEST, ...TOOL_CONFIGS.tsc, "**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"];
const LINT_CAUSAL = [
  ...JS_MANIFEST,
  ...JS_SOURCES,
  ...TOOL_CONFIGS.eslint,
  ...TOOL_CONFIGS.biome,
  ...TOOL_CONFIGS.prettier,
];
const BUILD_CAUSAL = [...JS_MANIFEST, ...JS_SOURCES, ...TOOL_CONFIGS.tsc, "*.config.*"];
const PY_CAUSAL = [...TOOL_CONFIGS.pytest, "setup.py", "**/conftest.py", "**/*.py"];
const RUST_CAUSAL = [...TOOL_CONFIGS.cargo, "Cargo.lock", "**/Cargo.toml", "**/*.rs"];
const GO_CAUSAL = [...TOOL_CONFIGS.go, "go.sum", "**/*.go"];

const TEST_WORDS = /\b(tests?|specs?|failing|fails|failure|red|green|passing)\b/i;

/** The built-in registry: the seed's classes plus cargo, go, ruff and mypy. */
export const BUILTIN_CLASSES: readonly CommandClass[] = [
  {
    id: "bash:npm test",
    shapes: [/^npm (?:run )?test$/, /^npm test 2>&1 \| tail -n? ?\d{1,4}$/],
    causal: JS_TEST_CAUSAL,
    canonical: "npm test",
    diagnostic: true,
    intents: [TEST_WORDS],
  },
  {
    id: "bash:vitest",
    shapes: [/^(?:npx )?vitest(?: run)?$/, /^npm run test:vitest$/],
    causal: JS_TEST_CAUSAL,
    canonical: "npx vitest run",
    diagnostic: true,
    intents: [/\bvitest\b/i],
  },
  {
    id: "bash:jest",
    shapes: [/^(?:npx )?jest$/, /^npm run test:jest$/],
    causal: JS_TEST_CAUSAL,
    canonical: "npx jest",
    diagnostic: true,
    intents: [/\bjest\b/i],
  },
  {
    id: "bash:pytest",
    shapes: [/^pytest(?: -q)?$/, /^python3? -m pytest(?: -q)?$/],
    causal: PY_CAUSAL,
    canonical: "pytest -q",
    diagnostic: true,
    intents: [/\bpytest\b/i],
  },
  {
    id: "bash:npm typecheck",
    shapes: [/^npm run typecheck$/, /^(?:npx )?tsc(?: -p [\w./-]+)? --noEmit$/],
    causal: TS_CAUSAL,
    canonical: "npm run typecheck",
    diagnostic: true,
    intents: [/\b(typecheck|type-check|type errors?|tsc)\b/i],
  },
  {
    id: "bash:npm lint",
    shapes: [/^npm run lint$/, /^(?:npx )?eslint(?: \.)?$/],
    causal: LINT_CAUSAL,
    canonical: "npm run lint",
    diagnostic: true,
    intents: [/\b(lint|linter|eslint)\b/i],
  },
  {
    id: "bash:npm build",
    shapes: [/^npm run build$/, /^(?:npx )?tsc -b$/],
    causal: BUILD_CAUSAL,
    canonical: "npm run build",
    diagnostic: true,
    intents: [/\b(build|compile)\b/i],
  },
  {
    id: "bash:cargo test",
    shapes: [/^cargo test(?: -q)?$/],
    causal: RUST_CAUSAL,
    canonical: "cargo test",
    diagnostic: true,
    intents: [/\bcargo test\b/i],
  },
  {
    id: "bash:cargo check",
    shapes: [/^cargo check(?: -q)?$/],
    causal: RUST_CAUSAL,
    canonical: "cargo check",
    diagnostic: true,
    intents: [/\bcargo check\b/i],
  },
  {
    id: "bash:cargo clippy",
    shapes: [/^cargo clippy(?: -q)?$/],
    causal: RUST_CAUSAL,
    canonical: "cargo clippy",
    diagnostic: true,
    intents: [/\bclippy\b/i],
  },
  {
    id: "bash:go test",
    shapes: [/^go test(?: \.\/\.\.\.)?$/],
    causal: GO_CAUSAL,
    canonical: "go test ./...",
    diagnostic: true,
    intents: [/\bgo test\b/i],
  },
  {
    id: "bash:go vet",
    shapes: [/^go vet(?: \.\/\.\.\.)?$/],
    causal: GO_CAUSAL,
    canonical: "go vet ./...",
    diagnostic: true,
    intents: [/\bgo vet\b/i],
  },
  {
    id: "bash:go build",
    shapes: [/^go build(?: \.\/\.\.\.)?$/],
    causal: GO_CAUSAL,
    canonical: "go build ./...",
    diagnostic: true,
    intents: [/\bgo build\b/i],
  },
  {
    id: "bash:ruff",
    shapes: [/^ruff check(?: \.)?$/],
    causal: [...TOOL_CONFIGS.ruff, "**/*.py"],
    canonical: "ruff check .",
    diagnostic: true,
    intents: [/\bruff\b/i],
  },
  {
    id: "bash:mypy",
    shapes: [/^mypy(?: \.)?$/],
    causal: [...TOOL_CONFIGS.mypy, "**/*.py", "**/*.pyi"],
    canonical: "mypy .",
    diagnostic: true,
    intents: [/\bmypy\b/i],
  },
  {
    id: "bash:git status",
    shapes: [/^git status(?: --short| -s)?$/],
    causal: [],
    canonical: "git status",
    diagnostic: false,
    intents: [/\b(git status|uncommitted|changed files|what changed|working tree)\b/i],
  },
  {
    id: "bash:git diff",
    shapes: [/^git diff(?: --stat| --name-only)?$/],
    causal: [],
    canonical: "git diff",
    diagnostic: false,
    intents: [/\b(git diff|diff|my changes)\b/i],
  },
  {
    id: "bash:git log",
    shapes: [/^git log(?: --oneline)?(?: -n \d{1,4}| -\d{1,4})?$/],
    causal: [],
    canonical: "git log --oneline -n 10",
    diagnostic: false,
    intents: [/\b(git log|history|recent commits?|last commits?)\b/i],
  },
  {
    id: "bash:cat package.json",
    shapes: [/^cat package\.json$/],
    causal: [],
    canonical: "cat package.json",
    diagnostic: false,
    intents: [/\b(scripts|dependencies|package\.json)\b/i],
  },
  {
    id: "bash:ls",
    shapes: [/^ls(?: -la| -al| -l| -a)?(?: [\w][\w.-]*(?:\/[\w][\w.-]*)*)?$/],
    causal: [],
    canonical: "ls",
    diagnostic: false,
    intents: [/\b(list files|what files|layout|structure|ls)\b/i],
  },
];

/** Collapses blank runs and trims; commands that differ in anything else are different futures. */
export function normalizeCommand(command: string): string {
  return command.replace(/[ \t]+/g, " ").trim();
}

/** The class whose shapes match the whole command, or undefined (never a future). */
export function classOf(
  command: string,
  classes: readonly CommandClass[] = BUILTIN_CLASSES,
): CommandClass | undefined {
  // Newlines, NULs and other control characters never match a shape; reject them before the regexes run.
  if (/[\p{Cc}]/u.test(command.replace(/\t/g, " "))) return undefined;
  const normalized = normalizeCommand(command);
  if (normalized.length > 200) return undefined;
  // `ls` shapes allow a path argument: never a hidden, home, absolute or parent path.
  return classes.find((c) => c.shapes.some((s) => s.test(normalized)));
}

export { PLAIN_COMMAND } from "../../policy/config-schema.ts";

/** A class from `futures.commands` in permissions.yaml: exactly its command, warmed when its name is mentioned. */
export function classFromConfig(config: {
  name: string;
  command: string;
  causal?: readonly string[] | undefined;
}): CommandClass {
  const command = normalizeCommand(config.command);
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return {
    id: `bash:${config.name}`,
    shapes: [new RegExp(`^${literal(command)}$`)],
    causal: config.causal ?? [],
    canonical: command,
    // Unknown side of the fence: treated like tests, so a text that asks for a change does not warm it.
    diagnostic: true,
    intents: [new RegExp(`\\b${literal(config.name)}\\b`, "i"), new RegExp(literal(command), "i")],
  };
}

export function isFingerprinted(cls: CommandClass): boolean {
  return cls.causal.length > 0;
}
