// tar (GNU tar 1.34): a mode (c, x, t, r, u, A, or the long --create …), the archive (-f), members;
// what it reads and writes comes from grammars.ts's judgeTar (members read recursively on create,
// the target directory written on extract). Options are checked against this list; those that
// run programs (--to-command, -I, --checkpoint-action, -F, --rsh-command) are refused, and the
// compression letters run a compressor (a unit of its own).
import { judgeTar } from "../../grammars.ts";
import type { Arg } from "../../wrappers.ts";
import { emptyEffects, pathEffect } from "../parse.ts";
import type { ProgramGrammar, Understanding } from "../spec.ts";

const LETTERS = new Set([..."ctxruAfCTXvkpPhOmWSlBiGgnzjJaZ"]);
const VALUE_LETTERS = new Set([..."fCTXg"]);
const COMPRESSORS: Readonly<Record<string, string>> = { z: "gzip", j: "bzip2", J: "xz", Z: "compress" };
const LONG = new Set([
  ...[
    "--create",
    "--extract",
    "--get",
    "--list",
    "--append",
    "--update",
    "--catenate",
    "--concatenate",
    "--delete",
  ],
  ...[
    "--file",
    "--directory",
    "--files-from",
    "--exclude-from",
    "--exclude",
    "--strip-components",
    "--verbose",
  ],
  ...["--keep-old-files", "--skip-old-files", "--overwrite", "--preserve-permissions", "--same-permissions"],
  ...[
    "--absolute-names",
    "--dereference",
    "--to-stdout",
    "--touch",
    "--wildcards",
    "--no-wildcards",
    "--anchored",
  ],
  ...[
    "--no-same-owner",
    "--same-owner",
    "--no-same-permissions",
    "--numeric-owner",
    "--owner",
    "--group",
    "--mode",
  ],
  ...[
    "--mtime",
    "--sort",
    "--format",
    "--force-local",
    "--gzip",
    "--bzip2",
    "--xz",
    "--zstd",
    "--auto-compress",
  ],
  ...[
    "--exclude-vcs",
    "--exclude-vcs-ignores",
    "--totals",
    "--show-transformed-names",
    "--transform",
    "--xform",
  ],
  ...[
    "--listed-incremental",
    "--one-file-system",
    "--recursion",
    "--no-recursion",
    "--null",
    "--warning",
    "--help",
    "--version",
  ],
]);
const LONG_COMPRESSORS: Readonly<Record<string, string>> = {
  "--gzip": "gzip",
  "--bzip2": "bzip2",
  "--xz": "xz",
  "--zstd": "zstd",
};

function refuse(word: string, reason: string): Understanding {
  return { understood: false, why: { word, reason }, effects: emptyEffects("read") };
}

function judge(argv: readonly Arg[]): Understanding {
  const out = emptyEffects("read");
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k] as Arg;
    const v = a.value;
    if (v === null) return refuse(a.raw, "it is only known at run time, so it could be --to-command");
    const cluster = k === 1 && !v.startsWith("-") ? `-${v}` : v;
    if (cluster.startsWith("--")) {
      const name = cluster.includes("=") ? cluster.slice(0, cluster.indexOf("=")) : cluster;
      if (!LONG.has(name)) return refuse(a.raw, `unknown or program-running tar option ${name}`);
      const comp = LONG_COMPRESSORS[name];
      if (comp !== undefined) out.inner.push([{ value: comp, raw: comp, glob: false, tilde: false }]);
      continue;
    }
    if (cluster.startsWith("-") && cluster.length > 1) {
      for (let i = 1; i < cluster.length; i++) {
        const c = cluster[i] as string;
        if (!LETTERS.has(c)) return refuse(a.raw, `unknown or program-running tar option -${c}`);
        const comp = COMPRESSORS[c];
        if (comp !== undefined) out.inner.push([{ value: comp, raw: comp, glob: false, tilde: false }]);
        if (VALUE_LETTERS.has(c)) {
          if (k === 1 && !v.startsWith("-")) continue; // old style: values follow the cluster
          if (i === cluster.length - 1) k++;
          break;
        }
      }
    }
  }
  const legacy = judgeTar(argv);
  if (legacy.dynamic !== null) return refuse(argv[1]?.raw ?? "tar", legacy.dynamic);
  if (legacy.concerns[0] !== undefined) return refuse(argv[1]?.raw ?? "tar", legacy.concerns[0].reason);
  out.effect = legacy.effect === "destroy" ? "destroy" : legacy.effect;
  for (const r of legacy.reads)
    out.paths.push(r.recursive ? pathEffect("walk", r.arg, { contents: true }) : pathEffect("read", r.arg));
  for (const w of legacy.writes)
    out.paths.push(
      pathEffect("write", w.arg, {
        ...(w.recursive === true ? { below: true as const } : {}),
        ...(w.extracts !== undefined ? { extracts: w.extracts } : {}),
      }),
    );
  return { understood: true, effects: out };
}

export const tar: ProgramGrammar = {
  names: ["tar", "gtar"],
  options: [],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judge,
};
