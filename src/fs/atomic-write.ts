import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { type FileHandle, mkdir, open, readlink, realpath, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { fileKind } from "./regular-file.js";

/** Why a write did not happen, in words for the model; the original file is untouched. */
export class WriteRefused extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "WriteRefused";
  }
}

export interface AtomicWriteOptions {
  /**
   * Where the file may really end up: called with the real path of the temporary file right
   * after it is opened (and of its folder), so a parent folder swapped for a symlink between
   * the caller's check and the write cannot redirect it.
   */
  allowed: (realPath: string) => boolean;
  /**
   * The target as the caller read it (edit_file): when it has changed since (another writer),
   * the write is refused instead of silently undoing the other change.
   */
  unchangedSince?: Stats;
}

/**
 * Replaces (or creates) `target` atomically: the data goes to a temporary file in the same
 * folder, is flushed to disk, and is renamed over the target, so a reader sees the old file
 * or the new one, never a part. The target's mode (and, where allowed, owner) is kept. On any
 * failure (a full disk, a read-only folder) the temporary file is removed, the original is
 * untouched, and a WriteRefused says why. `target` must be a real path (symlinks resolved).
 * A target that exists but is not a regular file (a FIFO, a device) is refused unopened.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions,
): Promise<{ created: boolean }> {
  const existing = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw refusal(error);
  });
  if (options.unchangedSince && !sameVersion(options.unchangedSince, existing)) throw changedMeanwhile();
  if (existing && !existing.isFile()) {
    const code = existing.isDirectory() ? "EISDIR" : undefined;
    throw new WriteRefused(`it is ${fileKind(existing)}, not a regular file`, code);
  }

  const folder = path.dirname(target);
  await mkdir(folder, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EEXIST" || error.code === "ENOTDIR") {
      throw new WriteRefused("part of its folder path is an existing file", error.code);
    }
    throw refusal(error);
  });
  const temporary = path.join(
    folder,
    `.${path.basename(target)}.hx-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  const mode = existing ? existing.mode & 0o7777 : 0o666;
  let handle: FileHandle;
  try {
    handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
  } catch (error) {
    throw refusal(error as NodeJS.ErrnoException);
  }
  let realTemporary = temporary;
  try {
    realTemporary = await openedPath(handle, temporary);
    if (!options.allowed(realTemporary) || !options.allowed(path.dirname(realTemporary))) {
      throw new WriteRefused(
        `its folder now resolves to ${path.dirname(realTemporary)}, outside the workspace`,
      );
    }
    if (existing) {
      await handle.chmod(mode);
      await handle.chown(existing.uid, existing.gid).catch(() => {
        // Only root may give a file away; a user's own files keep their owner anyway.
      });
    }
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    if (options.unchangedSince) {
      const now = await stat(target).catch(() => undefined);
      if (!sameVersion(options.unchangedSince, now)) throw changedMeanwhile();
    }
    // Renamed by its real folder, checked above, so no symlink is followed on the way.
    await rename(realTemporary, path.join(path.dirname(realTemporary), path.basename(target)));
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(realTemporary).catch(() => {});
    throw error instanceof WriteRefused ? error : refusal(error as NodeJS.ErrnoException);
  }
  return { created: existing === undefined };
}

function sameVersion(before: Stats, now: Stats | undefined): boolean {
  return (
    now !== undefined &&
    now.ino === before.ino &&
    now.dev === before.dev &&
    now.size === before.size &&
    now.mtimeMs === before.mtimeMs
  );
}

function changedMeanwhile(): WriteRefused {
  return new WriteRefused(
    "it was changed by someone else while it was being edited; read it again",
    "ECHANGED",
  );
}

/** The real path of an open file: from /proc on Linux, else by resolving its name again. */
async function openedPath(handle: FileHandle, name: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return realpath(name);
  }
}

/** A filesystem error as a reason the model can act on. */
function refusal(error: NodeJS.ErrnoException): WriteRefused {
  const reasons: Record<string, string> = {
    ENOSPC: "the disk is full (ENOSPC); free some space and try again",
    EDQUOT: "the disk quota is used up (EDQUOT); free some space and try again",
    EROFS: "the file system is read-only (EROFS)",
    EACCES: "permission denied (EACCES)",
    EPERM: "the operation is not permitted (EPERM)",
    EISDIR: "it is a directory",
    ENOTDIR: "part of its folder path is an existing file",
    ENAMETOOLONG: "the path is too long",
    ELOOP: "a symbolic link appeared in its place",
  };
  const code = error.code ?? "";
  return new WriteRefused(reasons[code] ?? `${error.message}`, code || undefined);
}
