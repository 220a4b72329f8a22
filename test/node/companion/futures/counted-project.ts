// A project for the daemon's futures tests whose `npm test` runs `testScript` (test/run.js, which appends to
// runs.log) against src/helper.ts: each real run adds a line, so a served answer (no new line) is told apart.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeCountedProject(project: string, testScript: string): void {
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(project, "test"), { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ scripts: { test: "node test/run.js" } }));
  writeFileSync(join(project, "test/run.js"), testScript);
  writeFileSync(join(project, "src/helper.ts"), "export const v = 1;\n");
}

/** How many times the project's tests really ran. */
export function runsOf(project: string): number {
  const path = join(project, "runs.log");
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").length - 1 : 0;
}
