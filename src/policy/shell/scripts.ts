// What a sed script or an awk program does beyond reading its input, as their readers report it
// (sed-script.ts, awk-program.ts): a command it runs, a file it writes or reads.

export interface ScriptFinding {
  risk: "exec" | "write" | "read";
  why: string;
  /** The file written or read, when the script names one. */
  file?: string;
}
