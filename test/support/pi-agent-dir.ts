// A Pi agent directory whose models.json points a custom provider at a local scripted model server:
// shared by the Pi e2e tests and bench/precog.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function piAgentDir(base: string, name: string, modelUrl: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "models.json"),
    JSON.stringify({
      providers: {
        scripted: {
          baseUrl: `${modelUrl}/v1`,
          api: "openai-completions",
          apiKey: "dummy-key",
          models: [{ id: "scripted-model" }],
        },
      },
    }),
  );
  return dir;
}
