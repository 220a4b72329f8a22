// The npm name `airlock` belongs to an unrelated package: `npx airlock` would download and run someone else's code.
// Every install or npx command Airlock shows a person must name our own package.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CommandIo } from "../../../src/companion/cli/command.ts";
import { PACKAGE_NAME } from "../../../src/companion/cli/invocation.ts";
import { main } from "../../../src/companion/cli.ts";
import { commands } from "../../../src/companion/commands/index.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** `npx airlock`, `npm i airlock`, `npm install -g airlock`, `pnpm add airlock`, `"args": ["airlock", …]` after npx. */
const UNSCOPED_USE = [
  /\bnpx\s+(-y\s+|--yes\s+)?airlock(?![\w-])/,
  /\b(npm|pnpm|yarn|bun)\s+(i|install|add)\s+((-[gD]|--global|--save-dev|--save-exact)\s+)*airlock(?![\w-])/,
  /"command":\s*"npx",\s*"args":\s*\[\s*("-y",\s*)?"airlock"/,
];

async function allHelp(): Promise<string> {
  let text = "";
  const io: CommandIo = {
    stdout: (t) => {
      text += t;
    },
    stderr: (t) => {
      text += t;
    },
    readStdin: async () => "",
    env: {},
    cwd: ROOT,
  };
  await main(["--help"], io);
  for (const group of ["policy", "hook", "devices"]) await main([group, "--help"], io);
  for (const c of commands) await main([...c.name, "--help"], io);
  return text;
}

describe("the package name", () => {
  it("package.json names our own package, whose bin is airlock", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      name: string;
      bin: Record<string, string>;
    };
    expect(pkg.name).toBe(PACKAGE_NAME);
    expect(pkg.name).not.toBe("airlock");
    expect(Object.keys(pkg.bin)).toEqual(["airlock"]);
  });

  it("README, docs and every help text install or npx only the package by its own name", async () => {
    const docs = readdirSync(join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => [`docs/${f}`, readFileSync(join(ROOT, "docs", f), "utf8")] as const);
    const sources: (readonly [string, string])[] = [
      ["README.md", readFileSync(join(ROOT, "README.md"), "utf8")],
      ...docs,
    ];
    sources.push(["help output", await allHelp()] as const);
    for (const [name, text] of sources) {
      for (const pattern of UNSCOPED_USE) {
        const hit = pattern.exec(text);
        expect(hit?.[0], `${name} tells people to run someone else's "airlock"`).toBeUndefined();
      }
    }
    // The guard itself works: it would catch the old text.
    expect(UNSCOPED_USE.some((p) => p.test("claude mcp add airlock -- npx airlock mcp"))).toBe(true);
    expect(UNSCOPED_USE.some((p) => p.test("npm i -D airlock"))).toBe(true);
    expect(UNSCOPED_USE.some((p) => p.test(`npx ${PACKAGE_NAME} mcp`))).toBe(false);
  });
});
