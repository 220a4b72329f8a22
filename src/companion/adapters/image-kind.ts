// Which image a file's first bytes say it is: read tools show these as attachments, never as text.

const IMAGE_MAGIC: readonly { mime: string; test: (b: Buffer) => boolean }[] = [
  { mime: "image/png", test: (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])) },
  { mime: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: "image/gif", test: (b) => b.subarray(0, 4).toString("latin1") === "GIF8" },
  {
    mime: "image/webp",
    test: (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
  },
  { mime: "image/bmp", test: (b) => b.subarray(0, 2).toString("latin1") === "BM" },
];

export function imageMimeOf(bytes: Buffer): string | undefined {
  return IMAGE_MAGIC.find((m) => m.test(bytes))?.mime;
}
