// The units a script's analysis finds, bounded: past MAX_UNITS the command is too large to analyse.
import type { ShellUnit } from "./units.ts";

const MAX_UNITS = 2000;

export class Collector {
  readonly units: ShellUnit[] = [];
  push(unit: ShellUnit): void {
    if (this.units.length < MAX_UNITS) this.units.push(unit);
    else if (this.units[this.units.length - 1]?.kind !== "unparsable") {
      this.units.push({ kind: "unparsable", text: unit.text, reason: "command is too large to analyse" });
    }
  }
}
