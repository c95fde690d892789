import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { estimateTokens } from "../context/index.js";
import { errorMessage } from "../core/error-message.js";
import { formatCount } from "../core/format-count.js";
import { formatBytes } from "../fs/regular-file.js";
import { UsageError } from "./run-config.js";

/**
 * A task that would take more than a quarter of the context window is saved to
 * `.hx/input/task-<time>.txt` in the workspace; the model gets its start and the path to read
 * the rest from, so the first request still fits. Smaller tasks are returned as they are.
 */
export function fitTaskToWindow(
  task: string,
  options: { cwd: string; window: number; log: (line: string) => void; now?: Date },
): string {
  const budget = Math.floor(options.window / 4);
  const tokens = estimateTokens(task);
  if (tokens <= budget) return task;
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, "-");
  const relative = `.hx/input/task-${stamp}.txt`;
  const file = path.join(options.cwd, relative);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, task);
  } catch (error) {
    throw new UsageError(
      `the task is ~${formatCount(tokens)} tokens, more than a quarter of the context window, and could not be saved to ${relative} (${errorMessage(error)}); shorten it or raise --context-window.`,
    );
  }
  // The start of the task, about an eighth of the window, cut at a line end where there is one.
  const headChars = Math.max(200, Math.floor((options.window / 8) * 4));
  const cut = task.lastIndexOf("\n", headChars);
  const head = task.slice(0, cut > headChars / 2 ? cut : headChars);
  options.log(
    `the task is ~${formatCount(tokens)} tokens, more than a quarter of the ${formatCount(options.window)}-token context window; saved to ${relative}, the model gets its start and the path`,
  );
  return `${head}\n\n[The task continues: it is ~${formatCount(tokens)} tokens, too long to send whole in a ${formatCount(options.window)}-token context window. The whole task (${formatBytes(Buffer.byteLength(task))}) is saved in ${relative}; read it with read_file (offset/limit) before you start.]`;
}
