import { formatCount } from "../core/format-count.js";
import { type Escalation, ToolError, type ToolOutput, toolErrorText } from "../core/tool.js";
import { ProcessGroups } from "../process/process-groups.js";
import { type ProcessEnding, runProcess } from "../process/run-process.js";
import { SpillFile } from "../process/spill-file.js";
import type { CommandSandbox, SandboxLaunch } from "../sandbox/index.js";
import { explainSandboxFailure, sandboxEscalation } from "../sandbox/index.js";
import { childEnvironment } from "../secrets/child-env.js";
import { builtSchema } from "./built-schemas.js";
import { defined, text } from "./claude-shape.js";
import { type ClaudeShape, defineTool, type Tool, type Zod } from "./tool.js";
import { DEFAULT_SPILL_LIMIT_CHARS, toolResultFile } from "./tool-results.js";
import { type Cut, truncate } from "./truncate.js";

const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 600;
/** Output up to this size is shown whole (the context's spill limit). */
const MAX_OUTPUT_CHARS = DEFAULT_SPILL_LIMIT_CHARS;
/** Longer output: its start and end, note included, with the whole of it saved to a file. */
const PREVIEW_CHARS = 3_900;
/** How much of each end the process runner keeps in memory; the rest is only counted (and saved). */
const KEEP_CHARS = 64 * 1024;
/** The full output is saved once it passes what the model can see, up to this size. */
const MAX_SAVED_BYTES = 100 * 1024 * 1024;
/** After bash exits, how long to wait for output still in the pipes. */
const DRAIN_MS = 100;

export const bashParameters = (z: Zod) =>
  z.object({
    command: z.string().min(1),
    timeout: z
      .number()
      .positive()
      .max(MAX_TIMEOUT_SECONDS)
      .optional()
      .describe(`Seconds (default ${DEFAULT_TIMEOUT_SECONDS})`),
    run_in_background: z
      .boolean()
      .optional()
      .describe("Return at once with an id (servers, watchers, long builds)"),
  });

export interface BashToolOptions {
  /** The environment commands get. Default: hx's own, without secrets. */
  env?: () => Record<string, string>;
  /** The OS sandbox commands run in; absent: they run as they are. */
  sandbox?: CommandSandbox;
  /** Where running commands are registered so hx's exit kills them; default: one set per tool. */
  groups?: ProcessGroups;
  /** One sentence on the sandbox for the model (what it may write, whether there is network). */
  sandboxNote?: string;
  /** Where `run_in_background` commands go; absent: the parameter is refused. */
  background?: BackgroundStarter;
}

/**
 * Bash as Claude Code knows it. Claude Code's `timeout` is in milliseconds, hx's in seconds;
 * Claude's `tool_response` has stdout and stderr apart, hx's output has them interleaved in stdout.
 */
/**
 * Where `run_in_background` commands go (src/background's BackgroundJobs): `run` starts the
 * process, writes its output to the job and resolves when it ends.
 */
interface BackgroundStarter {
  start(
    command: string,
    run: (
      job: { readonly id: string; write(text: string): void },
      signal: AbortSignal,
    ) => Promise<ProcessEnding>,
  ): { readonly id: string };
}

export const BASH_CLAUDE: ClaudeShape<{ command: string; timeout?: number; run_in_background?: boolean }> = {
  name: "Bash",
  input: (args) =>
    defined({
      command: args.command,
      timeout: args.timeout && args.timeout * 1000,
      run_in_background: args.run_in_background,
    }),
  args: (input) => {
    const timeout =
      typeof input.timeout === "number" ? Math.max(1, Math.ceil(input.timeout / 1000)) : undefined;
    const background = input.run_in_background === true ? true : undefined;
    return defined({ command: text(input, "command"), timeout, run_in_background: background });
  },
  response: (_args, output) => ({ stdout: output.content, stderr: "", interrupted: false, isImage: false }),
};
/** A background command runs until it ends, `bash_kill` or hx's exit (a day at most). */
const BACKGROUND_LIMIT_MS = 24 * 60 * 60 * 1000;

