import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { z } from "zod";
import { ToolError, type ToolOutput } from "../core/tool.js";
import { OutputBuffer } from "./output-buffer.js";
import { defineTool } from "./tool.js";
import { truncate } from "./truncate.js";

const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 600;
const MAX_OUTPUT_CHARS = 50_000;
/** How much of each end the collector keeps in memory before only counting. */
const BUFFER_KEEP_CHARS = 1_000_000;
/** After bash exits, how long to wait for output still in the pipes (background jobs may hold them open). */
const DRAIN_MS = 100;

const parameters = z.object({
  command: z.string().min(1).describe("The bash command to run"),
  timeout: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SECONDS)
    .optional()
    .describe(`Timeout in seconds (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS})`),
});

export const bashTool = defineTool({
  name: "bash",
  description:
    `Runs a command with bash -c in the workspace root; returns stdout and stderr combined. ` +
    `Timeout in seconds (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}); on timeout the command and its children are killed. ` +
    `No stdin, so interactive commands fail. Output over ${MAX_OUTPUT_CHARS.toLocaleString("en-US")} chars keeps the start and end. ` +
    `A non-zero exit is reported as "Exit code: N". Prefer read_file, glob and grep for reading and searching.`,
  parameters,
  effect: "execute",
  ruleSubject: (args) => args.command,
  async execute(args, ctx): Promise<ToolOutput> {
    const timeoutSeconds = args.timeout ?? DEFAULT_TIMEOUT_SECONDS;
    const run = await runInProcessGroup(args.command, ctx.workspace.root, timeoutSeconds * 1000, ctx.signal);
    const shown = truncate(run.output, {
      maxChars: MAX_OUTPUT_CHARS,
      keep: "both",
      alreadyCut: run.dropped,
      nextStep:
        "To see the cut part, narrow the command or redirect its output to a file and grep or read it.",
    }).text;
    const body = shown.trim() === "" ? "(no output)" : shown.replace(/\n$/, "");
    if (run.ending.kind === "aborted") throw new ToolError(`the command was cancelled.\n${body}`);
    if (run.ending.kind === "timeout") {
      return {
        content: `${body}\n\nError: the command timed out after ${timeoutSeconds} s and was killed with its child processes. Output so far is shown above. Run it with a longer timeout, or in smaller steps.`,
        isError: true,
      };
    }
    if (run.ending.kind === "signal")
      return { content: `${body}\n\nTerminated by signal ${run.ending.signal}` };
    return { content: run.ending.code === 0 ? body : `${body}\n\nExit code: ${run.ending.code}` };
  },
});

type Ending =
  | { kind: "exit"; code: number }
  | { kind: "signal"; signal: string }
  | { kind: "timeout" }
  | { kind: "aborted" };

interface ProcessRun {
  output: string;
  dropped: { chars: number; lines: number };
  ending: Ending;
}

/**
 * Runs `bash -c command` as the leader of its own process group, so a timeout or an abort can
 * kill everything it started (background jobs included) with one signal to the group.
 */
function runInProcessGroup(
  command: string,
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      resolve({ output: "", dropped: { chars: 0, lines: 0 }, ending: { kind: "aborted" } });
      return;
    }
    const buffer = new OutputBuffer(BUFFER_KEEP_CHARS);
    // stderr joins stdout inside bash, so the two interleave exactly as written. Same line,
    // so bash's "line N" messages still match the model's command.
    const child = spawn("bash", ["-c", `exec 2>&1; ${command}`], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PAGER: "cat", GIT_PAGER: "cat" },
    });
    let stoppedBy: "timeout" | "aborted" | undefined;
    const killGroup = (reason: "timeout" | "aborted") => {
      stoppedBy ??= reason;
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => killGroup("timeout"), timeoutMs);
    const onAbort = () => killGroup("aborted");
    signal.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => buffer.write("stdout", chunk));
    child.stderr.on("data", (chunk: Buffer) => buffer.write("stderr", chunk));

    const cleanUp = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    child.on("error", (error) => {
      cleanUp();
      reject(new ToolError(`could not start bash: ${error.message}`));
    });
    child.on("exit", (code, exitSignal) => {
      cleanUp();
      // Read what is still in the pipes, but do not wait on background jobs holding them open.
      waitForStreams([child.stdout, child.stderr], DRAIN_MS).then(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        const ending: Ending = stoppedBy
          ? { kind: stoppedBy }
          : exitSignal
            ? { kind: "signal", signal: exitSignal }
            : { kind: "exit", code: code ?? 0 };
        resolve({ output: buffer.text(), dropped: buffer.dropped(), ending });
      });
    });
  });
}

function waitForStreams(streams: Readable[], maxMs: number): Promise<void> {
  const ended = streams.map(
    (stream) =>
      new Promise<void>((done) => {
        if (stream.readableEnded || stream.destroyed) return done();
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
