// A shell asked only to parse a script. Its own file with no imports: wrappers.ts asks it, and the script-run
// helpers (script-runs.ts) take wrappers.ts's words, so a shared home would be an import cycle.

/** The part of a word this check reads (wrappers.ts's Arg has it). */
interface ShellWord {
  value: string | null;
  pipe?: boolean;
}

/**
 * `bash -n FILE` (noexec) reads and parses the file and runs nothing: neither its commands nor BASH_ENV
 * (dash ignores ENV when not interactive; -i would turn noexec off, so only the bare form). Proven on bash
 * 5.2 and dash 0.5.12: a file that would `touch` leaves nothing. The file is read (shellScriptFile).
 */
export function parsesOnly(argv: readonly ShellWord[]): boolean {
  const file = argv[2];
  return (
    argv.length === 3 &&
    argv[1]?.value === "-n" &&
    file?.value != null &&
    !/^[-+]/.test(file.value) &&
    file.pipe !== true
  );
}
