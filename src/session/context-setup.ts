import type { LoopExtension } from "../agent/extension.js";
import { type CompactionTrigger, ContextCompactor, createToolOutputSpill } from "../context/index.js";
import type { Message } from "../core/messages.js";
import type { ModelProvider, ToolSchema } from "../providers/provider.js";
import type { LoadedSkills } from "../skills/index.js";
import type { TranscriptWriter } from "../transcript/index.js";

/**
 * Context economy for one session: big tool outputs spill to `.hx/tool-results/`, old ones
 * are shortened, and past the threshold history is summarised — with the transcript synced
 * to disk before anything is dropped.
 */
export function setUpContext(options: {
  provider: ModelProvider;
  workspaceRoot: string;
  window: number;
  system: string;
  toolSchemas: readonly ToolSchema[];
  writer: TranscriptWriter;
  loadedSkills: LoadedSkills;
  onPreCompact: (trigger: CompactionTrigger, messages: readonly Message[]) => Promise<void> | void;
  history: () => Message[];
}): { extensions: LoopExtension[]; compactor: ContextCompactor } {
  const compactor = new ContextCompactor({
    provider: options.provider,
    window: options.window,
    system: options.system,
    toolSchemas: options.toolSchemas,
    beforeDrop: (messages) => options.writer.syncMessages(messages),
    onCompacted: (record) => options.writer.recordCompaction(record),
    onPreCompact: (trigger) => options.onPreCompact(trigger, options.history()),
    onSkillsNeedReload: (names) => {
      for (const name of names) options.loadedSkills.delete(name);
    },
  });
  return {
    extensions: [createToolOutputSpill({ workspaceRoot: options.workspaceRoot }), compactor.extension()],
    compactor,
  };
}
