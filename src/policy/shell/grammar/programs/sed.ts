// sed (GNU sed 4.9): the script is the first operand unless -e/-f give it; the rest are read.
// -i rewrites them in place; the script's own commands are read by scanSed (GNU sed's own reader): `w FILE` writes,
// `r FILE` reads, `e` and `s///e` run commands (not understood), as does a script from a file.

import { scanSed } from "../../sed-script.ts";
import { raise } from "../effects.ts";
import { pathEffect } from "../parse.ts";
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

/** The name of the temporary file `sed -i` writes: "sed" and six characters from [A-Za-z0-9]. */
const SED_TEMP = `sed${"[A-Za-z0-9]".repeat(6)}`;

export const sed: ProgramGrammar = {
  names: ["sed", "gsed"],
  options: [
    ...GNU_COMMON,
    ...["-n --quiet --silent", "--debug", "--follow-symlinks", "--posix", "-E -r --regexp-extended"].map(
      (n) => flag(n),
    ),
    ...["-s --separate", "-u --unbuffered", "-z --null-data"].map((n) => flag(n)),
    flag("--sandbox", "sandbox"),
    opt("-e --expression", "pattern", { mode: "script" }),
    opt("-f --file", "read", { mode: "script-file" }),
    optional("-i --in-place", "string"),
    opt("-l --line-length", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    const file = p.options.find((o) => o.spec.mode === "script-file");
    if (file !== undefined && !p.has("sandbox"))
      return {
        word: file.word.raw,
        reason: "sed -f runs a script from a file, which may run commands (e) or write files (w)",
      };
    const given = p.values("script");
    const scripts = given.length > 0 || file !== undefined ? given : p.operands.slice(0, 1);
    const files = given.length > 0 || file !== undefined ? p.operands : p.operands.slice(1);
    out.paths = out.paths.filter((e) => !scripts.includes(e.arg));
    const dynamic = scripts.find((s) => s.value === null);
    if (dynamic !== undefined)
      return { word: dynamic.raw, reason: "the sed script is only known at run time" };
    // sed reads its `-e` pieces as one script, a newline between each (an unfinished `a` text goes on into the next).
    const word = scripts.map((s) => s.raw).join(" ");
    const findings = scanSed(scripts.map((s) => s.value).join("\n"));
    if (findings === null)
      return { word, reason: "the sed script cannot be read, so what it runs is not known" };
    for (const f of findings) {
      const arg = { value: f.file ?? null, raw: f.file ?? word, glob: false, tilde: false };
      if (f.risk === "exec") return { word, reason: `the sed script runs commands: ${f.why}` };
      if (f.risk === "write") {
        out.paths.push(pathEffect("write", arg));
        raise(out, "write");
      } else out.paths.push(pathEffect("read", arg));
    }
    const inPlace = p.options.find((o) => o.spec.names.includes("-i"));
    if (inPlace !== undefined) {
      raise(out, "write");
      const suffix = inPlace.value?.value ?? "";
      for (const f of files) {
        if (f.value === "-") continue;
        out.paths.push(pathEffect("write", f));
        const v = f.value;
        const dir = v === null || !v.includes("/") ? "" : v.slice(0, v.lastIndexOf("/") + 1);
        // sed writes a temporary file beside it (GNU sed: mkostemp's "sed" and six letters or digits), then renames
        // it over the original; `-iSUFFIX` keeps a backup.
        out.paths.push(
          pathEffect("write", { ...f, value: v === null ? null : `${dir}${SED_TEMP}`, glob: true }),
        );
        if (suffix !== "" && v !== null) {
          const name = v.slice(dir.length);
          const backup = suffix.includes("*") ? suffix.replaceAll("*", name) : `${v}${suffix}`;
          out.paths.push(
            pathEffect("write", {
              ...f,
              value: suffix.includes("/") ? backup : backup.startsWith(dir) ? backup : `${dir}${backup}`,
              glob: false,
            }),
          );
        }
      }
    }
    return null;
  },
  // What it does beyond its operands is the script's, read above: a command it runs or a script file is not
  // understood, and each `w`/`r` file, the in-place temporary and the backup are placed. Text it leaves in a
  // package.json is judged as any shell write's there, on the disk (disk-targets.ts).
  placedOnly: () => true,
};
