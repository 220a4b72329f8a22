// Types for the parts of scripts/parity.mjs that tests import.
export declare const HTML_ROUTES: readonly string[];
export declare function parity(
  bases: [string, string],
  token?: string,
): Promise<{ check: string; a: string; b: string; ok: boolean }[]>;
