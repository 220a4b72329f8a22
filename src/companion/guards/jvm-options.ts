// The JVM adds the options JAVA_TOOL_OPTIONS and _JAVA_OPTIONS hold, and the java launcher those of
// JDK_JAVA_OPTIONS, to every run, `java -version` too: a `-javaagent:` or `-agentpath:` there runs its code
// first. Any of them set in the agent's environment makes a java unit ask (set by the command, env-vars.ts).
import type { CallFact } from "../../policy/call-facts.ts";

const JVM_VARIABLES = ["JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"];

export function jvmOptionsFact(env: NodeJS.ProcessEnv, subject: string): CallFact | null {
  const set = JVM_VARIABLES.find((name) => (env[name] ?? "") !== "");
  if (set === undefined) return null;
  return {
    subject,
    reason: `${set} is set in the agent's environment: the JVM adds its options (agents among them) to every run`,
  };
}
