// The one causal-file model: which commands run project code, and which files in the directory they run
// in decide what that code is (a package.json `scripts` entry, a Makefile target, a tool's config files).
// Causal grants pin these files' content (docs/policy.md "Causal grants"); precognition's command
// futures (src/companion/futures/command-classes.ts) take the same config lists and add the sources.
import { basename } from "./paths.ts";

/**
 * Config files each tool reads to decide what it runs, as names (globs on one name) in the directory
 * it runs in, or a relative path (`.cargo/config.toml`).
 */
export const TOOL_CONFIGS = {
  vitest: ["vitest.config.*", "vitest.workspace.*", "vite.config.*"],
  jest: ["jest.config.*", "babel.config.*", ".babelrc"],
  mocha: [".mocharc*"],
  tsc: ["tsconfig*.json"],
  eslint: [".eslintrc*", "eslint.config.*"],
  biome: ["biome.json", "biome.jsonc"],
  prettier: [".prettierrc*", "prettier.config.*"],
  pytest: ["pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "conftest.py"],
  mypy: ["mypy.ini", "pyproject.toml", "setup.cfg"],
  ruff: ["ruff.toml", ".ruff.toml", "pyproject.toml"],
  cargo: ["Cargo.toml", "build.rs", ".cargo/config.toml"],
  go: ["go.mod", "go.work"],
} as const satisfies Record<string, readonly string[]>;
export type Tool = keyof typeof TOOL_CONFIGS;

/** What decides what one command runs. */
export interface CausalRunner {
  /** Stable within a directory: `npm-script:test`, `make:check`, `tool:tsc`. A grant's pin is looked up by it. */
  key: string;
  /** The package.json script it runs (with its pre/post scripts and the scripts it chains to). */
  script: string | null;
  /** The Makefile target it runs (`""`: the default target), or null. */
  makeTarget: string | null;
  /** The Makefile read (`make -f FILE`), when the command names one. */
  makefile: string | null;
  /** The tools whose config files decide what it runs. */
  tools: readonly Tool[];
}

const MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const TEST_ALIASES = new Set(["test", "t", "tst"]);
const RUN_WORDS = new Set(["run", "run-script", "rum", "urn"]);
/** Subcommands of yarn/pnpm/bun that are the manager's own, never a script of that name. */
const MANAGER_OWN = new Set([
  "install",
  "i",
  "add",
  "remove",
  "rm",
  "up",
  "upgrade",
  "update",
  "why",
  "info",
  "list",
  "ls",
  "outdated",
  "audit",
  "exec",
  "dlx",
  "x",
  "create",
  "init",
  "link",
  "unlink",
  "publish",
  "pack",
  "config",
  "cache",
  "version",
  "help",
  "store",
  "import",
  "patch",
  "login",
  "logout",
  "set",
  "workspace",
  "workspaces",
  "node",
  "dedupe",
]);
const NODE_TOOLS: Record<string, Tool> = {
  vitest: "vitest",
  jest: "jest",
  mocha: "mocha",
  tsc: "tsc",
  eslint: "eslint",
  biome: "biome",
  prettier: "prettier",
};
const PY_TOOLS: Record<string, Tool> = { pytest: "pytest", "py.test": "pytest", mypy: "mypy", ruff: "ruff" };
const CARGO_RUNS = new Set(["test", "t", "build", "b", "check", "c", "clippy", "run", "r", "bench", "doc"]);
const GO_RUNS = new Set(["test", "build", "run", "vet", "generate", "install"]);
const PYTHONS = /^python(?:3(?:\.\d+)?)?$/;
const MAKES = new Set(["make", "gmake"]);

function runner(key: string, tools: readonly Tool[], more: Partial<CausalRunner> = {}): CausalRunner {
  return { key, script: null, makeTarget: null, makefile: null, tools, ...more };
}

/** `npm test`, `npm run build`, `yarn lint`, `pnpm run x`: the script run, or null. */
function scriptOf(manager: string, args: readonly string[]): string | null {
  const [first, second] = args;
  if (first === undefined) return null;
  if (TEST_ALIASES.has(first) || first === "start" || first === "stop" || first === "restart")
    return first === "t" || first === "tst" ? "test" : first;
  if (RUN_WORDS.has(first)) return second !== undefined && !second.startsWith("-") ? second : null;
  // yarn, pnpm and bun run a script named by its bare name; npm's other words are its own commands.
  if (manager !== "npm" && !first.startsWith("-") && !MANAGER_OWN.has(first)) return first;
  return null;
}

/** The first word that is not an option: the tool npx/bunx runs. */
function firstOperand(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith("-"));
}

