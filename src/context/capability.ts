import type { Capability, SessionBasics, SlashCommand } from "../agent/capability.js";
import type { Message } from "../core/messages.js";
import type { ToolRegistry } from "../tools/registry.js";
import { DEFAULT_SPILL_LIMIT_CHARS } from "../tools/tool-results.js";
import { breakdownContext, renderContextTable } from "./breakdown.js";
import { type CompactionTrigger, ContextCompactor } from "./compactor.js";
import { createSkillSizeGuard } from "./skill-size-guard.js";
import { createToolOutputSpill } from "./spill.js";

export interface ContextCapability extends Capability {
  compactor: ContextCompactor;
}

/**
 * Context economy for one session: big tool outputs spill to `.hx/tool-results/`, old ones
 * are shortened, and past the threshold history is summarised (every change through the
 * conversation, so the transcript has the full history before anything is dropped). Also
 * `/context` (what the next request holds) and `/compact [focus]`. Built after the
 * capabilities that add tools and prompt sections, since it measures them.
 */
export function setUpContext(
  basics: SessionBasics,
  options: {
    /** The model's context window now (it changes with `/model`). */
    window: () => number;
    system: string;
    tools: ToolRegistry;
    /** The skill catalog section, shown as its own row by /context. */
    catalog: string;
    onPreCompact: (trigger: CompactionTrigger, messages: readonly Message[]) => Promise<void> | void;
    /** Context for the summary after a compaction (SessionStart hooks, `source: "compact"`). */
    contextAfterCompact?: (trigger: CompactionTrigger) => Promise<string | undefined>;
  },
): ContextCapability {
  const { conversation } = basics;
  const compactor = new ContextCompactor({
    provider: basics.model,
    window: options.window,
    system: options.system,
    toolSchemas: () => options.tools.schemas(),
    onPreCompact: options.onPreCompact,
    contextAfterCompact: options.contextAfterCompact,
  });
  const commands: SlashCommand[] = [
    {
      name: "context",
      usage: "/context",
      description: "what the next request holds, in tokens",
      async run(_args, io) {
        await options.tools.ready(); // a tool added since the last request
        io.print(
          renderContextTable(
            breakdownContext({
              system: options.system,
              catalog: options.catalog,
              toolSchemas: options.tools.schemas(),
              messages: conversation.messages,
              window: options.window(),
            }),
          ),
        );
      },
    },
    {
      name: "compact",
      usage: "/compact [focus]",
      description: "summarise older history now (optionally what to keep in focus)",
      async run(args, io) {
        const record = await compactor.compactNow(conversation, {
          focus: args.trim() || undefined,
          emit: io.emit,
          signal: io.signal,
          trigger: "manual",
        });
        // A compaction says what it did in its own notice (once, on every front end).
        if (!record) io.print("Nothing to compact yet.");
      },
    },
  ];
  return {
    name: "context",
    extensions: [
      createSkillSizeGuard({ window: options.window, workspaceRoot: basics.workspace.root }),
      // A tool output of more than about a quarter of the window (in chars ≈ tokens × 4) is spilled.
      createToolOutputSpill({
        workspaceRoot: basics.workspace.root,
        limitChars: () => Math.min(DEFAULT_SPILL_LIMIT_CHARS, options.window()),
      }),
      compactor.extension(),
    ],
    commands,
    compactor,
  };
}
