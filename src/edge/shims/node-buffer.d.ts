// The slice of node:buffer (workerd's nodejs_compat) the edge uses: http-parser-js reads Buffers.
declare module "node:buffer" {
  export class Buffer extends Uint8Array {
    static from(bytes: Uint8Array): Buffer;
    toString(encoding?: string, start?: number, end?: number): string;
  }
}
