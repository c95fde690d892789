import type { LoopExtension } from "../agent/extension.js";

/** Identical calls in a row before the model is told it is going in circles. */
const REPEAT_LIMIT = 3;

/**
 * A doom-loop guard: when the model makes the same call (same tool, same arguments) several
 * times in a row, the result carries a note telling it so, with a way out. Nothing is
 * refused; the model decides. One guard per conversation.
 */
export function createRepeatedCallGuard(limit = REPEAT_LIMIT): LoopExtension {
  let lastKey: string | undefined;
  let count = 0;
  return {
    name: "repeated-call-guard",
    afterToolCall(prepared, output) {
      const key = `${prepared.call.name}\u0000${JSON.stringify(prepared.args)}`;
      count = key === lastKey ? count + 1 : 1;
      lastKey = key;
      if (count < limit) return undefined;
      return {
        ...output,
        content:
          `${output.content}\n\n[hx: this is call ${count} in a row of ${prepared.call.name} with the same ` +
          "arguments. Repeating it will not change the result: change the approach, or stop and tell the user what blocks you.]",
      };
    },
  };
}
