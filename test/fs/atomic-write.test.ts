import { isUtf8 } from "node:buffer";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WriteRefused, writeFileAtomic } from "../../src/fs/atomic-write.js";
import { binaryKind, invalidUtf8Offset } from "../../src/fs/file-signature.js";
import { isInside } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

describe("writeFileAtomic", () => {
  it("refuses when a parent folder was swapped for a symlink out of the workspace after the check", async () => {
    const root = tempDir();
    const outside = tempDir("hx-outside-");
    mkdirSync(path.join(root, "dir"));
    const target = path.join(root, "dir", "a.txt"); // resolved while dir was a real folder
    renameSync(path.join(root, "dir"), path.join(root, "moved"));
    symlinkSync(outside, path.join(root, "dir"));
    const error = await writeFileAtomic(target, "x", { allowed: (p) => isInside(p, root) }).catch((e) => e);
    expect(error).toBeInstanceOf(WriteRefused);
    expect(error.message).toBe(`its folder now resolves to ${outside}, outside the workspace`);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("refuses to undo a change made after the caller read the file", async () => {
    const root = tempDir();
    const file = path.join(root, "a.txt");
    writeFileSync(file, "one");
    const read = statSync(file);
    writeFileSync(file, "someone else's change");
    const error = await writeFileAtomic(file, "mine", { allowed: () => true, unchangedSince: read }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: "ECHANGED" });
    expect(readFileSync(file, "utf8")).toBe("someone else's change");
    expect(readdirSync(root)).toEqual(["a.txt"]);
  });

  it("creates a new file with the default mode", async () => {
    const root = tempDir();
    const file = path.join(root, "new", "b.txt");
    expect(await writeFileAtomic(file, "hi", { allowed: () => true })).toEqual({ created: true });
    const umask = process.umask();
    expect(statSync(file).mode & 0o777).toBe(0o666 & ~umask);
  });
});

describe("file signatures", () => {
  it("finds the first invalid UTF-8 byte exactly when Node says the bytes are not UTF-8", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.string({ unit: "binary" }), (random, text) => {
        for (const bytes of [Buffer.from(random), Buffer.from(text, "utf8")]) {
          const offset = invalidUtf8Offset(bytes);
          expect(offset === -1).toBe(isUtf8(bytes));
          if (offset !== -1) expect(isUtf8(bytes.subarray(0, offset))).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts a multi-byte character cut by the end of a sniffed prefix", () => {
    const bytes = Buffer.from("añ", "utf8").subarray(0, 2);
    expect(invalidUtf8Offset(bytes)).toBe(1);
    expect(invalidUtf8Offset(bytes, true)).toBe(-1);
  });

  it("names common binary kinds and leaves text alone", () => {
    expect(binaryKind(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toBe("ELF executable or library");
    expect(binaryKind(Buffer.from("MZ is how this text starts"))).toBeUndefined();
    expect(binaryKind(Buffer.from("plain text\n"))).toBeUndefined();
    expect(binaryKind(Buffer.from([1, 0, 2]))).toBe("binary data");
  });
});
