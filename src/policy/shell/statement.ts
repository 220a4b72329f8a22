// One statement of a script: its redirections, the command it runs (once per value a loop variable is
// known to take), the variables it sets, and the code bash would evaluate again.
import type { Collector } from "./collector.ts";
import { execUnit, prefixConcerns, type Run, type Shell, simpleCommand } from "./command.ts";
import { dangerousVariable } from "./env-vars.ts";
import { pipedPaths, substitutedPaths } from "./found-paths.ts";
import { boundArgvs } from "./loop-vars.ts";
import { type Assignment, redirOps, type StmtEvent, type Word } from "./parser.ts";
import { redirects } from "./redirects.ts";
import { unknownExpansions } from "./secret-output.ts";
import { argsOf, declArgv, prefixesOf, setNames } from "./statement-words.ts";
import type { StdFds } from "./std-fds.ts";
import type { Concern } from "./units.ts";
import { unquotedGlobConcerns } from "./unquoted-globs.ts";
import { NUMBER } from "./walk.ts";
import { wordValue } from "./words.ts";
import type { Arg } from "./wrappers.ts";

/** Judges one statement; returns where its redirections point fds 0-2 (for the body of a group or loop). */
export function statement(src: string, event: StmtEvent, shell: Shell, run: Run, out: Collector): StdFds {
  const secrets: Concern[] = [];
  const { stdin, std } = redirects(src, event.redirs, shell, out, secrets);
  // The command (and a `bash -c` script it runs) has the descriptors its redirections set, the rest not.
  const outer = shell.std;
  shell.std = std;
  try {
    command(src, event, shell, run, out, stdin, secrets);
  } finally {
    if (outer === undefined) delete shell.std;
    else shell.std = outer;
  }
  return std;
}

/**
 * `a=(~/.ssh/*)`: an array's words expand as a command's do, globs into the names they match, so the
 * assignment is judged as `:` with those words (the listing a later `echo "${a[@]}"` prints); so are
 * `select`'s words, which it prints.
 */
function arrayWords(
  src: string,
  from: readonly Assignment[] | readonly Word[],
  shell: Shell,
  run: Run,
): void {
  const words = from.flatMap((a) => ("parts" in a ? [a] : (a.elements ?? [])));
  const argv = argsOf(src, words);
  if (!argv.some((a) => a.glob || a.rescan !== undefined)) return;
  const colon = { value: ":", raw: ":", glob: false, tilde: false };
  simpleCommand({ argv: [colon, ...argv], prefixes: [], stdin: null, shell }, run);
}

/** The file a statement's standard input reads: its own `< FILE`, or a plain `cat FILE |` before it. */
function stdinFile(src: string, event: StmtEvent): Arg | null {
  const ops = redirOps();
  const own = event.redirs.filter((r) => /^0?</.test(src.slice(r.start, r.end)));
  if (own.length > 0) {
    const last = own[own.length - 1];
    return own.length === 1 && last?.op === ops.in && last.word !== null
      ? (argsOf(src, [last.word])[0] ?? null)
      : null;
  }
  const from = event.stdinFrom;
  if (from?.cmd?.type !== "call" || from.cmd.assigns.length > 0 || from.redirs.length > 0) return null;
  const argv = argsOf(src, from.cmd.args);
  const file = argv[1];
  const plain =
    argv.length === 2 && argv[0]?.value === "cat" && file?.value != null && !file.value.startsWith("-");
  return plain && file !== undefined && !file.glob ? file : null;
}

