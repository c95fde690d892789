import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/** What a path turned out to be when it is not a regular file. */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return "a file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

export type SmallFileRead =
  | { ok: true; text: string }
  | { ok: false; reason: "missing" | "not-a-file" | "too-large" | "unreadable"; message: string };

/**
 * Reads a small text file (settings, scripts, instructions) without ever blocking or reading
 * without bound: opens it non-blocking (a FIFO with no writer would otherwise hang), checks
 * on the open descriptor that it is a regular file (no FIFO, socket, device or directory),
 * and refuses more than `maxBytes`. Never throws.
 */
export function readSmallFileSync(file: string, maxBytes: number): SmallFileRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return { ok: false, reason: "missing", message: "not found" };
    if (code === "ENXIO") return { ok: false, reason: "not-a-file", message: "is a socket, not a file" };
    return { ok: false, reason: "unreadable", message: `cannot be read (${code ?? String(error)})` };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      return { ok: false, reason: "not-a-file", message: `is ${fileKind(stats)}, not a file` };
    if (stats.size > maxBytes) return tooLarge(maxBytes, stats.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return tooLarge(maxBytes);
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString("utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: "unreadable", message: `cannot be read (${code ?? String(error)})` };
  } finally {
    closeSync(fd);
  }
}

function tooLarge(maxBytes: number, size?: number): SmallFileRead {
  const actual = size === undefined ? "" : ` (${formatBytes(size)})`;
  return {
    ok: false,
    reason: "too-large",
    message: `is larger than the limit of ${formatBytes(maxBytes)}${actual}`,
  };
}

/** 1536 → "1.5 KB", 3 → "3 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}
