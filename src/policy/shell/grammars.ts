// Programs whose arguments follow a grammar of their own rather than options and operands, not
// yet moved to grammar/programs: tar's reads and writes (used by grammar/programs/tar.ts, which
// decides what is understood), bsdtar, and dd (key=value pairs).
import type { Effect } from "./file-programs.ts";
import { lookup } from "./lookup.ts";
import type { Arg } from "./wrappers.ts";

export interface GrammarJudgement {
  effect: Effect;
  reads: { arg: Arg; recursive: boolean; listing?: boolean }[];
  /** `extracts`: the archive whose member names land below the path (null value: names not known here). */
  writes: { arg: Arg; recursive?: boolean; extracts?: Arg }[];
  concerns: { mention: null; reason: string }[];
  /** Commands the program runs, with `{}` placeholders made dynamic. */
  inner: Arg[][];
  dynamic: string | null;
}

const DYNAMIC_ARG: Arg = { value: null, raw: "{}", glob: false, tilde: false };
const DOT: Arg = { value: ".", raw: ".", glob: false, tilde: false };

function empty(): GrammarJudgement {
  return { effect: "read", reads: [], writes: [], concerns: [], inner: [], dynamic: null };
}

const TAR_VALUES = new Set([
  ...["-b", "--blocking-factor", "-H", "--format", "-K", "--starting-file", "-L", "--tape-length"],
  ...["-N", "--newer", "--after-date", "-V", "--label", "--owner", "--group", "--mode", "--mtime"],
  ...["--exclude", "--strip-components", "--transform", "--xform", "--record-size", "--occurrence"],
  ...["--suffix", "--quoting-style", "--sort", "--warning", "--exclude-tag", "--exclude-tag-under"],
]);
const TAR_EXEC: Readonly<Record<string, string>> = {
  "--to-command": "runs the command on every extracted file",
  "-I": "runs the program to compress or decompress",
  "--use-compress-program": "runs the program to compress or decompress",
  "--checkpoint-action": "runs actions (exec=…) at checkpoints",
  "-F": "runs the script at the end of each volume",
  "--info-script": "runs the script at the end of each volume",
  "--new-volume-script": "runs the script at the end of each volume",
  "--rsh-command": "runs the program to reach a remote archive",
  "--rmt-command": "runs the program as the remote tape server",
};

