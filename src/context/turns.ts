import type { Message } from "../core/messages.js";

/**
 * Where a conversation may be cut without separating a tool call from its result: before a
 * user message, or before an assistant message, provided every tool call made earlier already
 * has its result. Returns the indices `i` (1..length-1) such that `messages.slice(i)` is a
 * valid conversation on its own; index 0 is not listed (cutting there drops nothing).
 */
export function safeCutPoints(messages: readonly Message[]): number[] {
  const points: number[] = [];
  const open = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (i > 0 && message.role !== "tool" && open.size === 0) points.push(i);
    if (message.role === "assistant") for (const call of message.toolCalls) open.add(call.id);
    else if (message.role === "tool") open.delete(message.toolCallId);
  }
  return points;
}

/**
 * Problems with call/result pairing, empty when every tool call is followed (after its own
 * assistant message, before the next assistant or user message) by exactly one result, and every
 * result answers such a call. Used by tests and as a guard after compaction.
 */
export function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let open = new Map<string, number>();
  const closeTurn = (at: number) => {
    for (const [id, from] of open)
      problems.push(`call ${id} (message ${from}) has no result before message ${at}`);
    open = new Map();
  };
  messages.forEach((message, i) => {
    if (message.role === "tool") {
      if (!open.delete(message.toolCallId))
        problems.push(`result ${message.toolCallId} (message ${i}) has no call`);
      return;
    }
    closeTurn(i);
    if (message.role === "assistant") for (const call of message.toolCalls) open.set(call.id, i);
  });
  // Calls still open at the very end are the turn in flight: fine.
  return problems;
}

/** Assistant turns counted from the end: the index of the K-th last assistant message. */
export function startOfLastAssistantTurns(messages: readonly Message[], turns: number): number {
  if (turns <= 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "assistant") {
      seen += 1;
      if (seen === turns) return i;
    }
  }
  return 0;
}
