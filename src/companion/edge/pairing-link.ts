// The pairing link a phone opens (`<server>/pair?code=…`) and its QR code for a terminal. `npm run dev` and the
// dashboard's Devices view draw the same link with the same library (uqr).

export function pairingLink(server: string, code: string): string {
  return `${server.replace(/\/+$/, "")}/pair?code=${encodeURIComponent(code)}`;
}

/** The link as a QR code of half-height block characters, readable by a phone camera from a terminal. */
export async function terminalQr(text: string): Promise<string> {
  const { renderUnicodeCompact } = await import("uqr");
  return renderUnicodeCompact(text, { border: 2 });
}
