import type { LoopExtension } from "../agent/extension.js";
import type { Conversation } from "../core/conversation.js";
import { userMessage } from "../core/messages.js";
import type { BackgroundJob, BackgroundJobs } from "./jobs.js";

const TAIL_LINES = 5;
const TAIL_CHARS = 600;
/** A subagent's answer is what the model waited for: it comes whole, up to this. */
const ANSWER_CHARS = 8_000;

/** One short line per ended job, with the last lines of its output (a subagent's answer). */
function endedNotice(jobs: readonly BackgroundJob[]): string {
  const parts = jobs.map((job) => {
    if (job.kind === "subagent") {
      const answer = job.all().trim();
      const shown = answer.length > ANSWER_CHARS ? `${answer.slice(0, ANSWER_CHARS)}…` : answer;
      return `${job.id} (subagent "${job.command}") ${job.describe()}; its answer:\n${shown || "(none)"}`;
    }
    const tail = job.tail(TAIL_LINES);
    const cut = tail.length > TAIL_CHARS ? `…${tail.slice(-TAIL_CHARS)}` : tail;
    return `${job.id} (${job.command}) ${job.describe()}${cut ? `; last lines:\n${cut}` : "; no output"}`;
  });
  return `<background>\n${parts.join("\n")}\n(bash_output shows more)\n</background>`;
}

/** The ids and states of every job, for the model after a compaction forgot them. */
function stateNotice(jobs: readonly BackgroundJob[]): string {
  return `<background>\nBackground jobs: ${jobs.map((job) => `${job.id} (${job.command}) ${job.describe()}`).join("; ")}\n</background>`;
}

/**
 * Before each model request: one message for the jobs that ended since the last one, so the
 * model never has to poll; and, after a compaction of the session's conversation, the ids and
 * states of every job (the summary may have dropped them).
 */
export function createBackgroundNotifications(
  jobs: BackgroundJobs,
  conversation: Conversation,
): LoopExtension {
  let compacted = false;
  conversation.subscribe((change) => {
    if (change.type === "replace" && change.reason === "compaction") compacted = true;
  });
  return {
    name: "background",
    beforeModelCall(state) {
      const ended = jobs.takeEnded();
      if (compacted && jobs.list().length > 0) {
        state.conversation.append(userMessage(stateNotice(jobs.list()), { kind: "announcement" }));
      } else if (ended.length > 0) {
        state.conversation.append(userMessage(endedNotice(ended), { kind: "announcement" }));
      }
      compacted = false;
    },
  };
}
