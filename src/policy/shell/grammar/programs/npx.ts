// npx (npm 9/10 `npm exec`): its own words before the command it runs (wrappers.ts hands that command
// to its own grammar). Only the options that change nothing of what runs are understood. `-p/--package`
// installs any spec (a path, a URL, a git repository, a registry name) and runs its bin; every npm
// configuration flag is an option too (`--node-options=--require=F` loads F, `--script-shell=PROG` runs
// PROG, `--registry`, `--userconfig`, `--prefix` change where code comes from): none is understood (red
// team, round 8). Which program a bare name runs is the disk's to say (a project bin, a global one, or a
// download): guards/npx-bin.ts.
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const npx: ProgramGrammar = {
  names: ["npx"],
  options: [
    flag("--help -h"),
    flag("--version -v"),
    // --no (and npx's older --no-install) refuses to install: a name not installed fails instead.
    flag("-y --yes --no --no-install"),
    flag("-q --quiet -s --silent --offline --prefer-offline --no-fund --no-audit --no-update-notifier"),
    // The command string is judged as a script of its own (wrappers.ts).
    opt("-c --call"),
    opt("-p --package", "string", { mode: "runs" }),
  ],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  finish(p) {
    const install = p.options.find((o) => o.spec.mode === "runs");
    if (install !== undefined)
      return {
        word: install.word.raw,
        reason:
          "npx -p installs the package it names (a path, a URL, a git repository or a registry name) and runs its bin",
      };
    return null;
  },
};
