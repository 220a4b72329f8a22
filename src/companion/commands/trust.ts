// `airlock trust [DIR]`: trust a repository's own permissions files, pinned to their content.
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { compilePolicy } from "../../policy/index.ts";
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs } from "../cli/command-args.ts";
import { projectPolicyPaths } from "../local-policy/files.ts";
import { readTrustStore, trustFile, untrustFile } from "../local-policy/trust.ts";
import { formatLoadError } from "./policy-sources.ts";

function existing(paths: string[]): string[] {
  return paths.filter((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

export const trust: Command = {
  name: ["trust"],
  help: `Usage: airlock trust [DIR] [--revoke] [--list] [--json]

An untrusted project config can only add deny, ask and hidden rules. Trusting it lets its allow
rules, default_action and headless_ask apply too. Trust is pinned to the sha256 of each file's
content and stored in ~/.airlock/trusted.json (mode 0600): any change to the file needs trust
again. DIR defaults to the current directory; its repository root (nearest .git) is used.

Options:
  --revoke   Remove trust for the repository's files
  --list     List trusted files and their hashes

Exit codes: 0 done, 1 no project config found, 3 a config does not compile (nothing trusted).`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { revoke: { type: "boolean" }, list: { type: "boolean" }, json: { type: "boolean" } },
      { max: 1, what: "one DIR" },
    );
    if (values.list) {
      const entries = readTrustStore(io.env);
      io.stdout(
        values.json
          ? `${JSON.stringify(entries, null, 2)}\n`
          : entries.map((e) => `${e.sha256}  ${e.path}  (${e.trustedAt})\n`).join(""),
      );
      return ExitCode.ok;
    }
    const dir = resolve(io.cwd, positionals[0] ?? ".");
    const files = existing(projectPolicyPaths(dir));
    if (files.length === 0) {
      io.stderr(`airlock trust: no .airlock/permissions.{yaml,yml,json} or .pi/permissions.* under ${dir}\n`);
      return ExitCode.failure;
    }
    if (values.revoke) {
      for (const f of files) io.stdout(`${untrustFile(f, io.env) ? "revoked" : "not trusted"}  ${f}\n`);
      return ExitCode.ok;
    }
    const texts = files.map((f) => ({ path: f, text: readFileSync(f, "utf8") }));
    // Never trust a file that does not load: trust would then pin a broken policy.
    const check = compilePolicy(
      texts.map((t) => ({ layer: "project" as const, path: t.path, text: t.text, trusted: true })),
    );
    if (!check.ok) {
      for (const e of check.errors) io.stderr(`${formatLoadError(e)}\n`);
      return ExitCode.config;
    }
    const entries = texts.map((t) => trustFile(t.path, t.text, io.env));
    io.stdout(
      values.json
        ? `${JSON.stringify(entries, null, 2)}\n`
        : entries.map((e) => `trusted  ${e.path}  sha256 ${e.sha256}\n`).join(""),
    );
    return ExitCode.ok;
  },
};
