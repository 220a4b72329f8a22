// openssl (3.0), only `openssl rand [-hex|-base64] NUM`: prints NUM random bytes (strace: it opens only its
// configuration file). Its parser stops at the first operand, which is the count. -out and -writerand write
// a file, -rand reads files into the generator, -engine, -provider and -provider-path load code: none is
// listed. At start openssl loads the configuration OPENSSL_CONF names (else the system's openssl.cnf), whose
// `providers` and `engines` sections load shared libraries (proven: it opened a config's `module` path):
// setting the variable asks (env-vars.ts) and a value of the agent's environment is env-loads.ts's.

import type { Arg } from "../../wrappers.ts";
import { emptyEffects } from "../parse.ts";
import type { ProgramGrammar, Understanding } from "../spec.ts";

const ENCODINGS = new Set(["-hex", "-base64", "-help"]);

function refuse(word: string, reason: string): Understanding {
  return { understood: false, why: { word, reason }, effects: emptyEffects("read") };
}

/** `openssl rand`, its encodings, and one count (a positive number as written). */
function judgeRand(argv: readonly Arg[]): Understanding {
  const [, sub, ...rest] = argv;
  if (sub?.value !== "rand") return refuse(sub?.raw ?? "openssl", "only openssl rand is understood here");
  const options = rest.slice(0, -1);
  const count = rest.at(-1);
  const odd = options.find((w) => !ENCODINGS.has(w.value ?? ""));
  if (odd !== undefined) return refuse(odd.raw, "not one of openssl rand's encodings (-hex, -base64)");
  if (count?.value === "-help") return { understood: true, effects: emptyEffects("read") };
  if (count === undefined || count.value === null || !/^[1-9]\d*$/.test(count.value))
    return refuse(count?.raw ?? "rand", "openssl rand takes a count of bytes last");
  return { understood: true, effects: emptyEffects("read") };
}

export const openssl: ProgramGrammar = {
  names: ["openssl"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgeRand,
};
