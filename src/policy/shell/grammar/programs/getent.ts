// getent (glibc 2.36, argp): prints entries of a name-service database. Only the databases every user may
// read, looked up in local files (or the directory service nsswitch.conf names): passwd, group,
// services, protocols, rpc, ethers. shadow and gshadow hold password hashes; hosts, ahosts and networks
// send DNS queries; -s loads the NSS module it names (a relative path reaches the working directory).
import { flag, type ProgramGrammar } from "../spec.ts";

const PUBLIC = new Set(["passwd", "group", "services", "protocols", "rpc", "ethers"]);

export const getent: ProgramGrammar = {
  names: ["getent"],
  options: [...["--help", "--usage", "-V --version", "-i --no-idn"].map((n) => flag(n))],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  finish(p) {
    const db = p.operands[0];
    if (db === undefined)
      return p.options.length > 0 ? null : { word: p.program, reason: "getent without a database" };
    if (db.value !== null && PUBLIC.has(db.value)) return null;
    return {
      word: db.raw,
      reason: `getent ${db.value ?? db.raw} is not a database every user may read locally (password hashes, or DNS queries)`,
    };
  },
};
