import type { LoopExtension, LoopState } from "../agent/extension.js";
import { errorMessage } from "../core/error-message.js";
import type { PreparedCall } from "../tools/registry.js";
import type { Checkpoints } from "./checkpoints.js";

export interface CheckpointExtensionOptions {
  /**
   * The top-level loop: notes each new user turn. A subagent's loop does not (its prompt is
   * not the user's): its calls belong to the turn the session is in.
   */
  tracksTurns: boolean;
  /** Called once when snapshots fail (no git, a broken repository); checkpoints stop for the session. */
  onFailure: (reason: string) => void;
}

/**
 * Snapshots the project before and after each call whose effect may change files (`write`,
 * `execute`: every command, since a command the permission check calls read-only may still
 * write). It never blocks a call: a failure turns checkpoints off for the session, once, with
 * a warning. Put it after the permission and hook extensions, so refused calls take no
 * snapshot.
 */
export function createCheckpointExtension(
  checkpoints: Checkpoints,
  options: CheckpointExtensionOptions,
): LoopExtension {
  let failed = false;
  const changes = (prepared: PreparedCall) =>
    prepared.tool.effect === "write" || prepared.tool.effect === "execute";
  const guarded = async (work: () => Promise<void> | void) => {
    if (failed) return;
    try {
      await work();
    } catch (error) {
      failed = true;
      options.onFailure(errorMessage(error));
    }
  };
  const turn = (state: LoopState) =>
    options.tracksTurns ? checkpoints.currentTurn(state.conversation.messages) : checkpoints.lastTurn();
  return {
    name: "checkpoints",
    async beforeModelCall(state) {
      if (options.tracksTurns) await guarded(() => void checkpoints.currentTurn(state.conversation.messages));
    },
    async beforeToolCall(prepared, state) {
      if (changes(prepared)) {
        await guarded(() =>
          checkpoints.snapshot({
            turn: turn(state),
            phase: "before",
            tool: prepared.tool.name,
            callId: prepared.call.id,
          }),
        );
      }
      return undefined;
    },
    async afterToolCall(prepared, _output, state) {
      if (changes(prepared)) {
        await guarded(() =>
          checkpoints.snapshot({
            turn: turn(state),
            phase: "after",
            tool: prepared.tool.name,
            callId: prepared.call.id,
          }),
        );
      }
      return undefined;
    },
  };
}
