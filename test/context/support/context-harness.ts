// Pieces for driving the real agent loop through long scripted sessions under a small window:
// a skill-loading stand-in, a tool with outputs of a chosen size, and a model policy that
// answers summarisation requests (no tools) with a summary.
import { z } from "zod";
import type { LoopExtension } from "../../../src/agent/extension.js";
import { runAgentLoop } from "../../../src/agent/loop.js";
import { Conversation } from "../../../src/core/conversation.js";
import type { AgentEvent } from "../../../src/core/events.js";
import type { Message } from "../../../src/core/messages.js";
import type { ModelRequest } from "../../../src/providers/provider.js";
import type { ReplyFn, ScriptedProvider, ScriptedReply } from "../../../src/providers/scripted.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import { defineTool, type Tool } from "../../../src/tools/tool.js";
import { Workspace } from "../../../src/tools/workspace.js";

export const SKILL_NAME = "deploy-checklist";

/** A skill body of about `tokens` tokens, with a recognisable first and last line. */
export function skillBody(name: string, tokens: number): string {
  const line = `Step for ${name}: verify the build, run the tests, record the result. `;
  const lines = [`# ${name} START`];
  while (lines.join("\n").length < tokens * 4) lines.push(line);
  lines.push(`${name} END`);
  return lines.join("\n");
}

/** Stand-in for load_skill: the same wrapper and `meta.skill` the real tool returns. */
export function skillTool(bodies: Record<string, string>): Tool {
  return defineTool({
    name: "load_skill",
    description: "Load a skill's full instructions by name.",
    parameters: () => z.object({ name: z.string() }),
    effect: "none",
    async execute(args) {
      const body = bodies[args.name];
      if (!body) return { content: `Error: Unknown skill '${args.name}'`, isError: true };
      return {
        content: `<skill name="${args.name}">\n${body}\n</skill>\n\nBase directory for this skill: /skills/${args.name}`,
        meta: { skill: args.name },
      };
    },
  });
}

/** `work {chars}`: returns that many characters of numbered lines. */
export const workTool: Tool = defineTool({
  name: "work",
  description: "Do a unit of work and report.",
  parameters: () => z.object({ chars: z.number(), step: z.number().optional() }),
  effect: "read",
  async execute(args) {
    const lines: string[] = [];
    let size = 0;
    for (let i = 1; size < args.chars; i++) {
      const line = `step ${args.step ?? 0} line ${i}: ${"x".repeat(60)}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join("\n").slice(0, args.chars);
  },
});

export const isSummaryRequest = (request: ModelRequest) => request.tools.length === 0;

/** Wraps a policy into the shared ScriptedProvider's queue form (each reply delegates). */
export function feed(model: ScriptedProvider, count: number, policy: ReplyFn): void {
  for (let i = 0; i < count; i++) model.push(policy);
}

export function summaryReply(): ScriptedReply {
  return { text: "## Goal\nFinish the scripted task.\n## Done\nSteps so far completed.\n## Open\nContinue." };
}

export interface SessionRunner {
  conversation: Conversation;
  /** The conversation's messages (a live view). */
  messages: readonly Message[];
  events: AgentEvent[];
  run(prompt: string, maxTurns?: number): ReturnType<typeof runAgentLoop>;
}

/** A conversation kept across prompts, like the REPL: one history, one loop run per prompt. */
export function sessionRunner(options: {
  model: ScriptedProvider;
  system: string;
  tools: Tool[];
  root: string;
  extensions: LoopExtension[];
  /** The history to start from. */
  history?: readonly Message[];
  observers?: Array<(event: AgentEvent) => void>;
}): SessionRunner {
  const conversation = new Conversation(options.history);
  const events: AgentEvent[] = [];
  const registry = new ToolRegistry(options.tools);
  const workspace = new Workspace(options.root);
  return {
    conversation,
    messages: conversation.messages,
    events,
    run(prompt, maxTurns = 50) {
      conversation.append({ role: "user", content: prompt });
      return runAgentLoop(
        {
          provider: options.model,
          system: options.system,
          tools: registry,
          workspace,
          maxTurns,
          extensions: options.extensions,
          emit: (event) => {
            events.push(event);
            for (const observe of options.observers ?? []) observe(event);
          },
        },
        conversation,
      );
    },
  };
}