/** The bash tool. One per session: it owns the session's running commands. */
export function createBashTool(options: BashToolOptions = {}): Tool<ReturnType<typeof bashParameters>> {
  const groups = options.groups ?? new ProcessGroups();
  const env = options.env ?? (() => childEnvironment());
  return defineTool({
    name: "bash",
    description:
      `Runs a bash command in the workspace root; returns stdout+stderr, and "Exit code: N" on failure. ` +
      "No stdin; what it starts is stopped when it ends. Output over " +
      `${formatCount(MAX_OUTPUT_CHARS)} chars keeps start and end; the rest goes to a file the result names. ` +
      "Read and search with read_file, glob, grep." +
      (options.sandboxNote ? ` ${options.sandboxNote}` : ""),
    parameters: bashParameters,
    jsonSchema: builtSchema("bash"),
    effect: "execute",
    ruleSubject: (args) => args.command,
    claude: BASH_CLAUDE,
    async execute(args, ctx): Promise<ToolOutput> {
      const timeoutSeconds = args.timeout ?? DEFAULT_TIMEOUT_SECONDS;
      // stderr joins stdout inside bash, so the two interleave exactly as written. Same line,
      // so bash's "line N" messages still match the model's command.
      const script = `exec 2>&1; ${args.command}`;
      const childEnv = { ...env(), PAGER: "cat", GIT_PAGER: "cat" };
      // A re-run the user granted after a sandbox refusal: outside it once, or with more in it.
      if (ctx.grant?.scope === "session") grantForSession(options.sandbox, ctx.grant.escalation);
      const sandbox = ctx.grant?.scope === "once" ? undefined : options.sandbox;
      const launch = await launchFor(sandbox, script, ctx.workspace.root, childEnv);
      if ("refused" in launch) throw new ToolError(launch.refused);
      if (launch.notice) ctx.emit({ type: "notice", level: "warn", text: launch.notice });
      if (args.run_in_background) {
        if (!options.background) {
          launch.release();
          throw new ToolError(
            "background commands are not available here; run it without run_in_background.",
          );
        }
        const job = options.background.start(args.command, (job, signal) =>
          runProcess({
            file: launch.file,
            args: launch.args,
            inheritFiles: launch.inheritFiles,
            cwd: ctx.workspace.root,
            env: launch.env,
            timeoutMs: BACKGROUND_LIMIT_MS,
            signal,
            keepChars: 1024,
            onOutput: (text) => job.write(text),
            drainMs: DRAIN_MS,
            groups,
            sweepEscaped: !launch.sandboxed,
          }).then((run) => {
            launch.release();
            return run.ending;
          }),
        );
        return {
          content: `Started in the background as ${job.id}. bash_output {"id": "${job.id}"} shows its output; bash_kill stops it. You will be told when it ends.`,
        };
      }

      const saved = toolResultFile(ctx.workspace.root, ctx.callId);
      const spill = new SpillFile(saved.absolute, MAX_OUTPUT_CHARS, MAX_SAVED_BYTES);
      let run: Awaited<ReturnType<typeof runProcess>>;
      try {
        run = await runProcess({
          file: launch.file,
          args: launch.args,
          inheritFiles: launch.inheritFiles,
          cwd: ctx.workspace.root,
          env: launch.env,
          timeoutMs: timeoutSeconds * 1000,
          signal: ctx.signal,
          keepChars: KEEP_CHARS,
          spill,
          drainMs: DRAIN_MS,
          groups,
          sweepEscaped: !launch.sandboxed,
          onOutput: (text) => ctx.emit({ type: "tool_progress", callId: ctx.callId, text }),
        });
      } finally {
        launch.release();
      }
      if (run.ending.kind === "spawn-error") {
        spill.discard();
        throw new ToolError(`could not start bash: ${run.ending.message}`);
      }
      const output = run.stdout.text + run.stderr.text;
      const dropped = {
        chars: run.stdout.dropped.chars + run.stderr.dropped.chars,
        lines: run.stdout.dropped.lines + run.stderr.dropped.lines,
      };
      const cutNeeded = dropped.chars > 0 || output.length > MAX_OUTPUT_CHARS;
      const file = cutNeeded ? spill.finish() : undefined;
      if (!cutNeeded) spill.discard();
      if (file) {
        const total = output.length + dropped.chars;
        ctx.emit({
          type: "notice",
          level: "info",
          text: `bash output (${formatCount(total)} chars) saved to ${saved.relativePath}; the model sees its start and end`,
        });
      }
      const shown = truncate(output, {
        maxChars: file ? PREVIEW_CHARS : MAX_OUTPUT_CHARS,
        keep: "both",
        alreadyCut: dropped,
        nextStep: (cut: Cut) =>
          file
            ? `The full output is saved in ${saved.relativePath}${file.complete ? "" : ` (its first ${Math.round(file.bytes / 1024 / 1024)} MB only)`}; read the cut part with read_file (path "${saved.relativePath}", offset ${cut.keptHeadLines + 1}) or search it with grep.`
            : "To see the cut part, narrow the command or redirect its output to a file and grep or read it.",
      }).text;
      let body = shown.trim() === "" ? "(no output)" : shown.replace(/\n$/, "");
      if (launch.sandboxed)
        body += explainSandboxFailure(
          output,
          launch.refusedHosts?.() ?? [],
          launch.refusedHosts !== undefined,
        );
      if (run.ending.kind === "aborted") throw new ToolError(`the command was cancelled.\n${body}`);
      if (run.ending.kind === "timeout") {
        // The error first: the trace shows an error's first line.
        return {
          content: toolErrorText(
            `the command timed out after ${timeoutSeconds} s and was killed with its child processes; its output so far is below. Run it with a longer timeout, or in smaller steps.\n\n${body}`,
          ),
          isError: true,
        };
      }
      if (run.ending.kind === "signal")
        return { content: `${body}\n\nTerminated by signal ${run.ending.signal}` };
      if (run.ending.code === 0) return { content: body, exitCode: 0 };
      const escalation =
        launch.sandboxed && sandbox ? refusalOffer(sandbox, output, ctx.workspace.root) : undefined;
      return {
        content: `${body}\n\nExit code: ${run.ending.code}`,
        exitCode: run.ending.code,
        ...(escalation ? { escalation } : {}),
      };
    },
  });
}

/** What the sandbox refused a failed command, as an offer for the user (sandbox/explain.ts). */
function refusalOffer(sandbox: CommandSandbox, output: string, root: string): Escalation | undefined {
  const status = sandbox.status();
  if (status.state !== "active") return undefined;
  return sandboxEscalation(output, {
    cwd: root,
    workspaceRoot: root,
    canAddWritable: status.mode === "workspace-write",
    networkOff: !status.network && !status.allowList,
  });
}

/** Applies the session part of a grant: the refused folder becomes writable, or the network opens. */
function grantForSession(sandbox: CommandSandbox | undefined, escalation: Escalation): void {
  const more = escalation.session;
  if (!sandbox || !more) return;
  if ("writable" in more) sandbox.allowWrites(more.writable);
  else sandbox.setNetwork(true);
}

async function launchFor(
  sandbox: CommandSandbox | undefined,
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<SandboxLaunch | { refused: string }> {
  if (!sandbox)
    return { file: "bash", args: ["-c", script], env, sandboxed: false, release: () => undefined };
  return sandbox.launch("bash", ["-c", script], { cwd, env });
}
