// The OpenCode plugin `airlock hook opencode --install` writes: a small ES module OpenCode loads from its plugin
// folder. It hands each call to `airlock hook opencode` (a new process, as every agent's command hook is) and fails
// closed: a hook that cannot start, exits without an answer or answers garbage denies the call with why.

/** The module's text, with the command that starts Airlock's hook written in. */
export function openCodePluginSource(command: string): string {
  return `// Airlock for OpenCode: written by \`airlock hook opencode --install\`; \`--uninstall\` removes it.
// Each tool call goes to Airlock before it runs; a deny throws, and OpenCode hands the reason to the model.
import { spawn } from "node:child_process";

const COMMAND = ${JSON.stringify(command)};

function ask(event) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(COMMAND, { shell: true, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      reject(new Error(\`Airlock denied this call: its hook could not start (\${error?.message ?? error})\`));
      return;
    }
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { err += d; });
    child.on("error", (error) => reject(new Error(\`Airlock denied this call: its hook could not start (\${error.message})\`)));
    child.on("close", (code) => {
      try {
        const answer = JSON.parse(out);
        if (answer && (answer.decision === "allow" || answer.decision === "deny")) return resolve(answer);
      } catch {}
      const why = err.trim().split("\\n")[0] || \`exit code \${code}\`;
      reject(new Error(\`Airlock denied this call: its hook gave no answer (\${why})\`));
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

export const AirlockPlugin = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const answer = await ask({
      hook_event_name: "tool.execute.before",
      session_id: input.sessionID,
      call_id: input.callID,
      cwd: directory,
      tool: input.tool,
      args: output.args ?? {},
    });
    if (answer.decision !== "allow") throw new Error(answer.reason || "Airlock denied this call");
    if (answer.args && typeof answer.args === "object") Object.assign(output.args, answer.args);
  },
  "chat.message": async (input, output) => {
    const prompt = (output?.parts ?? [])
      .filter((p) => p?.type === "text" && typeof p.text === "string" && !p.synthetic)
      .map((p) => p.text)
      .join("\\n");
    // Warming only: a prompt that cannot be handed over changes nothing about the calls that follow.
    if (prompt) await ask({ hook_event_name: "chat.message", session_id: input.sessionID, cwd: directory, prompt }).catch(() => {});
  },
});
`;
}
