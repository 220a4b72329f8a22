// http_ece ships no types; the push e2e test uses only decrypt.
declare module "http_ece" {
  import type { ECDH } from "node:crypto";

  const ece: {
    decrypt(buffer: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string }): Buffer;
  };
  export default ece;
}
