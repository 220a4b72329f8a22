// ls (GNU coreutils 9.1): lists the paths it is given (names and metadata, not contents); -R walks.
import { DOT, listOrWalk } from "../effects.ts";
import { COLOR_WHEN, flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

const WHEN = ["always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty"];

export const ls: ProgramGrammar = {
  names: ["ls", "dir", "vdir"],
  options: [
    ...GNU_COMMON,
    ...["-a --all", "-A --almost-all", "--author", "-b --escape", "-B --ignore-backups", "-c", "-C"].map(
      (n) => flag(n),
    ),
    ...["-d --directory", "-D --dired", "-f", "--file-type", "--full-time", "-g"].map((n) => flag(n)),
    ...["--group-directories-first", "-G --no-group", "-h --human-readable", "--si", "-i --inode"].map((n) =>
      flag(n),
    ),
    ...["-k --kibibytes", "-l", "-m", "-n --numeric-uid-gid", "-N --literal", "-o", "-p"].map((n) => flag(n)),
    ...[
      "-q --hide-control-chars",
      "--show-control-chars",
      "-Q --quote-name",
      "-r --reverse",
      "-s --size",
    ].map((n) => flag(n)),
    ...["-S", "-t", "-u", "-U", "-v", "-x", "-X", "-Z --context", "--zero", "-1"].map((n) => flag(n)),
    flag("-R --recursive", "recursive"),
    flag("-L --dereference", "follow"),
    flag("-H --dereference-command-line --dereference-command-line-symlink-to-dir"),
    opt("--block-size"),
    optional("--color --colour", "string", COLOR_WHEN),
    optional("-F --classify", "string", WHEN),
    opt("--format", "string", {
      choices: ["across", "commas", "horizontal", "long", "single-column", "verbose", "vertical"],
    }),
    opt("--hide -I --ignore", "pattern"),
    optional("--hyperlink", "string", WHEN),
    opt("--indicator-style", "string", { choices: ["none", "slash", "file-type", "classify"] }),
    opt("--quoting-style", "string", {
      choices: [
        "literal",
        "locale",
        "shell",
        "shell-always",
        "shell-escape",
        "shell-escape-always",
        "c",
        "escape",
      ],
    }),
    opt("--sort", "string", { choices: ["none", "size", "time", "version", "extension", "name", "width"] }),
    opt("--time", "string", {
      choices: ["atime", "access", "use", "ctime", "status", "mtime", "modification", "birth", "creation"],
    }),
    opt("--time-style"),
    opt("-T --tabsize -w --width", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["list"],
  effect: "read",
  finish(p, out) {
    listOrWalk(p, out, {
      recursive: p.has("recursive"),
      follow: p.has("follow") ? "all" : "args",
      dflt: DOT,
      itself: p.has("-d") && !p.has("recursive"),
    });
    return null;
  },
};
