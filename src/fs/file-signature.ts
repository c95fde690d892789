/** Bytes sniffed to tell binary from text and to name a binary file's kind. */
export const SNIFF_BYTES = 8192;

/** Well-known file signatures (magic numbers), first match wins. */
const SIGNATURES: Array<[kind: string, offset: number, bytes: number[]]> = [
  ["PNG image", 0, [0x89, 0x50, 0x4e, 0x47]],
  ["JPEG image", 0, [0xff, 0xd8, 0xff]],
  ["GIF image", 0, [0x47, 0x49, 0x46, 0x38]],
  ["WebP image", 8, [0x57, 0x45, 0x42, 0x50]],
  ["PDF document", 0, [0x25, 0x50, 0x44, 0x46]],
  ["ZIP archive (also .jar, .docx, .xlsx)", 0, [0x50, 0x4b, 0x03, 0x04]],
  ["gzip archive", 0, [0x1f, 0x8b]],
  ["bzip2 archive", 0, [0x42, 0x5a, 0x68]],
  ["xz archive", 0, [0xfd, 0x37, 0x7a, 0x58, 0x5a]],
  ["zstd archive", 0, [0x28, 0xb5, 0x2f, 0xfd]],
  ["7-Zip archive", 0, [0x37, 0x7a, 0xbc, 0xaf]],
  ["ELF executable or library", 0, [0x7f, 0x45, 0x4c, 0x46]],
  ["Mach-O executable", 0, [0xcf, 0xfa, 0xed, 0xfe]],
  ["Windows executable", 0, [0x4d, 0x5a]],
  ["WebAssembly module", 0, [0x00, 0x61, 0x73, 0x6d]],
  ["SQLite database", 0, [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
  ["MP3 audio", 0, [0x49, 0x44, 0x33]],
  ["Ogg media", 0, [0x4f, 0x67, 0x67, 0x53]],
  ["MP4/QuickTime media", 4, [0x66, 0x74, 0x79, 0x70]],
  ["RIFF media (WAV/AVI)", 0, [0x52, 0x49, 0x46, 0x46]],
  ["Java class file", 0, [0xca, 0xfe, 0xba, 0xbe]],
];

/**
 * What a file's first bytes say it is: undefined for text (no NUL byte), else a kind such as
 * "PNG image", or "binary data" when the signature is not a known one.
 */
export function binaryKind(head: Uint8Array): string | undefined {
  for (const [kind, offset, bytes] of SIGNATURES) {
    if (head.length >= offset + bytes.length && bytes.every((byte, i) => head[offset + i] === byte)) {
      // Some signatures are printable text ("MZ", "ID3", "RIFF"): only trust them on binary content.
      if (kind === "RIFF media (WAV/AVI)" || kind === "Windows executable" || kind === "MP3 audio") {
        if (!head.includes(0)) continue;
      }
      return kind;
    }
  }
  return head.includes(0) ? "binary data" : undefined;
}

/**
 * The offset of the first byte that is not part of valid UTF-8, or -1. A sequence cut by the
 * end of `bytes` counts as valid when `partialEnd` is set (a sniffed prefix of a longer file).
 */
export function invalidUtf8Offset(bytes: Uint8Array, partialEnd = false): number {
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i];
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0;
    if (length === 0) return i;
    if (i + length > bytes.length) return partialEnd && continuationsValid(bytes, i, bytes.length) ? -1 : i;
    if (!continuationsValid(bytes, i, i + length)) return i;
    i += length;
  }
  return -1;
}

/** Continuation bytes of the sequence starting at `start`, with UTF-8's overlong/surrogate limits. */
function continuationsValid(bytes: Uint8Array, start: number, end: number): boolean {
  const lead = bytes[start];
  for (let j = start + 1; j < end; j++) {
    const byte = bytes[j];
    let low = 0x80;
    let high = 0xbf;
    if (j === start + 1) {
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
      else if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    }
    if (byte < low || byte > high) return false;
  }
  return true;
}
