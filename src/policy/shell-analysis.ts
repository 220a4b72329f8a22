// The shell analysis's public entry (the implementation lives in shell/): what a bash command
// runs, reads and writes, as units the decision and the grant matcher judge one by one.
export {
  analyzeShell,
  analyzeShellUncached,
  clearShellCache,
  mvdanAnalyzer,
  type ShellAnalyzer,
  setShellAnalyzer,
} from "./shell/analysis.ts";
export { type PathFacts, pathFacts } from "./shell/path-facts.ts";
export type {
  Concern,
  Effect,
  ExecUnit,
  PathUnit,
  ShellAnalysis,
  ShellCwd,
  ShellPrefix,
  ShellUnit,
  ShellWord,
  UnparsableUnit,
} from "./shell/units.ts";
