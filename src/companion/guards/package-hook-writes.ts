// A write or edit tool's call onto a package.json, read against the file on disk: setting or changing a
// git-hook manager's settings there (package-hooks.ts) runs what they name at the person's next commit.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { packageHookChange, type WrittenText } from "../../policy/package-hooks.ts";
import { realPathOf } from "./real-path.ts";

function textAt(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The fact that the write sets or changes package.json's hook settings, or may; null for any other file. */
export function packageHookWriteFact(path: string, written: WrittenText, subject: string): CallFact | null {
  const r = realPathOf(path);
  const real = r.ok ? r.real : path;
  if (basename(path) !== "package.json" && basename(real) !== "package.json") return null;
  const why = packageHookChange(textAt(real), written);
  return why === null
    ? null
    : {
        subject,
        reason: `is package.json and ${why} (lint-staged, husky, simple-git-hooks…): the person's next commit runs them, unjudged`,
      };
}
