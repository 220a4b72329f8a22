// The policy engine's public surface. Pure TypeScript: no Node or Workers API, so the same
// code decides in the companion and at the edge.
export { boundaryNote } from "./boundary-note.ts";
export { CANONICAL_TOOLS, type Classification, capabilityOf, classify } from "./capabilities.ts";
export { compilePolicy } from "./compile.ts";
export type { CompiledPolicy, LoadedSource } from "./compiled.ts";
export { ConfigSchema, type PermissionsConfig } from "./config-schema.ts";
export { decide } from "./decide.ts";
export {
  applyEmergency,
  type EmergencyAuditEvent,
  EmergencyControlsSchema,
  emergencyAuditEvents,
  NO_EMERGENCY,
  toolBlocked,
} from "./emergency.ts";
export { homeFor, resolveShellPath } from "./paths.ts";
export {
  type PlanProblem,
  type PlanValidation,
  planRiskOf,
  type RiskClass,
  riskClassOf,
  validatePlan,
} from "./plan.ts";
export { type GateInput, type GateVerdict, type ProposalGate, proposalGate } from "./proposal-gate.ts";
export { carriesSecret, REDACTED, redactText, redactValue } from "./redact.ts";
export { canonicalScope, scopeHash } from "./scope.ts";
export {
  DENYLIST_PATTERNS,
  globMayBeDenylisted,
  isDenylistedPath,
  isProtectedWritePath,
  isSecretPath,
  PROTECTED_WRITE_PATTERNS,
  RISK_ESCALATOR_PATTERNS,
  SECRET_PATH_PATTERNS,
} from "./secret-paths.ts";
export {
  analyzeShell,
  type Concern,
  clearShellCache,
  type ExecUnit,
  type PathUnit,
  pathFacts,
  type ShellAnalysis,
  type ShellAnalyzer,
  type ShellPrefix,
  type ShellUnit,
  type ShellWord,
  setShellAnalyzer,
} from "./shell-analysis.ts";
export type {
  Action,
  Capability,
  CompileResult,
  DecideOptions,
  DecisionRecord,
  EmergencyControls,
  LayerName,
  PolicyLoadError,
  PolicySource,
  Risk,
  Scope,
  SourceLayer,
  ToolCall,
} from "./types.ts";
