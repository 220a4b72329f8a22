// The policy engine's public surface. Pure TypeScript: no Node or Workers API, so the same
// code decides in the companion and at the edge.

export {
  agentAskJustification,
  SOLE_MARK,
  soleMarked,
  withAgentAsk,
} from "./agent-check.ts";
export { boundaryNote } from "./boundary-note.ts";
export {
  type CallIdentity,
  callFingerprint,
  canonicalJson,
  derivedCallId,
  sha256Hex,
} from "./call-binding.ts";
export { CANONICAL_TOOLS, type Classification, capabilityOf, classify } from "./capabilities.ts";
export { compilePolicy } from "./compile.ts";
export type { CompiledPolicy, CompileResult, LoadedSource } from "./compiled.ts";
export { ConfigSchema, type PermissionsConfig } from "./config-schema.ts";
export {
  type ConveyorGrantHit,
  type ConveyorGrantKey,
  type ConveyorGrantRule,
  type ConveyorIdentity,
  conveyorGrantCovers,
  describeConveyorGrant,
  matchConveyorGrants,
} from "./conveyor-grants.ts";
export * from "./deadlines.ts";
export { decide } from "./decide.ts";
export {
  applyEmergency,
  type EmergencyAuditEvent,
  EmergencyControlsSchema,
  emergencyAuditEvents,
  NO_EMERGENCY,
  toolBlocked,
} from "./emergency.ts";
export { type GrantOffer, grantOffer, HIGH_RISK_WHY } from "./grant-offer.ts";
export { execWider, pathWider, quoteArgv } from "./grant-patterns.ts";
export { type GrantUnit, grantUnitsOf, type StoredUnit, storedUnit } from "./grant-units.ts";
export {
  type GrantEffect,
  type GrantHit,
  type GrantMatchKind,
  type GrantRule,
  type GrantSubject,
  matchGrants,
  type NewGrantRule,
  offeredPatterns,
  ruleCovers,
  rulesForAnswer,
  versionCovers,
  versionRangeFor,
} from "./grants.ts";
export { type JudgedCall, judgeCall } from "./judge-call.ts";
export * from "./limits.ts";
export { homeFor, resolveShellPath } from "./paths.ts";
export { type GateInput, type GateVerdict, type ProposalGate, proposalGate } from "./proposal-gate.ts";
export { carriesSecret, REDACTED, redactText, redactValue } from "./redact.ts";
export {
  approvalCovers,
  higherClass,
  isRiskClass,
  planRiskOf,
  type RiskClass,
  riskClassOf,
} from "./risk-class.ts";
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
export { MAX_SHOWN_CALL_CHARS, type ShownCall, shownCall, visibleText } from "./shown-call.ts";
export {
  type CanonicalCall,
  canonicalCalls,
  canonicalToolName,
  isKnownTool,
  patchTargets,
} from "./tool-names.ts";
export {
  type ContextEntry,
  contextTaint,
  type TurnEffect,
  taintReason,
  turnEffect,
} from "./turn-safety.ts";
export type {
  Action,
  Capability,
  DecideOptions,
  DecisionRecord,
  EmergencyControls,
  LayerName,
  PolicyLoadError,
  PolicyMode,
  PolicySource,
  Risk,
  Scope,
  SourceLayer,
  ToolCall,
} from "./types.ts";
export { UNGATED_DEFAULT_FROM, ungatedPolicy } from "./ungated.ts";
export {
  hiddenToolReason,
  PERMISSIVE_RULE,
  type Verdict,
  type VerdictInputs,
  type VerdictSource,
  verdictOf,
} from "./verdict.ts";
