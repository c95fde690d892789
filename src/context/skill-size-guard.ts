import type { LoopExtension } from "../agent/extension.js";
import { formatCount } from "../core/format-count.js";
import { spillToolOutput } from "./spill.js";
import { estimateTokens } from "./tokens.js";

/** A skill's text as it may enter the conversation, and what to tell the user about it. */
export interface FittedSkill {
  content: string;
  /** A warning for the user (the body is over a quarter of the window, or was cut). */
  notice: string;
}

/**
 * The one size rule for a skill's text entering the conversation, whoever brings it (a
 * `load_skill` result, a `/name` the user typed): up to a quarter of the window it goes in as
 * it is (undefined); up to half it goes in with a note telling the model; larger, it cannot be
 * sent whole: the model gets its first quarter-window and the path of the whole text, saved
 * under `.hx/tool-results/<id>.txt`.
 */
export function fitSkillToWindow(
  content: string,
  options: { skill: string; window: number; workspaceRoot: string; id: string },
): FittedSkill | undefined {
  const { skill } = options;
  const quarter = Math.floor(options.window / 4);
  const tokens = estimateTokens(content);
  if (tokens <= quarter) return undefined;
  const size = `~${formatCount(tokens)} tokens`;
  const window = `${formatCount(options.window)}-token context window`;
  if (tokens <= options.window / 2) {
    return {
      content: `${content}\n\n[Note: the skill ${skill} is ${size}, more than a quarter of your ${window}; keep the rest of the work lean, older turns will be summarised sooner.]`,
      notice: `skill ${skill} is ${size}, more than a quarter of the ${window}`,
    };
  }
  // Characters for about a quarter of the window at this text's own chars-per-token rate.
  const previewChars = Math.floor((content.length * quarter) / tokens);
  const spilled = spillToolOutput(
    options.workspaceRoot,
    options.id,
    { content },
    previewChars,
    (file, line) => `read on with read_file (path "${file}", offset ${line}) when you need more of it.`,
  );
  return {
    content: `${spilled.output.content}\n[The skill ${skill} is ${size}: it does not fit in your ${window}, so only its start is above.]`,
    notice: `skill ${skill} is ${size}, too large for the ${window}; the model sees its first part and reads the rest from ${spilled.relativePath}`,
  };
}

/**
 * Keeps one loaded skill from crowding out the conversation: a `load_skill` result goes
 * through fitSkillToWindow, the user is warned, and the result stays marked as that skill, so
 * compaction keeps and re-injects what was sent. (A `/name` the user types goes through the
 * same rule in the skills' prompt filter.)
 */
export function createSkillSizeGuard(options: {
  window: () => number;
  workspaceRoot: string;
}): LoopExtension {
  return {
    name: "skill-size-guard",
    afterToolCall(prepared, output, state) {
      const skill = output.meta?.skill;
      if (skill === undefined || output.isError) return undefined;
      const fitted = fitSkillToWindow(output.content, {
        window: options.window(),
        workspaceRoot: options.workspaceRoot,
        skill,
        id: prepared.call.id,
      });
      if (!fitted) return undefined;
      state.emit({ type: "notice", level: "warn", text: fitted.notice });
      return { ...output, content: fitted.content };
    },
  };
}
