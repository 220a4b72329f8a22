// ping (iputils 20221126, getopt): sends ICMP echo requests to its one operand and prints the replies. Only a
// loopback address written as numbers is understood: the packets never leave the machine, and ping looks
// nothing up (strace: no resolver file, no socket but its ICMP ones). A host name is a DNS query of a label
// the agent chose, any other address is a packet out; both are not understood. The address is matched
// whole: inet_aton reads `0177.0.0.1` as octal and `127.1` as 127.0.0.1, so only dotted decimals count.
// The options kept are the count, the deadlines and quiet output; the others flood, pick the interface or
// source, tag or pad the packets.
import { flag, type NotUnderstood, opt, type Parsed, type ProgramGrammar } from "../spec.ts";

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const LOOPBACK = new RegExp(`^(?:127(?:\\.${OCTET}){3}|::1)$`);

function loopbackOnly(p: Parsed): NotUnderstood | null {
  const [target, ...more] = p.operands;
  if (target === undefined) return { word: p.program, reason: "ping needs an address" };
  if (more[0] !== undefined) return { word: more[0].raw, reason: "ping takes one address" };
  if (target.value !== null && LOOPBACK.test(target.value)) return null;
  return {
    word: target.raw,
    reason:
      "ping is understood only to a loopback address written as numbers (a name is looked up, others leave the machine)",
  };
}

export const ping: ProgramGrammar = {
  names: ["ping"],
  options: [...["-q", "-n", "-4", "-6", "-h", "-V"].map((n) => flag(n)), opt("-c -w -W", "number")],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  finish: loopbackOnly,
};
