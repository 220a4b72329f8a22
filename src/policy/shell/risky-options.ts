// Options that make a program an allow rule may cover write files, run commands or escape the
// engine's view (read options or commands from elsewhere). One table for every program; git's
// subcommands, tar, find, sed and awk scripts add what is specific to them (git.ts,
// archive-and-find.ts, scripts.ts). A write option whose value is a file becomes a `write` unit
// of that file; every other risky option makes the call ask unless the allowing rule names it.

export type OptionRisk = "write" | "exec" | "escape";

export interface RiskyOption {
  risk: OptionRisk;
  why: string;
  /** It takes a value: the next word, glued (`-ofile`) or `--opt=value`. */
  value?: boolean;
  /** For a write: the value is the file written. */
  file?: boolean;
  /** For a write: the program's file operands are rewritten in place (sed -i). */
  inPlace?: boolean;
  /** Only risky when the value matches (ssh -o ProxyCommand=…, not -o Port=22). */
  when?: RegExp;
}

const write = (why: string): RiskyOption => ({ risk: "write", why, value: true, file: true });
const exec = (why: string, value = true): RiskyOption => ({ risk: "exec", why, value });
const escapes = (why: string, value = true): RiskyOption => ({ risk: "escape", why, value });
const inPlace: RiskyOption = { risk: "write", why: "edits the files in place", inPlace: true };

/** An ssh `-o` value that runs a local command. */
const SSH_EXEC_OPTION =
  /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand|PermitLocalCommand|Include|Match|ProxyUseFdpass|SecurityKeyProvider|PKCS11Provider)\b/i;

const SSH_OPTS = {
  "-F": escapes("reads an ssh config file, which can run commands (ProxyCommand)"),
  "-o": { risk: "exec", why: "the ssh option runs a local command", value: true, when: SSH_EXEC_OPTION },
  "-E": write("writes ssh's log to the file"),
  "-S": exec("runs the given program as ssh"),
} satisfies Record<string, RiskyOption>;

export const RISKY_OPTIONS: Readonly<Record<string, Readonly<Record<string, RiskyOption>>>> = {
  shuf: { "-o": write("writes the output to the file"), "--output": write("writes the output to the file") },
  iconv: { "-o": write("writes the output to the file"), "--output": write("writes the output to the file") },
  sdiff: {
    "-o": write("writes the merged output to the file"),
    "--output": write("writes the merged output to the file"),
    "--diff-program": exec("runs the program in place of diff"),
  },
  ag: { "--pager": exec("runs the program as the pager") },
  ack: {
    "--pager": exec("runs the program as the pager"),
    "--ackrc": escapes("reads options (such as --pager) from the file"),
  },
  bat: { "--pager": exec("runs the program as the pager") },
  batcat: { "--pager": exec("runs the program as the pager") },
  yq: { "-i": inPlace, "--inplace": inPlace },
  split: { "--filter": exec("runs the command on every piece") },
  install: { "--strip-program": exec("runs the program to strip binaries") },
  man: {
    "-P": exec("runs the program as the pager"),
    "--pager": exec("runs the program as the pager"),
    "-H": exec("runs the program as a browser"),
    "--html": exec("runs the program as a browser"),
  },
  zip: {
    "-TT": exec("runs the command to test the archive"),
    "--unzip-command": exec("runs the command to test the archive"),
    "-O": write("writes the archive to the file"),
    "--out": write("writes the archive to the file"),
  },
  rsync: {
    "-e": exec("runs the program as the remote shell"),
    "--rsh": exec("runs the program as the remote shell"),
    "--rsync-path": exec("runs the program on the remote side"),
    "--log-file": write("writes rsync's log to the file"),
  },
  scp: SSH_OPTS,
  sftp: SSH_OPTS,
  ssh: SSH_OPTS,
  curl: {
    "-o": write("writes the response to the file"),
    "--output": write("writes the response to the file"),
    "-O": { risk: "write", why: "writes the response to a file named by the server" },
    "--remote-name": { risk: "write", why: "writes the response to a file named by the server" },
    "-c": write("writes cookies to the file"),
    "--cookie-jar": write("writes cookies to the file"),
    "-D": write("writes the headers to the file"),
    "--dump-header": write("writes the headers to the file"),
    "--trace": write("writes a trace to the file"),
    "--trace-ascii": write("writes a trace to the file"),
    "--stderr": write("writes errors to the file"),
    "--libcurl": write("writes C source to the file"),
    "-K": escapes("reads options from the file"),
    "--config": escapes("reads options from the file"),
  },
  wget: {
    "-O": write("writes the download to the file"),
    "--output-document": write("writes the download to the file"),
    "-o": write("writes wget's log to the file"),
    "--output-file": write("writes wget's log to the file"),
    "-a": write("appends wget's log to the file"),
    "--append-output": write("appends wget's log to the file"),
    "-P": write("writes downloads into the directory"),
    "--directory-prefix": write("writes downloads into the directory"),
    "--save-cookies": write("writes cookies to the file"),
    "-e": escapes("runs a wgetrc command"),
    "--execute": escapes("runs a wgetrc command"),
    "--config": escapes("reads wgetrc commands from the file"),
    "--use-askpass": exec("runs the program to ask for a password"),
  },
  // Wrappers that write a file of their own.
  time: { "-o": write("writes the timing to the file"), "--output": write("writes the timing to the file") },
  strace: { "-o": write("writes the trace to the file") },
  ltrace: { "-o": write("writes the trace to the file") },
  script: {
    "-O": write("writes the session's output to the file"),
    "--log-out": write("writes the session's output to the file"),
    "-B": write("writes the session's input and output to the file"),
    "--log-io": write("writes the session's input and output to the file"),
    "-I": write("writes the session's input to the file"),
    "--log-in": write("writes the session's input to the file"),
  },
  xargs: {},
};

/** Operands (not options) that make a program change the system. */
export const RISKY_OPERANDS: Readonly<Record<string, { test: (value: string) => boolean; why: string }>> = {
  // `date MMDDhhmm` sets the clock; `date +%s` only formats.
  // `more +!cmd` runs a command as it starts.
  more: { test: (v) => v.startsWith("+"), why: "runs a more command as it starts" },
  vi: { test: (v) => v.startsWith("+"), why: "runs an editor command as it starts" },
  vim: { test: (v) => v.startsWith("+"), why: "runs an editor command as it starts" },
  nvim: { test: (v) => v.startsWith("+"), why: "runs an editor command as it starts" },
};
