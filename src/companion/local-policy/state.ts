// What the companion knows about its layered policy for a cwd: compiled, or the errors that stop it.
// No I/O here, so the decision core that reads it runs anywhere (the parity test runs it in workerd).
import type { CompiledPolicy, PolicyLoadError, SourceLayer } from "../../policy/index.ts";

export interface PolicyFile {
  layer: SourceLayer | "trust";
  path: string;
  present: boolean;
}

export type PolicyState =
  | { ok: true; policy: CompiledPolicy; files: PolicyFile[]; loadedAt: string }
  | { ok: false; errors: PolicyLoadError[]; files: PolicyFile[]; loadedAt: string };

export function formatLoadErrors(errors: readonly PolicyLoadError[]): string {
  return errors
    .slice(0, 3)
    .map((e) => `${e.path}${e.line ? `:${e.line}` : ""}${e.rule ? ` (rule ${e.rule})` : ""}: ${e.message}`)
    .join("; ");
}
