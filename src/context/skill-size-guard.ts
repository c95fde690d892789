import type { LoopExtension } from "../agent/extension.js";
import { formatCount } from "../core/format-count.js";
import { spillToolOutput } from "./spill.js";
import { estimateTokens } from "./tokens.js";

/**
 * Keeps one loaded skill from crowding out the conversation. A `load_skill` result of more
 * than a quarter of the window warns the user and gets a note telling the model; one of more
 * than half the window cannot be sent whole: the model gets its first quarter-window and the
 * path of the whole text, saved under `.hx/tool-results/` (it stays marked as that skill, so
 * compaction keeps and re-injects what was sent).
 */
export function createSkillSizeGuard(options: { window: number; workspaceRoot: string }): LoopExtension {
  const quarter = Math.floor(options.window / 4);
  return {
    name: "skill-size-guard",
    afterToolCall(prepared, output, state) {
      const skill = output.meta?.skill;
      if (skill === undefined || output.isError) return undefined;
      const tokens = estimateTokens(output.content);
      if (tokens <= quarter) return undefined;
      const size = `~${formatCount(tokens)} tokens`;
      const window = `${formatCount(options.window)}-token context window`;
      if (tokens <= options.window / 2) {
        state.emit({
          type: "notice",
          level: "warn",
          text: `skill ${skill} is ${size}, more than a quarter of the ${window}`,
        });
        return {
          ...output,
          content: `${output.content}\n\n[Note: the skill ${skill} is ${size}, more than a quarter of your ${window}; keep the rest of the work lean, older turns will be summarised sooner.]`,
        };
      }
      // Characters for about a quarter of the window at this text's own chars-per-token rate.
      const previewChars = Math.floor((output.content.length * quarter) / tokens);
      const spilled = spillToolOutput(
        options.workspaceRoot,
        prepared.call.id,
        output,
        previewChars,
        (file, line) => `read on with read_file (path "${file}", offset ${line}) when you need more of it.`,
      );
      state.emit({
        type: "notice",
        level: "warn",
        text: `skill ${skill} is ${size}, too large for the ${window}; the model sees its first part and reads the rest from ${spilled.relativePath}`,
      });
      return {
        ...spilled.output,
        content: `${spilled.output.content}\n[The skill ${skill} is ${size}: it does not fit in your ${window}, so only its start is above.]`,
        meta: output.meta,
      };
    },
  };
}
