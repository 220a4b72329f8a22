// Shared fixtures for the policy tests: compile sources or fail loudly.
import {
  type CompiledPolicy,
  compilePolicy,
  type DecisionRecord,
  decide,
  type PolicySource,
} from "../../../src/policy/index.ts";

export const CWD = "/home/dev/project";

export function compile(...sources: PolicySource[]): CompiledPolicy {
  const result = compilePolicy(sources);
  if (!result.ok) throw new Error(`policy did not compile: ${JSON.stringify(result.errors)}`);
  return result.policy;
}

export function user(text: string): PolicySource {
  return { layer: "user", path: "/home/dev/.airlock/permissions.yaml", text };
}

export function agent(text: string): PolicySource {
  return { layer: "agent", path: "/home/dev/.agents/permissions.yaml", text };
}

export function project(text: string, trusted = false): PolicySource {
  return { layer: "project", path: `${CWD}/.airlock/permissions.yaml`, text, trusted };
}

export function account(text: string): PolicySource {
  return { layer: "account", path: "account", text };
}

export function bash(policy: CompiledPolicy, command: string, hasUI = true): DecisionRecord {
  return decide(policy, { tool: "bash", input: { command }, cwd: CWD }, { hasUI });
}

export function call(
  policy: CompiledPolicy,
  tool: string,
  input: Record<string, unknown>,
  hasUI = true,
): DecisionRecord {
  return decide(policy, { tool, input, cwd: CWD }, { hasUI });
}

/** A typical pi.hitl-style allowlist: git/ls/cat/echo allowed, rm blocked, everything else asks. */
export const ALLOWLIST = `
version: 1
default_action: ask
rules:
  - name: Bash
    condition: tool == "bash"
    rules:
      - name: rm
        condition: command.startsWith("rm ") || command == "rm"
        action: block
        message: never delete
      - name: safe
        condition: command.matches("^(git (status|log|diff)|ls|cat|echo|grep|head|true|false)( .*)?$")
        action: allow
      - default: confirm
  - name: Files in project
    condition: tool in ["read", "write", "edit", "grep", "find", "ls"] && path.startsWith(cwd)
    action: allow
`;
