import type { CompactionDetail, ReplaceReason } from "../core/conversation.js";
import type { Message, Usage } from "../core/messages.js";

/**
 * The format's version, in the `session` line. 2: one event per change of the conversation,
 * `history` lines say why, messages keep their `meta`.
 */
export const TRANSCRIPT_VERSION = 2;

/**
 * One line of a session transcript (`~/.hx/sessions/<project>/<id>.jsonl`). Every line also
 * carries `at`, an ISO timestamp. The history is rebuilt by replaying `message` lines and
 * letting `compaction` / `history` lines replace what came before.
 */
export type TranscriptEvent =
  | {
      type: "session";
      version: typeof TRANSCRIPT_VERSION;
      id: string;
      cwd: string;
      provider: string;
      model: string;
    }
  /** The session was opened again (`--continue`, `--resume`). */
  | { type: "resume" }
  /** One message appended to the history: a prompt, an answer with its tool calls, a result. */
  | { type: "message"; message: Message }
  /** Usage reported for one model request. */
  | { type: "usage"; usage: Usage }
  /** History summarised; `messages` is the whole history from here on. */
  | ({ type: "compaction"; messages: Message[] } & CompactionDetail)
  /** History replaced some other way (shortened, resumed, cleared, repaired); `messages` replaces it. */
  | { type: "history"; reason: Exclude<ReplaceReason, "compaction">; messages: Message[] };

export type TranscriptLine = TranscriptEvent & { at: string };
