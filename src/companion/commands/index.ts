// Every `airlock` subcommand, in the order `airlock --help` lists them.
import type { Command } from "../command.ts";

export const commands: Command[] = [];