export function judgeTar(argv: readonly Arg[]): GrammarJudgement {
  const out = empty();
  let mode: "c" | "x" | "t" | "r" | null = null;
  let archive: Arg | null = null;
  let dir: Arg = DOT;
  let forceLocal = false;
  // Member names that land elsewhere than below the directory: renamed (--transform) or kept absolute (-P).
  let moved = false;
  const members: { arg: Arg; dir: Arg }[] = [];
  const words = argv.slice(1);
  // `tar czf out.tgz dir`: the first word may be a cluster of letters without a dash.
  if (words[0]?.value && !words[0].value.startsWith("-")) {
    const first = words[0];
    words[0] = { ...first, value: `-${first.value}` };
  }
  const takeMode = (c: string) => {
    if (c === "c" || c === "x" || c === "t") mode = c;
    else if (c === "r" || c === "u" || c === "A") mode = "r";
  };
  for (let i = 0; i < words.length; i++) {
    const a = words[i] as Arg;
    const v = a.value;
    if (v === null) {
      out.dynamic = `tar argument ${a.raw} is not static (it could be --to-command)`;
      return out;
    }
    if (v.startsWith("--")) {
      const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
      const inline = v.includes("=") ? { ...a, value: v.slice(v.indexOf("=") + 1) } : null;
      const next = () => inline ?? (words[++i] as Arg | undefined) ?? DYNAMIC_ARG;
      const exec = lookup(TAR_EXEC, name);
      if (exec) {
        next();
        out.concerns.push({ mention: null, reason: `tar ${name} ${exec}` });
      } else if (name === "--file") archive = next();
      else if (name === "--directory") dir = next();
      else if (name === "--files-from" || name === "--exclude-from") {
        out.reads.push({ arg: next(), recursive: false });
        if (name === "--files-from") out.reads.push({ arg: DYNAMIC_ARG, recursive: true });
      } else if (name === "--listed-incremental" || name === "--index-file") out.writes.push({ arg: next() });
      else if (name === "--create") mode = "c";
      else if (name === "--extract" || name === "--get") mode = "x";
      else if (name === "--list") mode = "t";
      else if (["--append", "--update", "--catenate", "--concatenate", "--delete"].includes(name)) mode = "r";
      else if (name === "--force-local") forceLocal = true;
      else if (["--transform", "--xform", "--absolute-names"].includes(name)) moved = true;
      else if (TAR_VALUES.has(name) && inline === null) i++;
      continue;
    }
    if (v.startsWith("-") && v.length > 1) {
      // A cluster of short options; f, C, T, X, g, I, F take a value (the rest of the word or the next).
      for (let k = 1; k < v.length; k++) {
        const c = v[k] as string;
        const glued = v.slice(k + 1);
        const value = () =>
          glued !== "" ? { ...a, value: glued } : ((words[++i] as Arg | undefined) ?? DYNAMIC_ARG);
        if ("ctxruA".includes(c)) takeMode(c);
        else if (c === "P") moved = true;
        else if (c === "f") {
          archive = value();
          break;
        } else if (c === "C") {
          dir = value();
          break;
        } else if (c === "T" || c === "X") {
          out.reads.push({ arg: value(), recursive: false });
          if (c === "T") out.reads.push({ arg: DYNAMIC_ARG, recursive: true });
          break;
        } else if (c === "g") {
          out.writes.push({ arg: value() });
          break;
        } else if (c === "I" || c === "F") {
          value();
          out.concerns.push({ mention: null, reason: `tar -${c} ${lookup(TAR_EXEC, `-${c}`)}` });
          break;
        } else if ("bHKLNV".includes(c)) {
          value();
          break;
        }
      }
      continue;
    }
    members.push({ arg: a, dir });
  }
  const archiveArg = archive as Arg | null;
  if (archiveArg?.value?.includes(":") && !forceLocal && !/^[./]/.test(archiveArg.value))
    out.concerns.push({ mention: null, reason: "a tar archive named host:path is reached through rsh/ssh" });
  const realArchive = archiveArg !== null && archiveArg.value !== "-" ? archiveArg : null;
  const m = mode as "c" | "x" | "t" | "r" | null;
  if (m === "c" || m === "r") {
    out.effect = "write";
    if (realArchive) out.writes.push({ arg: realArchive });
    for (const member of members) out.reads.push({ arg: withDir(member.arg, member.dir), recursive: true });
  } else if (m === "x") {
    out.effect = "write";
    if (realArchive) out.reads.push({ arg: realArchive, recursive: false });
    // The names land below the directory, read from the archive on disk (a pipe's or a renamed one's are not known).
    out.writes.push({
      arg: dir,
      recursive: true,
      extracts: realArchive === null || moved ? DYNAMIC_ARG : realArchive,
    });
  } else if (realArchive) out.reads.push({ arg: realArchive, recursive: false });
  return out;
}

/** A member path given after `-C dir` is relative to that directory. */
function withDir(arg: Arg, dir: Arg): Arg {
  if (dir === DOT || arg.value === null || arg.value.startsWith("/") || arg.tilde) return arg;
  if (dir.value === null) return { ...arg, value: null };
  // A glob directory (`-C sshc*`) makes the member a glob bash's expansion of the directory decides (round 14).
  return { ...arg, value: `${dir.value}/${arg.value}`, tilde: dir.tilde, glob: arg.glob || dir.glob };
}

export function judgeDd(argv: readonly Arg[]): GrammarJudgement {
  const out = empty();
  for (const a of argv.slice(1)) {
    if (a.value === null) {
      out.dynamic = `dd argument ${a.raw} is not static`;
      return out;
    }
    if (a.value.startsWith("if="))
      out.reads.push({
        arg: { ...a, value: a.value.slice(3), tilde: a.value.startsWith("if=~") },
        recursive: false,
      });
    if (a.value.startsWith("of=")) {
      out.writes.push({ arg: { ...a, value: a.value.slice(3), tilde: a.value.startsWith("of=~") } });
      out.effect = "destroy";
    }
  }
  return out;
}

export const GRAMMARS: Readonly<Record<string, (argv: readonly Arg[]) => GrammarJudgement>> = {
  bsdtar: judgeTar,
  dd: judgeDd,
};
