// `airlock policy import claude-code <settings.json>`: Claude Code rules as an Airlock config.
import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { stringify } from "yaml";
import { z } from "zod";
import { compilePolicy } from "../../policy/index.ts";
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { projectRootOf, translateClaudePermissions } from "./policy-claude-code.ts";
import { formatLoadError } from "./policy-sources.ts";

const SettingsSchema = z.object({
  permissions: z
    .object({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      defaultMode: z.string().optional(),
      additionalDirectories: z.array(z.string()).optional(),
    })
    .passthrough()
    .optional(),
});

export const policyImport: Command = {
  name: ["policy", "import"],
  help: `Usage: airlock policy import claude-code SETTINGS.json [--out FILE]

Reads permissions (allow, ask, deny, defaultMode, additionalDirectories) from a Claude Code
settings file and prints a permissions.yaml that decides as Claude Code does: deny rules first,
then ask, then allow (Claude Code's deny > ask > allow), default_action ask (deny for dontAsk).
Bash(cmd), Bash(prefix:*) and Bash(x *) keep Claude Code's word boundary; Read/Edit paths are
gitignore patterns with //, ~/, / and ./ roots (a pattern without a slash matches at any depth);
WebFetch(domain:HOST) matches the URL's real host, any case; mcp__server, mcp__server__* and
mcp__server__tool; any other tool by name.

It is never looser than Claude Code: a rule whose meaning cannot be expressed is dropped when it
allows and widened to the whole tool when it denies or asks, and each such rule is named in a
warning (stderr, and as a comment in the output). The output is compiled before it is written.

Exit codes: 0 written (warnings allowed), 1 the translation does not compile, 2 bad arguments.`,
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
    const home = io.env.HOME?.trim() || homedir();
    const { config, warnings } = translateClaudePermissions(
      settings.permissions ?? {},
      projectRootOf(path),
      home,
    );
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    const notes = warnings.map((w) => `# warning: ${w.replace(/\n/g, " ")}\n`).join("");
    const text = `# Imported from ${path} by airlock policy import claude-code\n${notes}${stringify(config, { lineWidth: 0 })}`;
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