function makeRunner(args: readonly string[]): CausalRunner | null {
  let makefile: string | null = null;
  let target = "";
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    // A make run elsewhere (`-C dir`) or with flags whose operand we would misread is not pinned here.
    if (a === "-C" || a.startsWith("--directory") || a.startsWith("-C")) return null;
    if (a === "-f" || a === "--file" || a === "--makefile") {
      makefile = args[++i] ?? null;
      if (makefile === null) return null;
    } else if (a.startsWith("--file=") || a.startsWith("--makefile=")) makefile = a.slice(a.indexOf("=") + 1);
    else if (a === "-j" || a === "-l" || a === "-o" || a === "-W") i++;
    else if (!a.startsWith("-") && !a.includes("=") && target === "") target = a;
  }
  return runner(`make:${makefile ?? ""}:${target}`, [], { makeTarget: target, makefile });
}

/**
 * The runner of one simple command's words (argv[0] may be a path: `node_modules/.bin/vitest` is vitest),
 * or null when it runs no project code this model knows.
 */
export function causalRunnerOf(argv: readonly (string | null)[]): CausalRunner | null {
  if (argv.some((w) => w === null)) return null;
  const words = argv as readonly string[];
  const program = basename(words[0] ?? "");
  const args = words.slice(1);
  if (MANAGERS.has(program)) {
    const script = scriptOf(program, args);
    if (script !== null) return runner(`npm-script:${script}`, [], { script });
    // `pnpm exec tsc`, `yarn dlx eslint`, `bun x vitest`: the tool's own configs.
    if (["exec", "dlx", "x"].includes(args[0] ?? "")) return toolRunner(firstOperand(args.slice(1)));
    return null;
  }
  if (program === "npx" || program === "bunx" || program === "pnpx") return toolRunner(firstOperand(args));
  if (MAKES.has(program)) return makeRunner(args);
  if (program === "cargo") {
    const sub = firstOperand(args);
    return sub !== undefined && CARGO_RUNS.has(sub) ? runner(`cargo:${sub}`, ["cargo"]) : null;
  }
  if (program === "go") {
    const sub = args[0];
    return sub !== undefined && GO_RUNS.has(sub) ? runner(`go:${sub}`, ["go"]) : null;
  }
  if (PYTHONS.test(program) && args[0] === "-m") return pyRunner(args[1]);
  return toolRunner(program) ?? pyRunner(program);
}

function toolRunner(name: string | undefined): CausalRunner | null {
  if (name === undefined) return null;
  const base = basename(name.replace(/@[^/]*$/, ""));
  const tool = NODE_TOOLS[base];
  return tool === undefined ? null : runner(`tool:${tool}`, [tool]);
}

function pyRunner(name: string | undefined): CausalRunner | null {
  const tool = name === undefined ? undefined : PY_TOOLS[name];
  return tool === undefined ? null : runner(`tool:${tool}`, [tool]);
}

/** The tools a script's text runs (by word), so their config files count for it too. */
export function toolsNamedIn(text: string): Tool[] {
  const out = new Set<Tool>();
  for (const word of text.split(/[\s;&|()"'`]+/)) {
    const base = basename(word);
    const tool = NODE_TOOLS[base] ?? PY_TOOLS[base];
    if (tool !== undefined) out.add(tool);
    if (base === "cargo") out.add("cargo");
  }
  return [...out];
}

/** Every config name a set of tools reads, once. */
export function configNamesOf(tools: readonly Tool[]): string[] {
  return [...new Set(tools.flatMap((t) => TOOL_CONFIGS[t]))];
}
