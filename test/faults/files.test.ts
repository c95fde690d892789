// Fault suite, files: a full disk, FIFOs, a line of 600 MB and a latin-1 file, each driven
// through the real binary with a scripted model. Every case checks the message the model
// read, the exit code, and that nothing on disk was lost or changed.
import { execFileSync } from "node:child_process";
import {
  closeSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

/** Runs `hx agent` in `work` with a script; replies are checked with `expect` against what the model was sent. */
function runScript(work: string, replies: unknown[], timeoutMs = 30_000) {
  const script = path.join(tempDir("hx-fault-script-"), "script.json");
  writeFileSync(script, JSON.stringify({ replies }));
  return runHx(
    [
      "agent",
      "go",
      "-C",
      work,
      "--provider",
      "scripted",
      "--script",
      script,
      "--permission-mode",
      "acceptEdits",
    ],
    { cwd: work, timeoutMs },
  );
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });

const canMount = process.getuid?.() === 0 && mountTmpfsProbe();

function mountTmpfsProbe(): boolean {
  const dir = tempDir("hx-tmpfs-probe-");
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "ignore" });
    execFileSync("umount", [dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!canMount)("a full disk (a 64 KB tmpfs; skipped unless running as root with mount)", () => {
  const mounted: string[] = [];
  afterAll(() => {
    for (const dir of mounted) execFileSync("umount", [dir]);
  });

  function fullDisk(): { work: string; original: Buffer } {
    const work = tempDir("hx-fault-disk-");
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", work]);
    mounted.push(work);
    const original = Buffer.from("original line\n".repeat(1707).slice(0, 23_893));
    writeFileSync(path.join(work, "data.txt"), original);
    writeFileSync(path.join(work, "filler"), Buffer.alloc(24 * 1024, 1));
    return { work, original };
  }

  it("write_file: the original stays whole, the model is told the disk is full", async () => {
    const { work, original } = fullDisk();
    const run = await runScript(work, [
      call("write_file", { path: "data.txt", content: "new content\n".repeat(4000) }),
      { expect: "the disk is full (ENOSPC)", text: "The disk is full." },
    ]);
    expect(run.stderr).not.toMatch(/script .* expected/);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("The disk is full.");
    expect(readFileSync(path.join(work, "data.txt")).equals(original)).toBe(true);
    expect(readdirSync(work).sort()).toEqual(["data.txt", "filler"]);
  });

  it("edit_file: same, nothing half-written", async () => {
    const { work, original } = fullDisk();
    const run = await runScript(work, [
      call("edit_file", {
        path: "data.txt",
        old_text: "original",
        new_text: "x".repeat(40),
        replace_all: true,
      }),
      { expect: "the disk is full (ENOSPC)", text: "ok" },
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("ok");
    expect(readFileSync(path.join(work, "data.txt")).equals(original)).toBe(true);
    expect(readdirSync(work).sort()).toEqual(["data.txt", "filler"]);
  });
});

describe("files that are not what they claim", () => {
  it("a FIFO never hangs read_file, edit_file or write_file, and stays a FIFO", async () => {
    const work = tempDir("hx-fault-fifo-");
    execFileSync("mkfifo", [path.join(work, "pipe")]);
    const run = await runScript(
      work,
      [
        call("read_file", { path: "pipe" }),
        { ...call("edit_file", { path: "pipe", old_text: "a", new_text: "b" }), expect: "named pipe (FIFO)" },
        { ...call("write_file", { path: "pipe", content: "x" }), expect: "not a regular file" },
        { expect: "it is a named pipe (FIFO), not a regular file", text: "refused" },
      ],
      15_000,
    );
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("refused");
    expect(lstatSync(path.join(work, "pipe")).isFIFO()).toBe(true);
  });

  it("a FIFO as .hx/settings.json is refused at start-up, not waited on (exit 2)", async () => {
    const work = tempDir("hx-fault-fifo-settings-");
    mkdirSync(path.join(work, ".hx"));
    execFileSync("mkfifo", [path.join(work, ".hx", "settings.json")]);
    const run = await runScript(work, [{ text: "never" }], 15_000);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("hx: .hx/settings.json: is a named pipe (FIFO), not a file");
  });

  it("read_file of a 600 MB line answers with a cut line, not a crash", async () => {
    const work = tempDir("hx-fault-hugeline-");
    const file = path.join(work, "huge.log");
    const fd = openSync(file, "w");
    writeSync(fd, "x".repeat(8192));
    ftruncateSync(fd, 600 * 1024 * 1024); // sparse: the rest of the one line reads as zero bytes
    closeSync(fd);
    try {
      const run = await runScript(work, [
        call("read_file", { path: "huge.log" }),
        { expect: "more bytes]", text: "read it" },
      ]);
      expect(run.stderr).not.toContain("RangeError");
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe("read it");
    } finally {
      rmSync(file);
    }
  });

  it("edit_file on a latin-1 file refuses instead of turning bytes into U+FFFD", async () => {
    const work = tempDir("hx-fault-latin1-");
    const latin1 = Buffer.from("# r\xe9sum\xe9\nname = old\n", "latin1");
    writeFileSync(path.join(work, "conf.txt"), latin1);
    const run = await runScript(work, [
      call("edit_file", { path: "conf.txt", old_text: "old", new_text: "new" }),
      { expect: "is not valid UTF-8 (byte 0xE9 on line 1", text: "left alone" },
    ]);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(work, "conf.txt")).equals(latin1)).toBe(true);
  });
});