function command(
  src: string,
  event: StmtEvent,
  shell: Shell,
  run: Run,
  out: Collector,
  stdin: string | null,
  secrets: Concern[],
): void {
  const before = out.units.length;
  const cmd = event.cmd;
  if (cmd?.type === "call") {
    const prefixes = prefixesOf(src, cmd.assigns);
    if (cmd.args.length > 0) {
      // A loop variable's known values: the command once per value (loop-vars.ts).
      const argvs = (
        boundArgvs(cmd.args, shell.bound, (ws) => argsOf(src, ws)) ?? [argsOf(src, cmd.args)]
      ).map((argv) => substitutedPaths(src, argv, (ws) => argsOf(src, ws), shell.assigned));
      const piped = pipedPaths(src, event, (ws) => argsOf(src, ws));
      const fromFile = stdinFile(src, event);
      for (const argv of argvs)
        simpleCommand(
          {
            argv,
            prefixes,
            stdin,
            shell,
            concerns: secrets,
            ...(piped === null ? {} : { piped }),
            ...(fromFile === null ? {} : { stdinFile: fromFile }),
          },
          run,
        );
    } else {
      // Assignments alone change the shell for every later command.
      const concerns = prefixConcerns(prefixes);
      for (const p of prefixes) concerns.push(...unknownExpansions(p.raw, shell.assigned, `\`${p.raw}\``));
      if (concerns.length > 0) {
        const argv = prefixes.map((p) => ({ value: p.raw, raw: p.raw, glob: false, tilde: false }));
        out.push(execUnit(argv, { prefixes, cwd: shell.cwd, dynamic: null, effect: "run", concerns }));
      }
      if (prefixes.some((p) => p.name === "CDPATH" || p.name === "HOME" || p.name === "PWD"))
        shell.cwd = null;
      arrayWords(src, cmd.assigns, shell, run);
    }
  } else if (cmd?.type === "decl") {
    const argv = declArgv(src, cmd);
    const arrays = cmd.args.some(
      (a) => a.naked && a.value !== null && /^[-+][a-zA-Z]*[aA]/.test(wordValue(a.value).value ?? ""),
    );
    const stringIntoArray = arrays && cmd.args.some((a) => !a.naked && !a.array && a.value !== null);
    simpleCommand({ argv, prefixes: [], stdin, shell, concerns: secrets }, run);
    arrayWords(src, cmd.args, shell, run);
    if (stringIntoArray)
      event.hazards = [
        ...event.hazards,
        {
          reason: "a string assigned to an array is parsed again (its subscripts run as code)",
          start: event.start,
          end: event.end,
        },
      ];
  } else if (cmd?.type === "keyword") {
    const text = src.slice(cmd.start, cmd.end).split("\n")[0] ?? "";
    const argv = text
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => ({ value: w, raw: w, glob: false, tilde: false }));
    // What `[[ … ]]` tests is expanded: `[[ $SENTRY_DSN == a* ]] && echo y` prints a secret a bit at a
    // time, so only harmless variables may expand in it, as in any command's words.
    const concerns = unknownExpansions(src.slice(cmd.start, cmd.end), shell.assigned, `\`${text}\``);
    out.push(execUnit(argv, { prefixes: [], cwd: shell.cwd, dynamic: null, effect: "read", concerns }));
  } else if (cmd?.type === "case") {
    // `case $SENTRY_DSN in a*) echo y;; esac`: the branch taken prints what the word holds.
    const word = src.slice(cmd.start, cmd.end);
    const concerns = unknownExpansions(word, shell.assigned, `\`case ${word}\``);
    if (concerns.length > 0) {
      const argv = [{ value: `case ${word}`, raw: `case ${word}`, glob: false, tilde: false }];
      out.push(execUnit(argv, { prefixes: [], cwd: shell.cwd, dynamic: null, effect: "read", concerns }));
    }
  }
  if (event.loopNames.length > 0) {
    // A `for NAME in WORDS` header: its words expand here, and NAME then holds them.
    const header = src.slice(event.start, event.end).split(/;\s*do\b|\n/)[0] as string;
    const concerns = unknownExpansions(header, shell.assigned, "the loop");
    // `for f in $(echo ~/.ssh/\*)`: the header's words are split and globbed as a command's are.
    const words = event.loopWords ?? event.selectWords ?? [];
    concerns.push(...unquotedGlobConcerns(argsOf(src, words), shell.assigned));
    // `select` prints its words as a menu (standard error), the names a glob matches included.
    if (event.selectWords !== undefined) arrayWords(src, event.selectWords, shell, run);
    if (concerns.length > 0) {
      const argv = [{ value: header, raw: header, glob: false, tilde: false }];
      out.push(execUnit(argv, { prefixes: [], cwd: shell.cwd, dynamic: null, effect: "read", concerns }));
    }
  }
  const names = setNames(src, event);
  for (const name of names) shell.assigned.add(name);
  // Even where a rule lets DIRSTACK be set, where popd goes next is no longer known.
  if (names.includes("DIRSTACK") || event.assigned.includes("DIRSTACK"))
    shell.stack = shell.stack.map(() => null);
  for (const name of event.assigned) {
    const why = dangerousVariable(name);
    if (why === null) continue;
    const text = src.slice(event.start, event.end).split("\n")[0] ?? name;
    out.push(
      execUnit([{ value: text, raw: text, glob: false, tilde: false }], {
        prefixes: [],
        cwd: shell.cwd,
        dynamic: null,
        effect: "run",
        concerns: [{ mention: name, reason: why }],
      }),
    );
  }
  const hazards = event.hazards.filter((h) => h.name === undefined || !integerValued(shell, h.name));
  if (hazards.length === 0) return;
  // Code bash evaluates again: the statement's own command is never allowed.
  const reason = (hazards[0] as { reason: string }).reason;
  const own = out.units.slice(before).find((u) => u.kind === "exec");
  if (own && own.kind === "exec") own.dynamic ??= reason;
  else {
    const text = src.slice(event.start, event.end);
    out.push(
      execUnit([{ value: text, raw: text, glob: false, tilde: false }], {
        prefixes: [],
        cwd: shell.cwd,
        dynamic: reason,
        effect: "run",
        concerns: [],
      }),
    );
  }
}

/**
 * A variable the script set to integer literals only (`n=3;`, `for i in 1 2`): arithmetic reads it as that
 * number. Any other value is evaluated as an expression (`a[$(id)]` runs id), and so is one set elsewhere.
 */
function integerValued(shell: Shell, name: string): boolean {
  const values = shell.bound?.get(name)?.values;
  return values?.every((v) => v.value !== null && NUMBER.test(v.value)) === true;
}
