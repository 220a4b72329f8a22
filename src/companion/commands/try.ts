// `airlock try`: one sample call that policy sends to a person, through the daemon, so a card appears on the phone.
import { randomUUID } from "node:crypto";
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs } from "../cli/command-args.ts";
import { promptTimeoutMs } from "../cli/config.ts";
import { airlockInvocation, BIN_PATH } from "../cli/invocation.ts";
import { daemonAnswers, startDaemonInBackground, waitForDaemon } from "../control/autostart.ts";
import { loadCredentials } from "../edge/credentials.ts";

const HELP = `Usage: airlock try [--json]

Sends one harmless sample call through the daemon (starting it if needed): the tool
"airlock_try", which no rule of the starter policy covers, so your policy says "ask" and a card
appears on your phone. Approve or deny it there; the answer is printed here. Nothing runs either
way. It waits up to AIRLOCK_PROMPT_TIMEOUT_MS (default 30 s).

Options:
  --json   print the decision {decision, reason, source, promptId?}

Exit codes: 0 approved, 1 denied (by you, by policy, or no answer in time), 3 not paired.
`;

export const tryCommand: Command = {
  name: ["try"],
  help: HELP,
  async run(args, io) {
    const json = parseCommandArgs(args, { json: { type: "boolean" } }).values.json ?? false;
    const airlock = airlockInvocation(io.env, io.cwd);
    const creds = loadCredentials(io.env);
    if (!creds.ok) {
      io.stderr(
        `airlock try: this machine is not paired, so no phone can be asked. Mint a code on your phone ` +
          `(More → Devices → Pair another device), then: ${airlock} pair <code> --server <the dashboard's address>\n`,
      );
      return ExitCode.config;
    }
    // Only a daemon that is not running yet is started (and only then announced).
    if (!(await daemonAnswers(io.env))) {
      if ((await startDaemonInBackground(io.env, BIN_PATH)) && !json)
        io.stderr("Starting the Airlock daemon…\n");
      await waitForDaemon(io.env, 5_000);
    }
    const seconds = Math.round(promptTimeoutMs(io.env) / 1000);
    if (!json)
      io.stderr(
        `Sent a test call to your phone (${creds.credentials.server}); approve or deny it there. Waiting up to ${seconds} s…\n`,
      );
    const { requestDecision } = await import("../control/client.ts");
    const decision = await requestDecision(
      {
        callId: `try:${randomUUID()}`,
        sessionId: `try-${process.pid}`,
        agent: { id: "airlock-try", name: "airlock try" },
        tool: "airlock_try",
        input: { note: "A test call from airlock try: approve or deny it; nothing runs either way." },
        cwd: io.cwd,
        hasUI: false,
      },
      { env: io.env, askMode: "approver" },
    );
    if (json) io.stdout(`${JSON.stringify(decision)}\n`);
    else if (decision.decision === "allow") {
      io.stdout(`allow: ${decision.reason}\nAirlock works end to end. Next: run your agent as usual.\n`);
    } else {
      io.stdout(`${decision.decision}: ${decision.reason}\n`);
      if (decision.source === "policy")
        io.stdout(`Your policy decided without asking; "${airlock} init" writes a starter that asks.\n`);
    }
    return decision.decision === "allow" ? ExitCode.ok : ExitCode.failure;
  },
};
