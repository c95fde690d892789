import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { errorMessage } from "../core/error-message.js";
import { withInheritedFiles } from "./inherited-files.js";
import { OutputBuffer } from "./output-buffer.js";
import { killTagged, PROCESS_TAG_VARIABLE, type ProcessGroups } from "./process-groups.js";
import type { SpillFile } from "./spill-file.js";

/** How a process run ended. */
export type ProcessEnding =
  | { kind: "exit"; code: number }
  | { kind: "signal"; signal: string }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "spawn-error"; message: string };

/** One stream's output: head and tail in memory, the middle counted (and spilled, if asked). */
interface CapturedOutput {
  text: string;
  /** What fell between head and tail and is not in `text`. */
  dropped: { chars: number; lines: number };
}

export interface ProcessSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed; without it the child gets no stdin. */
  stdin?: string;
  /** Files opened read-only as the child's fds 3, 4, … (closed here once it started). */
  inheritFiles?: readonly string[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** Characters of each end of each stream kept in memory. */
  keepChars: number;
  /** Receives every byte of stdout and stderr, in arrival order. */
  spill?: SpillFile;
  /** Told the output as it arrives (decoded; stdout and stderr alike), to show it live. */
  onOutput?: (text: string) => void;
  /** After the leader exits, how long to wait for the pipes to close. */
  drainMs: number;
  /** Registers the group so hx's exit and signals kill it. */
  groups?: ProcessGroups;
  /**
   * Tag the child's environment and, after the call, kill every process still carrying the tag
   * (processes that left the group with `setsid`). Off inside the sandbox: its PID namespace
   * already takes everything down.
   */
  sweepEscaped?: boolean;
}

export interface ProcessResult {
  ending: ProcessEnding;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
}

/**
 * The one process-group runner (bash commands and hooks): spawns `file args` as the leader of
 * its own process group, kills the whole group when the call ends — done, timed out or
 * aborted — so background jobs do not outlive it, and keeps output in bounded memory.
 * Never throws, never rejects.
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const stdout = new OutputBuffer(spec.keepChars);
  const stderr = new OutputBuffer(spec.keepChars);
  const result = (ending: ProcessEnding): ProcessResult => ({
    ending,
    stdout: { text: stdout.text(), dropped: stdout.dropped() },
    stderr: { text: stderr.text(), dropped: stderr.dropped() },
  });
  if (spec.signal?.aborted) return Promise.resolve(result({ kind: "aborted" }));

  return new Promise((resolve) => {
    const tag = spec.sweepEscaped && spec.groups ? spec.groups.nextTag() : undefined;
    const env = tag ? { ...spec.env, [PROCESS_TAG_VARIABLE]: tag } : spec.env;
    let child: ReturnType<typeof spawn>;
    try {
      child = withInheritedFiles(spec.inheritFiles, (fds) =>
        spawn(spec.file, [...spec.args], {
          cwd: spec.cwd,
          env,
          detached: true,
          stdio: [spec.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe", ...fds],
        }),
      );
    } catch (error) {
      resolve(result({ kind: "spawn-error", message: errorMessage(error) }));
      return;
    }
    const pgid = child.pid;
    if (pgid !== undefined) spec.groups?.add(pgid);

    let stoppedBy: "timeout" | "aborted" | undefined;
    let settled = false;
    let groupEnded = false;
    const endGroup = () => {
      if (pgid === undefined || groupEnded) return;
      groupEnded = true;
      if (spec.groups) spec.groups.release(pgid);
      else {
        try {
          process.kill(-pgid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      if (tag) killTagged(tag, "exact");
    };
    const stop = (reason: "timeout" | "aborted") => {
      stoppedBy ??= reason;
      endGroup();
    };
    const timer = setTimeout(() => stop("timeout"), spec.timeoutMs);
    const onAbort = () => stop("aborted");
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (ending: ProcessEnding) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result(ending));
    };

    const live = spec.onOutput;
    const decoders = live ? [new StringDecoder("utf8"), new StringDecoder("utf8")] : [];
    const tell = (index: number, chunk: Buffer) => {
      const text = decoders[index]?.write(chunk);
      if (live && text) live(text);
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout.write("stdout", chunk);
      spec.spill?.write(chunk);
      tell(0, chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr.write("stderr", chunk);
      spec.spill?.write(chunk);
      tell(1, chunk);
    });
    child.on("error", (error) => {
      endGroup();
      finish({ kind: "spawn-error", message: error.message });
    });
    child.on("exit", (code, exitSignal) => {
      // The call is over: whatever the command left running goes with it.
      endGroup();
      const ending: ProcessEnding = stoppedBy
        ? { kind: stoppedBy }
        : exitSignal
          ? { kind: "signal", signal: exitSignal }
          : { kind: "exit", code: code ?? 0 };
      // Read what is still in the pipes; a process that escaped the group may hold them open.
      waitForStreams([child.stdout, child.stderr], spec.drainMs).then(() => finish(ending));
    });

    if (child.stdin) {
      // A child that never reads stdin must not crash us with EPIPE.
      child.stdin.on("error", () => undefined);
      child.stdin.end(spec.stdin);
    }
  });
}

function waitForStreams(streams: Array<Readable | null>, maxMs: number): Promise<void> {
  const ended = streams.map(
    (stream) =>
      new Promise<void>((done) => {
        if (!stream || stream.readableEnded || stream.destroyed) return done();
        stream.once("end", done);
        stream.once("close", done);
      }),
  );
  return new Promise((done) => {
    const timer = setTimeout(done, maxMs);
    Promise.all(ended).then(() => {
      clearTimeout(timer);
      done();
    });
  });
}
