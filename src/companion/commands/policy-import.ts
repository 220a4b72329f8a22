// `airlock policy import claude-code <settings.json>`: Claude Code rules as an Airlock config.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { stringify } from "yaml";
import { z } from "zod";
import { compilePolicy } from "../../policy/index.ts";
import { type Command, ExitCode } from "../command.ts";
import { parseCommandArgs, UsageError } from "../command-args.ts";
import { projectRootOf, translateClaudePermissions } from "./policy-claude-code.ts";
import { formatLoadError } from "./policy-sources.ts";

const SettingsSchema = z.object({
  permissions: z
    .object({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
    })
    .passthrough()
    .optional(),
});

export const policyImport: Command = {
  name: ["policy", "import"],
  help: `Usage: airlock policy import claude-code SETTINGS.json [--out FILE]

Reads permissions.allow/ask/deny from a Claude Code settings file and prints an equivalent
permissions.yaml: deny rules first, then ask, then allow (Claude Code's deny > ask > allow),
default_action ask. Supported: Bash(cmd), Bash(prefix:*), Bash(glob *), Read/Edit/Write(path
globs with //, ~/, / and ./ roots), Grep/Glob/LS(path), WebFetch(domain:HOST), mcp__server[__tool],
and bare tool names. The output is compiled before it is written.

Exit codes: 0 written, 1 a rule could not be translated (nothing written), 2 bad arguments.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { out: { type: "string" } },
      { max: 2, what: "claude-code and one SETTINGS.json" },
    );
    const [kind, file] = positionals;
    if (kind !== "claude-code") {
      throw new UsageError(
        kind
          ? `cannot import from "${kind}"; the only source is claude-code`
          : "say what to import: claude-code",
      );
    }
    if (!file) throw new UsageError("give the Claude Code settings file to import");
    const path = resolve(io.cwd, file);
    let settings: z.infer<typeof SettingsSchema>;
    try {
      const parsed = SettingsSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
      if (!parsed.success)
        throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      settings = parsed.data;
    } catch (error) {
      io.stderr(`airlock policy import: ${path}: ${(error as Error).message}\n`);
      return ExitCode.usage;
    }
    const { config, errors } = translateClaudePermissions(settings.permissions ?? {}, projectRootOf(path));
    if (errors.length > 0) {
      for (const e of errors) io.stderr(`cannot translate: ${e}\n`);
      return ExitCode.failure;
    }
    const text = `# Imported from ${path} by airlock policy import claude-code\n${stringify(config, { lineWidth: 0 })}`;
    const check = compilePolicy([{ layer: "user", path: values.out ?? "<imported>", text }]);
    if (!check.ok) {
      for (const e of check.errors)
        io.stderr(`internal error, translation does not compile: ${formatLoadError(e)}\n`);
      return ExitCode.failure;
    }
    if (values.out) writeFileSync(resolve(io.cwd, values.out), text);
    else io.stdout(text);
    return ExitCode.ok;
  },
};
