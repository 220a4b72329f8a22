// The Claude Code / Codex serving path: a warmed shell command is rewritten, through PreToolUse's
// `updatedInput`, into `airlock futures serve <key> -- '<original>'`, which serves or runs the original.

/** Single-quotes a string for bash: the original reaches `futures serve` as one argument, unexpanded. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The node and `airlock` entry an agent's hook ran (the daemon answers hooks for other processes). */
export interface AirlockEntry {
  node: string;
  bin: string;
}

/**
 * The command line that runs `futures serve`. `AIRLOCK_FUTURES_COMMAND` overrides the prefix (default: the
 * node and airlock entry that ran this hook, so it works whatever PATH the agent's shell has).
 */
export function airlockPrefix(env: NodeJS.ProcessEnv = process.env, entry?: AirlockEntry): string {
  const set = env.AIRLOCK_FUTURES_COMMAND?.trim();
  if (set) return set;
  if (entry) return `${shellQuote(entry.node)} ${shellQuote(entry.bin)}`;
  const bin = process.argv[1];
  return bin ? `${shellQuote(process.execPath)} ${shellQuote(bin)}` : "airlock";
}

export function rewriteCommand(key: string, original: string, prefix: string): string {
  if (!/^f[0-9a-f]{24}$/.test(key)) throw new Error("not a futures key");
  return `${prefix} futures serve ${key} -- ${shellQuote(original)}`;
}
