import type { AssistantMessage, Message } from "../core/messages.js";

/** What both wire APIs accept in an id (Anthropic allows only these characters). */
const VALID_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Gives every tool call in `message` an id that no other call in it and no call in `history`
 * uses, so each result answers exactly one call. Models and servers repeat ids (`call_0` on
 * every turn, one id for parallel calls), leave them out, or use characters another API
 * rejects; such ids are replaced by fresh `call_hx_<n>` ids. Unique, valid ids are kept.
 */
export function withUniqueToolCallIds(
  message: AssistantMessage,
  history: readonly Message[],
): AssistantMessage {
  if (message.toolCalls.length === 0) return message;
  const used = new Set<string>();
  for (const earlier of history) {
    if (earlier.role === "assistant") for (const call of earlier.toolCalls) used.add(call.id);
  }
  let counter = used.size;
  const fresh = () => {
    let id: string;
    do {
      counter += 1;
      id = `call_hx_${counter}`;
    } while (used.has(id));
    return id;
  };
  let changed = false;
  const toolCalls = message.toolCalls.map((call) => {
    const keep = VALID_ID.test(call.id) && !used.has(call.id);
    const id = keep ? call.id : fresh();
    used.add(id);
    if (keep) return call;
    changed = true;
    return { ...call, id };
  });
  return changed ? { ...message, toolCalls } : message;
}
