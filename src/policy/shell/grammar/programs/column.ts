// column (util-linux 2.38): formats lines into columns; reads every operand (standard input when none).
// Every option's value is a name, a column list, a separator or a width: never a path.
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const column: ProgramGrammar = {
  names: ["column"],
  options: [
    ...["-h --help", "-V --version", "-t --table", "-d --table-noheadings", "-e --table-header-repeat"].map(
      (n) => flag(n),
    ),
    ...["-L --keep-empty-lines", "-J --json", "-x --fillrows"].map((n) => flag(n)),
    opt("-n --table-name -O --table-order -N --table-columns -E --table-noextreme -H --table-hide"),
    opt("-R --table-right -T --table-truncate -W --table-wrap -r --tree -i --tree-id -p --tree-parent"),
    opt("-o --output-separator -s --separator"),
    opt("-l --table-columns-limit -c --output-width", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
