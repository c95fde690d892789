import pc from "picocolors";
import type { AgentEvent, EventSink } from "../core/events.js";
import { neutraliseTerminalText as safe } from "./terminal-safe.js";
import { formatToolCallTrace } from "./trace-format.js";

export interface TerminalRendererOptions {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Stream the model's text to stdout as it arrives (interactive mode). */
  streamText: boolean;
  /** Show reasoning, dimmed, on stderr. */
  showReasoning: boolean;
  verbose: boolean;
}

const RESULT_PREVIEW_LINES = 6;

/**
 * Turns agent events into what a person reads: the trace (`> tool key=value`) and notices on
 * stderr, the answer on stdout. Subagent events are shown indented under the parent's. Text
 * from the model and tools is neutralised first: nothing in it can drive the terminal.
 */
export function createTerminalRenderer(options: TerminalRendererOptions): EventSink {
  const state: RenderState = { inReasoning: false };
  return (event) => render(options, state, event, "");
}

/** Whether reasoning is being streamed, so the answer starts on a line of its own. */
interface RenderState {
  inReasoning: boolean;
}

function render(
  options: TerminalRendererOptions,
  state: RenderState,
  event: AgentEvent,
  indent: string,
): void {
  const err = (line: string) => options.stderr.write(`${indent}${line}\n`);
  switch (event.type) {
    case "delta":
      if (indent) return;
      if (event.delta.type === "reasoning") {
        if (!options.showReasoning) return;
        options.stderr.write(pc.dim(safe(event.delta.text)));
        state.inReasoning = true;
        return;
      }
      endReasoning(options, state);
      if (options.streamText) options.stdout.write(safe(event.delta.text));
      return;
    case "assistant_message": {
      const { message } = event;
      if (!indent) endReasoning(options, state);
      if (!indent && options.streamText && message.content) options.stdout.write("\n");
      if (!options.streamText && message.toolCalls.length > 0 && message.content.trim()) {
        err(pc.dim(safe(message.content.trim())));
      }
      return;
    }
    case "tool_call":
      err(
        pc.cyan(
          safe(
            formatToolCallTrace(event.tool ? { ...event.call, name: event.tool } : event.call, event.args),
          ),
        ),
      );
      return;
    case "tool_result": {
      const content = safe(event.result.content);
      const firstLine = content.split("\n", 1)[0] ?? "";
      if (event.blocked) err(pc.yellow(`  blocked: ${firstLine}`));
      else if (event.result.isError) err(pc.red(`  ${truncateLine(firstLine)}`));
      else if (options.verbose) {
        const lines = content.split("\n");
        for (const line of lines.slice(0, RESULT_PREVIEW_LINES)) err(pc.dim(`  ${truncateLine(line)}`));
        if (lines.length > RESULT_PREVIEW_LINES)
          err(pc.dim(`  … ${lines.length - RESULT_PREVIEW_LINES} more lines`));
      }
      return;
    }
    case "retry": {
      // Only what was printed needs disowning: streamed text, shown reasoning.
      const shownText = options.streamText && event.discard.text > 0;
      const shown = !indent && (shownText || (options.showReasoning && event.discard.reasoning > 0));
      if (shown) {
        endReasoning(options, state);
        if (shownText) options.stdout.write("\n");
      }
      const restart = shown ? "; the answer restarts, the partial one above is void" : "";
      err(
        pc.yellow(
          `retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${safe(event.reason)}${restart}`,
        ),
      );
      return;
    }
    case "notice":
      if (event.level === "warn") err(pc.yellow(`warning: ${safe(event.text)}`));
      else err(safe(event.text));
      return;
    case "subagent":
      if (event.event.type === "turn_start" && event.event.turn === 1)
        err(pc.magenta(`task: ${safe(event.label)}`));
      render(options, state, event.event, `${indent}  `);
      return;
    case "turn_start":
    case "tool_progress": // a line per event: the result says it once
    case "end":
      return;
  }
}

function endReasoning(options: TerminalRendererOptions, state: RenderState): void {
  if (!state.inReasoning) return;
  options.stderr.write("\n");
  state.inReasoning = false;
}

function truncateLine(line: string): string {
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
