import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import path from "node:path";

/** What a path turned out to be when it is not a regular file. */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return "a file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** A path that exists but is not a regular file (a directory, FIFO, socket or device). */
export class NotARegularFile extends Error {
  constructor(readonly stats: Stats) {
    super(`is ${fileKind(stats)}, not a regular file`);
    this.name = "NotARegularFile";
  }
}

/**
 * Opens a regular file for reading, never anything else: stats first (so a device or FIFO is
 * never opened at all), then opens non-blocking and checks the open descriptor is the same
 * regular file (a swap in between cannot make it hang). Throws NotARegularFile, or the
 * filesystem's own error (ENOENT, EACCES).
 */
export async function openRegularFile(file: string): Promise<{ handle: FileHandle; stats: Stats }> {
  const before = await stat(file);
  if (!before.isFile()) throw new NotARegularFile(before);
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.ino !== before.ino || stats.dev !== before.dev)
      throw new NotARegularFile(stats);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole content of an open file, or undefined when it holds more than `maxBytes`. */
export async function readAllCapped(handle: FileHandle, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(1024 * 1024, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
  }
}

export type SmallFileRead =
  | { ok: true; text: string }
  | { ok: false; reason: "missing" | "not-a-file" | "too-large" | "unreadable" | "outside"; message: string };

export interface SmallFileOptions {
  /**
   * The file's real path (symlinks resolved) must stay inside this folder's real path:
   * `AGENTS.md -> ~/.aws/credentials` is refused with reason "outside", never read.
   */
  inside?: string;
  /**
   * As `inside`, for a caller that already knows the folder's real path (a folder walk does):
   * the file must be directly in it. A file that is not a link is then read with no realpath
   * call (opened with O_NOFOLLOW, so a link swapped in is refused); a link is resolved and
   * checked as with `inside`.
   */
  insideReal?: string;
}

/**
 * Reads a small text file (settings, scripts, instructions) without ever blocking or reading
 * without bound: stats it first (a FIFO, socket, device or directory is never opened), opens
 * it non-blocking and checks again on the open descriptor (a FIFO swapped in cannot hang it),
 * and refuses more than `maxBytes`. Never throws.
 */
export function readSmallFileSync(
  file: string,
  maxBytes: number,
  options: SmallFileOptions = {},
): SmallFileRead {
  const read = readRegularFileSync(file, maxBytes, options);
  return read.ok ? { ok: true, text: read.bytes.toString("utf8") } : read;
}

export type RegularFileRead = { ok: true; bytes: Buffer } | Extract<SmallFileRead, { ok: false }>;

/** Refuses a final link at open (0 where the platform has none: Windows). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Most bytes read at once. */
const READ_CHUNK_BYTES = 1024 * 1024;

/** readSmallFileSync's checks, giving the bytes (for files decoded piece by piece). */
export function readRegularFileSync(
  file: string,
  maxBytes: number,
  options: SmallFileOptions = {},
): RegularFileRead {
  let fd: number;
  let before: Stats;
  let folder: string | undefined;
  // The folder's real path is known and the file is no link: its real path is known too.
  let plain = false;
  let linkStats: Stats | undefined;
  try {
    if (options.insideReal !== undefined) {
      folder = options.insideReal;
      linkStats = lstatSync(file);
      plain = !linkStats.isSymbolicLink();
    } else if (options.inside !== undefined) folder = realpathSync.native(options.inside);
    const target =
      folder === undefined
        ? file
        : plain
          ? path.join(folder, path.basename(file))
          : realpathSync.native(file);
    // A plain file named directly in the folder is inside it; a link is checked.
    if (folder !== undefined && !plain && !isInsideReal(target, folder)) {
      return {
        ok: false,
        reason: "outside",
        message: `is a link to ${target}, outside ${folder}; not read`,
      };
    }
    before = plain && linkStats ? linkStats : statSync(target);
    if (!before.isFile())
      return { ok: false, reason: "not-a-file", message: `is ${fileKind(before)}, not a file` };
    fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK | (plain ? NO_FOLLOW : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return { ok: false, reason: "missing", message: "not found" };
    if (code === "ENXIO") return { ok: false, reason: "not-a-file", message: "is a socket, not a file" };
    if (code === "ELOOP" && plain)
      return { ok: false, reason: "unreadable", message: "changed while it was being opened; not read" };
    return { ok: false, reason: "unreadable", message: `cannot be read (${code ?? String(error)})` };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      return { ok: false, reason: "not-a-file", message: `is ${fileKind(stats)}, not a file` };
    // The file opened is the one checked: a link swapped in between cannot redirect the read.
    const moved =
      stats.ino !== before.ino ||
      stats.dev !== before.dev ||
      (folder !== undefined && !plain && !isInsideReal(realpathSync.native(file), folder));
    if (moved)
      return { ok: false, reason: "unreadable", message: "changed while it was being opened; not read" };
    if (stats.size > maxBytes) return tooLarge(maxBytes, stats.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // The first read is sized to the file (one byte more shows that it grew): a 1 MB buffer
      // per small file made reading 1,000 SKILL.md files mostly garbage collection.
      const want = total === 0 ? stats.size + 1 : READ_CHUNK_BYTES;
      const chunk = Buffer.allocUnsafe(Math.min(want, READ_CHUNK_BYTES, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return tooLarge(maxBytes);
      if (read < chunk.length) break; // a regular file reads short only at its end
    }
    return { ok: true, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: "unreadable", message: `cannot be read (${code ?? String(error)})` };
  } finally {
    closeSync(fd);
  }
}

/** True when the real path `target` is below the real path `folder`. */
function isInsideReal(target: string, folder: string): boolean {
  const rel = path.relative(folder, target);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function tooLarge(maxBytes: number, size?: number): Extract<SmallFileRead, { ok: false }> {
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
