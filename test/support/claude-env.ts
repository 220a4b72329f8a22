// The environment for a real `claude -p` in a test: its own config directory, the scripted model server
// (support/model-server.ts) as its Anthropic API with a dummy key, and nothing else contacted.

/** Nothing but the scripted server may be contacted: no telemetry, error reports or update checks. */
export const CLAUDE_OFFLINE = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
};

export function claudeEnv(modelUrl: string, configDir: string): Record<string, string> {
  return {
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: "sk-ant-test-dummy",
    ...CLAUDE_OFFLINE,
  };
}
